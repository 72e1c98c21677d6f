import { messages } from "../../db/domain/rules";
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oauthAccounts, sessions, users } from "../../db/schema";
import { hashPassword, randomToken, sha256Hex } from "../lib/crypto";
import { badRequest } from "../lib/errors";
import type { Mailer } from "../lib/mailer";
import type { RoomNotifier } from "../lib/room";
import { HOUR, isoIn, nowIso } from "../lib/time";
import type { AuthDeps } from "./auth";
import { type Limiter, spend } from "./rate-limits";
import { closeSessionSockets, createSession } from "./sessions";
import { type AccountMail, mailSignInChange } from "./sign-in-methods";
import { type PublicUser, findUserByEmail, toPublicUser } from "./users";

export const RESET_TOKEN_TTL_MS = HOUR;

export const INVALID_RESET_TOKEN = messages.invalidResetToken;
export const FORGOT_PASSWORD_MESSAGE = messages.forgotPassword;

/**
 * Always resolves the same way whether or not the account exists (no account enumeration); the rate
 * limits (per client address, and per address asked for) apply to both alike.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  origin: string,
  mailer: Mailer,
  defer: (p: Promise<unknown>) => void,
  limiter: Limiter,
) {
  await spend(limiter, "resetClient", limiter.client);
  await spend(limiter, "resetMail", email.trim());
  const user = await findUserByEmail(db, email);
  if (!user) return { message: FORGOT_PASSWORD_MESSAGE };
  const token = randomToken(24);
  await db
    .update(users)
    .set({ resetPasswordToken: await sha256Hex(token), resetPasswordExpires: isoIn(RESET_TOKEN_TTL_MS) })
    .where(eq(users.id, user.id));
  const link = `${origin}/auth/reset-password?token=${encodeURIComponent(token)}`;
  defer(
    mailer
      .send({
        to: user.email,
        subject: "Reset your StoryWeave password",
        text:
          `Someone asked to reset the password of your StoryWeave account.\n\n` +
          `Open this link within 1 hour to choose a new password:\n${link}\n\n` +
          `Or enter this reset token on the reset page: ${token}\n\n` +
          `If it wasn't you, ignore this email: your password stays the same.`,
      })
      .catch((error) => console.error("[mail] failed to send reset email:", String(error))),
  );
  return { message: FORGOT_PASSWORD_MESSAGE };
}

async function userForResetToken(db: Db, token: string) {
  if (!token || token.length > 200) return undefined;
  return db
    .select()
    .from(users)
    .where(and(eq(users.resetPasswordToken, await sha256Hex(token)), gt(users.resetPasswordExpires, nowIso())))
    .get();
}

export async function isResetTokenValid(db: Db, token: string) {
  return Boolean(await userForResetToken(db, token.trim()));
}

/**
 * Single use: the token is cleared, every session revoked (their room sockets closed), and a fresh one
 * returned.
 */
export async function resetPassword(
  deps: AuthDeps & { room: RoomNotifier; mail?: AccountMail },
  token: string,
  password: string,
  opts: { signIn: boolean } = { signIn: true },
): Promise<{ token: string | null; user: PublicUser }> {
  const { db } = deps;
  const user = await userForResetToken(db, token.trim());
  if (!user) throw badRequest(INVALID_RESET_TOKEN);
  const hashedPassword = await hashPassword(password, deps.secret);
  const [updated, revoked] = await db.batch([
    db
      .update(users)
      .set({ hashedPassword, resetPasswordToken: null, resetPasswordExpires: null, lastLogin: nowIso(), updatedAt: nowIso() })
      // The token in the WHERE makes a concurrent second use of the same token a no-op.
      .where(and(eq(users.id, user.id), eq(users.resetPasswordToken, user.resetPasswordToken!)))
      .returning(),
    db.delete(sessions).where(eq(sessions.userId, user.id)).returning({ id: sessions.id }),
  ]);
  if (!updated[0]) throw badRequest(INVALID_RESET_TOKEN);
  if (!user.isEmailVerified) {
    // The reset link just proved the address; a provider connected before that proof may be someone squatting
    // it, so it goes (as in an OAuth claim). The owner connects their own again from /account.
    const removed = await db.delete(oauthAccounts).where(eq(oauthAccounts.userId, user.id)).returning({ provider: oauthAccounts.provider });
    if (removed.length && deps.mail) {
      mailSignInChange(
        deps.mail,
        user.email,
        "Your password was reset. Sign-in methods connected before you proved this address were removed: connect yours again on your account page.",
      );
    }
  }
  await closeSessionSockets(
    deps,
    user.id,
    revoked.map((s) => s.id),
  );
  return {
    token: opts.signIn ? await createSession(db, user.id) : null,
    user: toPublicUser(updated[0]),
  };
}
