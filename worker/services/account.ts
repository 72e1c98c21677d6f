import { and, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { RECENT_SIGN_IN_MS, signInMethodMessages } from "../../db/domain/sign-in-rules";
import { comments, eventVersions, events, type User, sessions, timelines, users } from "../../db/schema";
import type { Env } from "../env";
import { hashPassword, verifyPassword } from "../lib/crypto";
import { HttpError, badRequest, forbidden } from "../lib/errors";
import type { Mailer } from "../lib/mailer";
import type { DocRemover } from "../lib/room";
import { nowIso } from "../lib/time";
import { deleteObjects } from "./attachment-store";
import { PAYMENTS_NOT_CONFIGURED, cancelSubscription } from "./billing";
import { type Deps, authorOf } from "./deps";
import { claimLoginAttempt, clearLoginAttempt, throttleKeys } from "./login-throttle";
import type { Limiter } from "./rate-limits";
import { closeSessionSockets } from "./sessions";
import { type PublicUser, toPublicUser } from "./users";
import { DELETED_WRITER } from "./versions";

// The writer's own account: name, password, and deleting it all. The zip export is account-export.ts.

/** Deleting the account or setting a first password needs the password or a sign-in as recent as a sign-in method change. */
const SIGN_IN_AGAIN = signInMethodMessages.signInAgain;
export const INCORRECT_PASSWORD = "Incorrect password";
export const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";

export type AccountDeps = Deps & {
  secret: string;
  files: R2Bucket;
  env: Env;
  mailer: Mailer;
  defer: (p: Promise<unknown>) => void;
  removeDocs?: DocRemover;
};

/** PATCH /api/account {name?, dailyGoalWords?, notifyEmail?}: the public user, the daily goal and how notifications are mailed. */
export async function updateAccount(
  db: Db,
  user: User,
  input: { name?: string; dailyGoalWords?: number | null; notifyEmail?: User["notifyEmail"] },
): Promise<PublicUser & { dailyGoalWords: number | null; notifyEmail: User["notifyEmail"] }> {
  const updated = await db
    .update(users)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.dailyGoalWords !== undefined && { dailyGoalWords: input.dailyGoalWords }),
      ...(input.notifyEmail !== undefined && { notifyEmail: input.notifyEmail }),
      // Choosing the digest starts its day now: the first one covers what comes after (earlier ones were mailed or not wanted).
      ...(input.notifyEmail === "daily" && user.notifyEmail !== "daily" && { lastDigestAt: nowIso() }),
      updatedAt: nowIso(),
    })
    .where(eq(users.id, user.id))
    .returning()
    .get();
  return { ...toPublicUser(updated), dailyGoalWords: updated.dailyGoalWords ?? null, notifyEmail: updated.notifyEmail };
}

async function signedInRecently(db: Db, sessionId: string) {
  const row = await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, sessionId)).get();
  return Boolean(row && Date.now() - Date.parse(row.createdAt) <= RECENT_SIGN_IN_MS);
}

/**
 * Checks a password the writer typed for themselves. The guess counts against the same lockout as a
 * login (per address and per client), so a stolen session cannot try passwords here without limit.
 */
async function passwordMatches(deps: Pick<AccountDeps, "db" | "secret">, limiter: Limiter, user: User, password: string) {
  const keys = throttleKeys(user.email, limiter.client);
  await claimLoginAttempt(limiter, keys);
  const ok = Boolean(user.hashedPassword) && (await verifyPassword(password, user.hashedPassword, deps.secret));
  if (ok) await deps.db.batch([...clearLoginAttempt(deps.db, keys)]);
  return ok;
}

/**
 * POST /api/account/password. A writer with a password gives the current one; a writer without one
 * (signed up with a provider) may set one only within minutes of signing in. Every other session of the
 * writer ends (its sockets close); this one stays.
 */
