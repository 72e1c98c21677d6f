import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tooMany } from "../lib/errors";
import { HOUR, MINUTE } from "../lib/time";

/**
 * Rate limits: tight per account or address, loose per client address so a school or
 * office behind one address is never blocked. Every number is a [vars] entry in wrangler.toml; the
 * defaults below apply when one is missing or not a positive integer.
 */
export const RATE_RULES = {
  register: { env: "RATE_REGISTER_PER_CLIENT_PER_HOUR", limit: 300, windowMs: HOUR, what: "registrations" },
  resetMail: { env: "RATE_RESET_MAILS_PER_EMAIL_PER_HOUR", limit: 3, windowMs: HOUR, what: "password reset emails" },
  resetClient: { env: "RATE_RESET_PER_CLIENT_PER_HOUR", limit: 300, windowMs: HOUR, what: "password reset requests" },
  verifyMail: { env: "RATE_VERIFY_MAILS_PER_ACCOUNT_PER_HOUR", limit: 3, windowMs: HOUR, what: "verification emails" },
  verifyClient: { env: "RATE_VERIFY_PER_CLIENT_PER_HOUR", limit: 300, windowMs: HOUR, what: "verification requests" },
  aiAccount: { env: "RATE_AI_PER_ACCOUNT_PER_HOUR", limit: 120, windowMs: HOUR, what: "AI requests" },
  aiClient: { env: "RATE_AI_PER_CLIENT_PER_HOUR", limit: 1000, windowMs: HOUR, what: "AI requests" },
  aiPremium: { env: "RATE_AI_PREMIUM_PER_MINUTE", limit: 20, windowMs: MINUTE, what: "AI requests" },
  aiTest: { env: "RATE_AI_TEST_PER_ACCOUNT_PER_HOUR", limit: 20, windowMs: HOUR, what: "AI connection tests" },
  importAccount: { env: "RATE_IMPORT_PER_ACCOUNT_PER_HOUR", limit: 60, windowMs: HOUR, what: "imports" },
  importClient: { env: "RATE_IMPORT_PER_CLIENT_PER_HOUR", limit: 600, windowMs: HOUR, what: "imports" },
  accountExport: { env: "RATE_EXPORT_PER_ACCOUNT_PER_HOUR", limit: 10, windowMs: HOUR, what: "data downloads" },
  chapterWrites: { env: "RATE_CHAPTER_WRITES_PER_ACCOUNT_PER_HOUR", limit: 600, windowMs: HOUR, what: "chapter changes" },
  // New scenes (alone, or each item of a batch): a writer's hour never comes near it, nor a 200-scene offline
  // reconnect; the benches' API seeding (1,030 scenes per writer) stays under it too.
  sceneCreates: { env: "RATE_SCENE_CREATES_PER_ACCOUNT_PER_HOUR", limit: 2000, windowMs: HOUR, what: "new scenes" },
  trashRestores: { env: "RATE_RESTORES_PER_ACCOUNT_PER_HOUR", limit: 120, windowMs: HOUR, what: "restores from Trash" },
  planWrites: { env: "RATE_PLAN_WRITES_PER_ACCOUNT_PER_HOUR", limit: 600, windowMs: HOUR, what: "changes to plotlines and templates" },
  progress: { env: "RATE_PROGRESS_PER_ACCOUNT_PER_HOUR", limit: 600, windowMs: HOUR, what: "progress requests" },
  comments: { env: "RATE_COMMENTS_PER_ACCOUNT_PER_HOUR", limit: 120, windowMs: HOUR, what: "comments" },
  invitations: { env: "RATE_INVITATIONS_PER_ACCOUNT_PER_HOUR", limit: 60, windowMs: HOUR, what: "invitations" },
  docState: { env: "RATE_DOC_STATE_PER_ACCOUNT_PER_HOUR", limit: 1200, windowMs: HOUR, what: "scene loads" },
  activity: { env: "RATE_ACTIVITY_PER_ACCOUNT_PER_HOUR", limit: 600, windowMs: HOUR, what: "activity requests" },
  moves: { env: "RATE_MOVES_PER_ACCOUNT_PER_HOUR", limit: 300, windowMs: HOUR, what: "scene moves" },
  taskWrites: { env: "RATE_TASK_WRITES_PER_ACCOUNT_PER_HOUR", limit: 600, windowMs: HOUR, what: "task changes" },
  commentEdits: { env: "RATE_COMMENT_EDITS_PER_ACCOUNT_PER_HOUR", limit: 300, windowMs: HOUR, what: "comment changes" },
  seriesWrites: { env: "RATE_SERIES_WRITES_PER_ACCOUNT_PER_HOUR", limit: 300, windowMs: HOUR, what: "series changes" },
  relationshipWrites: {
    env: "RATE_RELATIONSHIP_WRITES_PER_ACCOUNT_PER_HOUR",
    limit: 600,
    windowMs: HOUR,
    what: "relationship changes",
  },
  progressionWrites: { env: "RATE_PROGRESSION_WRITES_PER_ACCOUNT_PER_HOUR", limit: 600, windowMs: HOUR, what: "progression changes" },
  timelineExports: { env: "RATE_TIMELINE_EXPORTS_PER_ACCOUNT_PER_HOUR", limit: 120, windowMs: HOUR, what: "exports" },
  readerLinkWrites: { env: "RATE_READER_LINK_WRITES_PER_ACCOUNT_PER_HOUR", limit: 120, windowMs: HOUR, what: "reader link changes" },
  readerReads: { env: "RATE_READER_READS_PER_LINK_PER_HOUR", limit: 1200, windowMs: HOUR, what: "reads of this link" },
  readerCommentsLink: { env: "RATE_READER_COMMENTS_PER_LINK_PER_HOUR", limit: 200, windowMs: HOUR, what: "comments from this link" },
  readerCommentsReader: { env: "RATE_READER_COMMENTS_PER_READER_PER_HOUR", limit: 60, windowMs: HOUR, what: "comments" },
  readerProgress: { env: "RATE_READER_PROGRESS_PER_READER_PER_HOUR", limit: 600, windowMs: HOUR, what: "progress updates" },
  // Budgets, not refusals (see `withinBudget`): past them the notification is still stored, only its email is not sent.
  notifyMails: { env: "RATE_NOTIFY_MAILS_PER_RECIPIENT_PER_HOUR", limit: 10, windowMs: HOUR, what: "notification emails" },
  suggestionNotices: { env: "RATE_SUGGESTION_NOTICES_PER_WRITER_PER_SCENE", limit: 1, windowMs: 30 * MINUTE, what: "suggestion notices" },
} as const satisfies Record<string, { env: `RATE_${string}`; limit: number; windowMs: number; what: string }>;

