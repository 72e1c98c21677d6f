import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { loginAttempts } from "../../db/schema";
import { tooMany } from "../lib/errors";
import { MINUTE } from "../lib/time";

// A window of 15 minutes; an email is locked after 5 failures, a client address after 20.
const THROTTLE_WINDOW_MS = 15 * MINUTE;
const THROTTLE_LOCK_MS = 15 * MINUTE;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_CLIENT = 20;

/** The two counters one login attempt touches: its email and its client address. */
export type ThrottleKeys = { email: string; client: string };

export function throttleKeys(email: string, clientKey: string): ThrottleKeys {
  return { email: `email:${email.toLowerCase()}`, client: `ip:${clientKey}` };
}

async function throttleState(db: Db, key: string) {
  return db.select().from(loginAttempts).where(eq(loginAttempts.key, key)).get();
}

function lockedFor(row: { lockedUntil: string | null } | undefined): number {
  if (!row?.lockedUntil) return 0;
  const left = Date.parse(row.lockedUntil) - Date.now();
  return Math.max(left, 0);
}

function throttled(ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  return tooMany(`Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, Math.ceil(ms / 1000));
}

/** 429 with Retry-After while either the email or the client address is locked. */
export async function assertNotThrottled(db: Db, keys: ThrottleKeys) {
  const [emailState, clientState] = await Promise.all([throttleState(db, keys.email), throttleState(db, keys.client)]);
  const wait = Math.max(lockedFor(emailState), lockedFor(clientState));
  if (wait > 0) throw throttled(wait);
}

async function recordFailure(db: Db, key: string, max: number) {
  const now = Date.now();
  const windowStartCutoff = new Date(now - THROTTLE_WINDOW_MS).toISOString();
  // One statement: start a new window when the old one has passed, else count up; lock at the max.
  await db.run(sql`
    INSERT INTO login_attempts (key, failures, window_start, locked_until)
    VALUES (${key}, 1, ${new Date(now).toISOString()}, NULL)
    ON CONFLICT(key) DO UPDATE SET
      failures = CASE WHEN window_start < ${windowStartCutoff} THEN 1 ELSE failures + 1 END,
      window_start = CASE WHEN window_start < ${windowStartCutoff} THEN excluded.window_start ELSE window_start END,
      locked_until = CASE
        WHEN window_start >= ${windowStartCutoff} AND failures + 1 >= ${max}
        THEN ${new Date(now + THROTTLE_LOCK_MS).toISOString()}
        ELSE locked_until END
  `);
}

export async function recordLoginFailure(db: Db, keys: ThrottleKeys) {
  await Promise.all([recordFailure(db, keys.email, MAX_FAILURES_PER_EMAIL), recordFailure(db, keys.client, MAX_FAILURES_PER_CLIENT)]);
}

/** The statement that forgets an email's failures after a good login, for the caller's batch. */
export function clearEmailFailures(db: Db, keys: ThrottleKeys) {
  return db.delete(loginAttempts).where(eq(loginAttempts.key, keys.email));
}
