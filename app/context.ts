import { createContext } from "react-router";
import type { Db } from "../db/client";
import type { Env } from "../worker/env";
import type { RoomNotifier } from "../worker/lib/room";
import type { RequestAuth } from "../worker/services/sessions";

export type AppContext = {
  env: Env;
  ctx: ExecutionContext;
  db: Db;
  /** The current request's CSP nonce, for React Router's inline hydration scripts. */
  nonce: string;
  /** Resolved once per request by the Worker (one D1 query). */
  auth: RequestAuth;
  /** Tells a timeline's room about a write a loader or action made (services call it). */
  room: RoomNotifier;
};

export const appContext = createContext<AppContext>();
