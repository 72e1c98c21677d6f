import { and, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { invitations, loginAttempts, rateLimits, sessions, users, verificationTokens } from "../../db/schema";
import { DAY } from "../lib/time";
import { purgeIdempotencyKeys } from "./idempotency-keys";
import { absoluteCutoff } from "./sessions";
import { type TrashPurgeDeps, purgeTrash } from "./trash";
import { purgeOldVersions } from "./versions";

/** Login attempt counters untouched for this long (and not locking anything) are dropped. */
export const LOGIN_ATTEMPTS_KEPT_MS = DAY;

/**
 * The scheduled Worker's clean-up (cron in wrangler.toml): sessions past their sliding or absolute end,
 * reset tokens past their hour, verification tokens past their day, invitations past their 14 days, stale
 * login-attempt and rate-limit counters.
 * Free owners' event versions past their 30 days. Used tokens are already gone (reset clears its token, verification deletes its row). One batch.
 * With `trash` (the attachments' bucket and the docs), also what has been in Trash for more than 30 days.
 */
export async function purgeExpired(db: Db, now = Date.now(), trash?: TrashPurgeDeps) {
  const nowIso = new Date(now).toISOString();
  const staleAttempts = new Date(now - LOGIN_ATTEMPTS_KEPT_MS).toISOString();
  const [s, r, v, a, l, ev, inv, idem] = await db.batch([
    db
      .delete(sessions)
      .where(or(lte(sessions.expiresAt, nowIso), lte(sessions.createdAt, absoluteCutoff(now))))
      .returning({ id: sessions.id }),
    db
      .update(users)
      .set({ resetPasswordToken: null, resetPasswordExpires: null })
      .where(and(isNotNull(users.resetPasswordExpires), lte(users.resetPasswordExpires, nowIso)))
      .returning({ id: users.id }),
    db.delete(verificationTokens).where(lte(verificationTokens.expiresAt, nowIso)).returning({ id: verificationTokens.id }),
    db
      .delete(loginAttempts)
      .where(
        and(lte(loginAttempts.windowStart, staleAttempts), or(isNull(loginAttempts.lockedUntil), lte(loginAttempts.lockedUntil, nowIso))),
      )
      .returning({ key: loginAttempts.key }),
    // Rate-limit windows are an hour at most: a day-old counter limits nothing.
    db.delete(rateLimits).where(lte(rateLimits.windowStart, staleAttempts)).returning({ key: rateLimits.key }),
    purgeOldVersions(db, now),
    db.delete(invitations).where(lte(invitations.expiresAt, nowIso)).returning({ id: invitations.id }),
    // Creates' Idempotency-Keys past their 24 hours.
    purgeIdempotencyKeys(db, now),
  ]);
  const trashed = trash ? await purgeTrash(db, trash, now) : { timelines: 0, events: 0 };
  return {
    sessions: s.length,
    resetTokens: r.length,
    verificationTokens: v.length,
    loginAttempts: a.length,
    rateLimits: l.length,
    eventVersions: ev.length,
    invitations: inv.length,
    idempotencyKeys: idem.length,
    trashedTimelines: trashed.timelines,
    trashedEvents: trashed.events,
  };
}
