import type { EventDoc } from "../durable-objects/event-doc";
import type { TimelineRoom } from "../durable-objects/timeline-room";

export interface Env {
  DB: D1Database;
  TimelineRoom: DurableObjectNamespace<TimelineRoom>;
  EventDoc: DurableObjectNamespace<EventDoc>;
  /** Attachments' bytes (metadata in D1 `files`). */
  FILES: R2Bucket;
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
  /** OAuth sign-in: a provider's button shows only when its client id and secret (secrets) are both set. */
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  /** Where GitHub's authorize/token endpoints and its API live (default https://github.com, https://api.github.com). */
  GITHUB_OAUTH_BASE?: string;
  GITHUB_API_BASE?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Google's endpoints (defaults: the real ones); tests point them at a fake provider. */
  GOOGLE_AUTH_URL?: string;
  GOOGLE_TOKEN_URL?: string;
  GOOGLE_USERINFO_URL?: string;
  /** "development" only where `MAILER=log` may print mail (tokens) to the log: set by .dev.vars and the test configs. */
  ENVIRONMENT?: string;
  /** Login lockout and rate limits (worker/services/rate-limits.ts): numbers as strings, from wrangler.toml [vars]. */
  LOGIN_MAX_FAILURES_PER_EMAIL?: string;
  LOGIN_MAX_FAILURES_PER_CLIENT?: string;
  LOGIN_LOCK_MINUTES?: string;
  RATE_REGISTER_PER_CLIENT_PER_HOUR?: string;
  RATE_RESET_MAILS_PER_EMAIL_PER_HOUR?: string;
  RATE_RESET_PER_CLIENT_PER_HOUR?: string;
  RATE_VERIFY_MAILS_PER_ACCOUNT_PER_HOUR?: string;
  RATE_VERIFY_PER_CLIENT_PER_HOUR?: string;
  RATE_AI_PER_ACCOUNT_PER_HOUR?: string;
  RATE_AI_PER_CLIENT_PER_HOUR?: string;
  RATE_AI_TEST_PER_ACCOUNT_PER_HOUR?: string;
  RATE_EXPORT_PER_ACCOUNT_PER_HOUR?: string;
  RATE_COMMENTS_PER_ACCOUNT_PER_HOUR?: string;
  RATE_READER_LINK_WRITES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_READER_READS_PER_LINK_PER_HOUR?: string;
  RATE_READER_COMMENTS_PER_LINK_PER_HOUR?: string;
  RATE_READER_COMMENTS_PER_READER_PER_HOUR?: string;
  RATE_READER_PROGRESS_PER_READER_PER_HOUR?: string;
  /** Shares and invitations by email (each mails someone), per account. */
  RATE_INVITATIONS_PER_ACCOUNT_PER_HOUR?: string;
  /** The site's address for links in mail sent outside a request (the daily digest), e.g. https://storyweave.app. */
  APP_ORIGIN?: string;
  RATE_IMPORT_PER_ACCOUNT_PER_HOUR?: string;
  RATE_IMPORT_PER_CLIENT_PER_HOUR?: string;
  RATE_CHAPTER_WRITES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_PLAN_WRITES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_RESTORES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_PROGRESS_PER_ACCOUNT_PER_HOUR?: string;
  RATE_DOC_STATE_PER_ACCOUNT_PER_HOUR?: string;
  RATE_ACTIVITY_PER_ACCOUNT_PER_HOUR?: string;
  RATE_MOVES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_COMMENT_EDITS_PER_ACCOUNT_PER_HOUR?: string;
  RATE_SERIES_WRITES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_TIMELINE_EXPORTS_PER_ACCOUNT_PER_HOUR?: string;
  RATE_RELATIONSHIP_WRITES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_PROGRESSION_WRITES_PER_ACCOUNT_PER_HOUR?: string;
  RATE_NOTIFY_MAILS_PER_RECIPIENT_PER_HOUR?: string;
  RATE_SUGGESTION_NOTICES_PER_WRITER_PER_SCENE?: string;
  /** Premium is unlimited but rate-limited per minute against abuse. */
  RATE_AI_PREMIUM_PER_MINUTE?: string;
  /** Story bible size for timeline AI tools, in tokens (chars/4; default 3000). */
  AI_CONTEXT_BUDGET_TOKENS?: string;
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
