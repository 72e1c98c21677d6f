import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type OAuthErrorCode,
  type OAuthProvider,
  RECENT_SIGN_IN_MS,
  oauthErrors,
  oauthProviderLabels,
  signInMethodMessages,
} from "../../db/domain/sign-in-rules";
import { oauthAccounts, type User, users } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../lib/errors";
import type { VerificationMail } from "./email-verification";

/** How a notice about the account's sign-in methods leaves: the same shape as the verification email's. */
export type AccountMail = VerificationMail;

export type SignInMethodList = { password: boolean; providers: { provider: OAuthProvider; linkedAt: string }[] };

/** Whether a password is set, and each connected provider with when it was connected. */
export async function listSignInMethods(db: Db, user: Pick<User, "id" | "hashedPassword">): Promise<SignInMethodList> {
  const linked = await db
    .select({ provider: oauthAccounts.provider, linkedAt: oauthAccounts.createdAt })
    .from(oauthAccounts)
    .where(eq(oauthAccounts.userId, user.id))
    .orderBy(asc(oauthAccounts.id))
    .all();
  return { password: Boolean(user.hashedPassword), providers: linked as SignInMethodList["providers"] };
}

/** The session as far as these rules read it: its user and when it signed in. */
type SignedIn = { user: Pick<User, "isEmailVerified">; signedInAt: string };

const signedInRecently = (session: Pick<SignedIn, "signedInAt">, now = Date.now()) =>
  now - Date.parse(session.signedInAt) <= RECENT_SIGN_IN_MS;

/**
 * Why this session may not change the account's sign-in methods, or null. Connecting needs a verified
 * address (an unverified account may belong to someone squatting the address, who must not plant a way
 * back in) and, like disconnecting, a sign-in within the last 10 minutes (a borrowed or stolen session
 * cannot add a permanent one).
 */
export function signInChangeRefusal(session: SignedIn, change: "connect" | "disconnect"): OAuthErrorCode | null {
  if (change === "connect" && !session.user.isEmailVerified) return "verify_email";
  if (!signedInRecently(session)) return "sign_in_again";
  return null;
}

/** The same rule as a 403 for the JSON API. */
export function requireSignInChange(session: SignedIn, change: "connect" | "disconnect") {
  const refusal = signInChangeRefusal(session, change);
  if (refusal) throw forbidden(oauthErrors[refusal]);
}

/**
 * Removes a provider from the signed-in account; refused when it is the last way to sign in. One
 * statement decides both, so two concurrent removals of a password-less account's last two providers
 * cannot both succeed.
 */
export async function disconnectProvider(
  db: Db,
  mail: AccountMail,
  session: SignedIn & { user: Pick<User, "id" | "email" | "hashedPassword" | "isEmailVerified"> },
  provider: OAuthProvider,
): Promise<SignInMethodList> {
  requireSignInChange(session, "disconnect");
  const userId = session.user.id;
  const other = db
    .select({ one: sql`1` })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.userId, userId), ne(oauthAccounts.provider, provider)));
  const withPassword = db
    .select({ one: sql`1` })
    .from(users)
    .where(and(eq(users.id, userId), ne(users.hashedPassword, "")));
  const removed = await db
    .delete(oauthAccounts)
    .where(
      and(eq(oauthAccounts.userId, userId), eq(oauthAccounts.provider, provider), or(sql`EXISTS ${other}`, sql`EXISTS ${withPassword}`)),
    )
    .returning({ id: oauthAccounts.id })
    .all();
  if (removed.length === 0) {
    const connected = await db
      .select({ id: oauthAccounts.id })
      .from(oauthAccounts)
      .where(and(eq(oauthAccounts.userId, userId), eq(oauthAccounts.provider, provider)))
      .get();
    if (!connected) throw notFound(signInMethodMessages.notConnected);
    throw badRequest(signInMethodMessages.lastMethod);
  }
  const label = oauthProviderLabels[provider];
  mailSignInChange(mail, session.user.email, `${label} was disconnected from your StoryWeave account: it no longer signs you in.`);
  const user = await db.select({ id: users.id, hashedPassword: users.hashedPassword }).from(users).where(eq(users.id, userId)).get();
  return listSignInMethods(db, user ?? { id: userId, hashedPassword: "" });
}

/** Tells the account's address that its sign-in methods changed (sent after the answer, never blocking it). */
export function mailSignInChange(mail: AccountMail, to: string, what: string) {
  mail.defer(
    mail.mailer
      .send({
        to,
        subject: "Your StoryWeave sign-in methods changed",
        text:
          `${what}\n\n` +
          `You can see how your account signs in on ${mail.origin}/account.\n` +
          `If this wasn't you, choose a new password at ${mail.origin}/auth/forgot-password and check your sign-in methods.`,
      })
      .catch((error) => console.error("[mail] failed to send sign-in methods notice:", String(error))),
  );
}
