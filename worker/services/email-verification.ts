import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, users, verificationTokens } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { badRequest } from "../lib/errors";
import type { Mailer } from "../lib/mailer";
import { DAY, isoIn, nowIso } from "../lib/time";
import { acceptInvitations } from "./invitations";
import { type Limiter, spend } from "./rate-limits";
import { type PublicUser, toPublicUser } from "./users";

export const VERIFICATION_TOKEN_TTL_MS = DAY;

export const INVALID_VERIFICATION_TOKEN = "This verification link is invalid or has expired.";
export const ALREADY_VERIFIED = "Your email is already verified.";

/**
 * How a verification email leaves: the site's origin for the link, the mailer, and where the send may run on;
 * `returnTo`, a path on this site (db/domain/redirect.ts), rides along in the link so the writer continues where they
 * were going when they registered.
 */
export type VerificationMail = { origin: string; mailer: Mailer; defer: (p: Promise<unknown>) => void; returnTo?: string | null };

export function isAdminEmail(email: string, adminEmails?: string) {
  if (!adminEmails) return false;
  return adminEmails
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
    .includes(email.toLowerCase());
}

/** Admin only for a verified address listed in ADMIN_EMAILS; an admin no longer listed goes back to 'user'. */
export function roleFor(user: Pick<User, "email" | "role" | "isEmailVerified">, adminEmails?: string): User["role"] {
  return user.isEmailVerified && isAdminEmail(user.email, adminEmails) ? "admin" : "user";
}

/** Stores a fresh token's hash (24 h) and mails the link; the send runs on `defer` so the answer does not wait for it. */
export async function sendVerificationEmail(db: Db, user: Pick<User, "id" | "email">, mail: VerificationMail) {
  const token = randomToken(24);
  await db
    .insert(verificationTokens)
    .values({ userId: user.id, tokenHash: await sha256Hex(token), expiresAt: isoIn(VERIFICATION_TOKEN_TTL_MS) });
  const back = mail.returnTo ? `&redirectTo=${encodeURIComponent(mail.returnTo)}` : "";
  const link = `${mail.origin}/auth/verify-email?token=${encodeURIComponent(token)}${back}`;
  mail.defer(
    mail.mailer
      .send({
        to: user.email,
        subject: "Verify your StoryWeave email",
        text:
          `Welcome to StoryWeave!\n\n` +
          `Open this link within 24 hours to verify your email address:\n${link}\n\n` +
          `If you did not create a StoryWeave account, ignore this email.`,
      })
      .catch((error) => console.error("[mail] failed to send verification email:", String(error))),
  );
}

/**
 * A new link for a signed-in, unverified writer; 400 when already verified, 429 (Retry-After) past the
 * hourly limits: per account (RATE_VERIFY_MAILS_PER_ACCOUNT_PER_HOUR, the registration email counts)
 * and per client address.
 */
export async function resendVerificationEmail(db: Db, user: User, mail: VerificationMail, limiter: Limiter) {
  if (user.isEmailVerified) throw badRequest(ALREADY_VERIFIED);
  await spend(limiter, "verifyClient", limiter.client);
  await spend(limiter, "verifyMail", `user:${user.id}`);
  await sendVerificationEmail(db, user, mail);
  return { message: "Verification email sent" };
}

/** Single use: the token is consumed, the address marked verified, and the role follows ADMIN_EMAILS. */
export async function verifyEmail(db: Db, token: string, adminEmails?: string): Promise<PublicUser> {
  const trimmed = token.trim();
  if (!trimmed || trimmed.length > 200) throw badRequest(INVALID_VERIFICATION_TOKEN);
  // Deleting the row is the claim: a second (or concurrent) use finds nothing.
  const claimed = await db
    .delete(verificationTokens)
    .where(and(eq(verificationTokens.tokenHash, await sha256Hex(trimmed)), gt(verificationTokens.expiresAt, nowIso())))
    .returning()
    .get();
  if (!claimed) throw badRequest(INVALID_VERIFICATION_TOKEN);
  const user = await db.select().from(users).where(eq(users.id, claimed.userId)).get();
  if (!user) throw badRequest(INVALID_VERIFICATION_TOKEN);
  const role = roleFor({ ...user, isEmailVerified: true }, adminEmails);
  const [updated] = await db.batch([
    db.update(users).set({ isEmailVerified: true, role, updatedAt: nowIso() }).where(eq(users.id, user.id)).returning(),
    // The account is verified: its other links are of no more use.
    db.delete(verificationTokens).where(eq(verificationTokens.userId, user.id)),
  ]);
  // The address is proven: timelines it was invited to before it had an account are shared with it now.
  await acceptInvitations(db, updated[0]);
  return toPublicUser(updated[0]);
}