export async function changePassword(
  deps: AccountDeps,
  limiter: Limiter,
  user: User,
  sessionId: string,
  input: { currentPassword?: string; newPassword: string },
): Promise<PublicUser> {
  const { db } = deps;
  if (user.hashedPassword) {
    if (!input.currentPassword || !(await passwordMatches(deps, limiter, user, input.currentPassword))) {
      throw badRequest(CURRENT_PASSWORD_INCORRECT);
    }
  } else if (!(await signedInRecently(db, sessionId))) {
    throw forbidden(SIGN_IN_AGAIN);
  }
  const hashedPassword = await hashPassword(input.newPassword, deps.secret);
  const [updated, revoked] = await db.batch([
    db
      .update(users)
      // A reset link mailed before the change must not undo it.
      .set({ hashedPassword, resetPasswordToken: null, resetPasswordExpires: null, updatedAt: nowIso() })
      .where(eq(users.id, user.id))
      .returning(),
    db
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, sessionId)))
      .returning({ id: sessions.id }),
  ]);
  await closeSessionSockets(
    deps,
    user.id,
    revoked.map((s) => s.id),
  );
  deps.defer(
    deps.mailer
      .send({
        to: user.email,
        subject: user.hashedPassword ? "Your StoryWeave password was changed" : "A password was added to your StoryWeave account",
        text:
          `The password of your StoryWeave account was ${user.hashedPassword ? "changed" : "set"}, and every other device was signed out.\n\n` +
          `If it wasn't you, reset your password from the login page ("Forgot password?") right away.`,
      })
      .catch((error) => console.error("[mail] failed to send password change email:", String(error))),
  );
  return toPublicUser(updated[0]);
}

/**
 * DELETE /api/account: the password (when the writer has one and gives it) or a sign-in within the last
 * minutes. Then everything the writer owns goes: their timelines with all that is in them, the
 * attachments' bytes, shares, sign-in methods and sessions (foreign keys cascade from the user and
 * the timelines). Versions and comments they wrote in other writers' timelines stay, under 'Deleted writer'.
 */
export async function deleteAccount(deps: AccountDeps, limiter: Limiter, user: User, sessionId: string, password?: string) {
  const { db } = deps;
  if (password && user.hashedPassword) {
    if (!(await passwordMatches(deps, limiter, user, password))) throw forbidden(INCORRECT_PASSWORD);
  } else if (!(await signedInRecently(db, sessionId))) {
    throw forbidden(SIGN_IN_AGAIN);
  }

  // Billing first: if Stripe cannot cancel, nothing is deleted and the writer can try again.
  if (user.stripeSubscriptionId) {
    try {
      await cancelSubscription(db, deps.env, user.stripeSubscriptionId);
    } catch (error) {
      // No payment keys at all: there is nothing to cancel with, and it must not keep the account alive.
      if (!(error instanceof HttpError && error.message === PAYMENTS_NOT_CONFIGURED)) throw error;
      console.warn(`[account] subscription ${user.stripeSubscriptionId} not cancelled: payments are not configured`);
    }
  }

  const owned = (await db.select({ id: timelines.id }).from(timelines).where(eq(timelines.userId, user.id))).map((t) => t.id);
  const ownedEvents = (
    await db
      .select({ id: events.id })
      .from(events)
      .innerJoin(timelines, eq(timelines.id, events.timelineId))
      .where(eq(timelines.userId, user.id))
  ).map((e) => e.id);
  const sessionIds = (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.id);
  // Told now (it reads the user's timelines and shares); the rooms act after the answer, when all is gone.
  await closeSessionSockets(deps, user.id, sessionIds);
  for (const id of owned) deps.room(id, { action: "timeline-deleted", by: authorOf(user) });

  await db.batch([
    db.update(eventVersions).set({ authorName: DELETED_WRITER }).where(eq(eventVersions.authorId, user.id)),
    db.update(comments).set({ authorName: DELETED_WRITER }).where(eq(comments.authorId, user.id)),
    db.delete(timelines).where(eq(timelines.userId, user.id)),
    db.delete(users).where(eq(users.id, user.id)),
  ]);
  for (const id of owned) await deleteTimelineObjects(deps.files, id);
  // The scenes' shared docs keep their own storage: it goes too (after the answer; the rows are gone already).
  if (deps.removeDocs && ownedEvents.length) deps.defer(deps.removeDocs(ownedEvents));
  return { success: true };
}

/**
 * Every object under the timeline's prefix (worker/services/attachments.ts names them `t/{id}/…`), listed
 * rather than taken from the rows, so an upload whose row never landed is not left behind either.
 * A failure is logged: the rows, which are what anyone can reach, are already gone.
 */
async function deleteTimelineObjects(bucket: R2Bucket, timelineId: number) {
  let cursor: string | undefined;
  try {
    do {
      const page = await bucket.list({ prefix: `t/${timelineId}/`, cursor });
      await deleteObjects(
        bucket,
        page.objects.map((o) => o.key),
      );
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  } catch (error) {
    console.error("[account] listing attachments failed:", String(error));
  }
}
