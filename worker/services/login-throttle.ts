import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { loginAttempts } from "../../db/schema";
import { tooMany } from "../lib/errors";
import { MINUTE } from "../lib/time";
import { type Limiter, loginLimits, tooManyMessage } from "./rate-limits";

// A window of 15 minutes; an email is locked after 5 attempts that did not succeed, a client address
// after LOGIN_MAX_FAILURES_PER_CLIENT (loose: many writers may share one address).
const THROTTLE_WINDOW_MS = 15 * MINUTE;

/** The two counters one login attempt touches: its email and its client address. */
export type ThrottleKeys = { email: string; client: string };

export function throttleKeys(email: string, clientKey: string): ThrottleKeys {
  return { email: `email:${email.toLowerCase()}`, client: `ip:${clientKey}` };
}

/**
 * Counts the attempt BEFORE its password is checked, in one UPSERT … RETURNING per key: of any number
 * of parallel guesses, only the first `max` get a password check; the rest answer 429. A window
 * restarts once it (or its lock) has passed. Returns how long to wait when refused, else 0.
 */
async function countAttempt(db: Db, key: string, max: number, lockMs: number): Promise<number> {
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const cutoff = new Date(now - THROTTLE_WINDOW_MS).toISOString();
  const fresh = sql`((locked_until IS NULL AND window_start < ${cutoff}) OR locked_until <= ${nowIso})`;
  const row = await db.get<{ failures: number; locked_until: string | null }>(sql`
    INSERT INTO login_attempts (key, failures, window_start, locked_until)
    VALUES (${key}, 1, ${nowIso}, ${max <= 1 ? new Date(now + lockMs).toISOString() : null})
    ON CONFLICT(key) DO UPDATE SET
      failures = CASE WHEN ${fresh} THEN 1 ELSE failures + 1 END,
      window_start = CASE WHEN ${fresh} THEN excluded.window_start ELSE window_start END,
      locked_until = CASE
        WHEN ${fresh} THEN NULL
        WHEN locked_until IS NULL AND failures + 1 >= ${max} THEN ${new Date(now + lockMs).toISOString()}
        ELSE locked_until END
    RETURNING failures, locked_until
  `);
  if (row.failures <= max) return 0;
  return Math.max((row.locked_until ? Date.parse(row.locked_until) : now + lockMs) - now, 1000);
}

/**
 * Spends one attempt of the email and of the client address; 429 with Retry-After when either is
 * used up (even for the right password). Call before checking the password.
 */
export async function claimLoginAttempt(limiter: Limiter, keys: ThrottleKeys) {
  const { perEmail, perClient, lockMs } = loginLimits(limiter.env);
  const waits = await Promise.all([
    countAttempt(limiter.db, keys.email, perEmail, lockMs),
    countAttempt(limiter.db, keys.client, perClient, lockMs),
  ]);
  const wait = Math.max(...waits);
  if (wait > 0) throw tooMany(tooManyMessage("failed login attempts", wait), Math.ceil(wait / 1000));
}

/**
 * The statements a good login runs in its batch: the email's attempts are forgotten and the client's
 * attempt given back (only failures count against a shared address).
 */
export function clearLoginAttempt(db: Db, keys: ThrottleKeys) {
  return [
    db.delete(loginAttempts).where(eq(loginAttempts.key, keys.email)),
    db
      .update(loginAttempts)
      .set({ failures: sql`max(${loginAttempts.failures} - 1, 0)` })
      .where(and(eq(loginAttempts.key, keys.client), isNull(loginAttempts.lockedUntil))),
  ] as const;
}
