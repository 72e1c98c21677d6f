import type { TimelineRoom } from "../durable-objects/timeline-room";

export interface Env {
  DB: D1Database;
  TimelineRoom: DurableObjectNamespace<TimelineRoom>;
  /** Pepper for password hashes and the key for encrypted settings. Required. */
  APP_SECRET: string;
  ADMIN_EMAILS?: string;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_MODEL?: string;
  /** Milliseconds before an AI call gives up (default 30000). */
  AI_TIMEOUT_MS?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  MAILER?: string;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  /** "1" adds a Server-Timing header with the D1 statements of each request (`npm run bench`). */
  SERVER_TIMING?: string;
}

type WorkerEnv = Env;

declare global {
  namespace Cloudflare {
    // partyserver and cloudflare:workers type `env` as Cloudflare.Env.
    interface Env extends WorkerEnv {}
  }
}