/**
 * The Worker's settings as the limits read them (its `Env`, or part of it): a plain object here, so that this module,
 * which the shared doc's notifications use too, does not import env.ts (and the Durable Objects' types through it).
 */
export type Settings = object;
const setting = (env: Settings, name: string) => (env as Record<string, string | undefined>)[name];

export type RateRule = keyof typeof RATE_RULES;

/** Login lockout numbers (login-throttle.ts), also [vars]. */
export function loginLimits(env: Settings) {
  return {
    perEmail: positiveInt(setting(env, "LOGIN_MAX_FAILURES_PER_EMAIL"), 5),
    perClient: positiveInt(setting(env, "LOGIN_MAX_FAILURES_PER_CLIENT"), 100),
    lockMs: positiveInt(setting(env, "LOGIN_LOCK_MINUTES"), 15) * MINUTE,
  };
}

function positiveInt(value: string | undefined, fallback: number) {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function tooManyMessage(what: string, waitMs: number) {
  const minutes = Math.max(1, Math.ceil(waitMs / MINUTE));
  return `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * What one request may spend: the database, the configured numbers and the caller's client address.
 * Adapters build it once per request (`createLimiter`) and hand it to the services.
 */
export type Limiter = {
  db: Db;
  env: Settings;
  client: string;
};

export const createLimiter = (db: Db, env: Settings, client: string): Limiter => ({ db, env, client });

/**
 * Counts one use of `rule` for `subject` and throws 429 (Retry-After) past the limit. One UPSERT …
 * RETURNING: the count goes up before the caller does anything, so parallel requests cannot slip
 * past the limit between a read and a write.
 */
export async function spend(limiter: Limiter, rule: RateRule, subject: string, uses = 1) {
  const { count, limit, wait } = await countUse(limiter, rule, subject, uses);
  if (count > limit) throw tooMany(tooManyMessage(RATE_RULES[rule].what, wait), Math.ceil(wait / 1000));
}

/**
 * Counts one use of `rule` for `subject` like `spend`, but answers instead of refusing: how many uses are left in
 * the window after this one (negative: this one is past the limit). For budgets of work a request does on the side
 * (an email), where the request itself goes on.
 */
export async function spareBudget(limiter: Pick<Limiter, "db" | "env">, rule: RateRule, subject: string) {
  const { count, limit } = await countUse(limiter, rule, subject);
  return limit - count;
}

async function countUse(limiter: Pick<Limiter, "db" | "env">, rule: RateRule, subject: string, uses = 1) {
  const { env: name, windowMs, limit: fallback } = RATE_RULES[rule];
  const limit = positiveInt(setting(limiter.env, name), fallback);
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const cutoff = new Date(now - windowMs).toISOString();
  const key = `${rule}:${subject.toLowerCase().slice(0, 300)}`;
  const row = await limiter.db.get<{ count: number; window_start: string }>(sql`
    INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, ${uses}, ${nowIso})
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN window_start <= ${cutoff} THEN ${uses} ELSE count + ${uses} END,
      window_start = CASE WHEN window_start <= ${cutoff} THEN excluded.window_start ELSE window_start END
    RETURNING count, window_start
  `);
  return { count: row.count, limit, wait: Math.max(Date.parse(row.window_start) + windowMs - now, 1000) };
}
