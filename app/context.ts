import { createContext } from "react-router";
import type { Db } from "../db/client";
import type { Env } from "../worker/env";
import type { RequestAuth } from "../worker/services/sessions";

export type AppContext = {
  env: Env;
  ctx: ExecutionContext;
  db: Db;
  /** The current request's CSP nonce, for React Router's inline hydration scripts. */
  nonce: string;
  /** Resolved once per request by the Worker (one D1 query). */
  auth: RequestAuth;
};

export const appContext = createContext<AppContext>();
