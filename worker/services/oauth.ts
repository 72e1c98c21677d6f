import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from "arctic";
import { and, eq } from "drizzle-orm";
import { limits } from "../../db/domain/rules";
import { type OAuthErrorCode, type OAuthProvider, oauthProviderLabels, oauthProviders } from "../../db/domain/sign-in-rules";
import { oauthAccounts, sessions, type User, users, verificationTokens } from "../../db/schema";
import type { Env } from "../env";
import type { RoomNotifier } from "../lib/room";
import { nowIso } from "../lib/time";
import type { AuthDeps, AuthResult } from "./auth";
import { roleFor } from "./email-verification";
import { closeSessionSockets, createSession } from "./sessions";
import { type AccountMail, mailSignInChange } from "./sign-in-methods";
import { findUserByEmail, toPublicUser } from "./users";
import { acceptInvitations } from "./invitations";

/**
 * Sign-in with GitHub and Google through arctic's generic OAuth 2.0 client: the endpoints come from
 * configuration (defaults: the real providers) so the tests point them at a fake provider on 127.0.0.1.
 * Authorization code flow with state and PKCE (S256) for both providers.
 */

/** What we read from a provider: its stable user id, the primary email and whether the provider verified it. */
export type OAuthProfile = { providerId: string; email: string | null; emailVerified: boolean; name: string | null };

type ProviderSetup = {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[];
  readProfile: (accessToken: string) => Promise<OAuthProfile>;
};

/** A failed sign-in: the login page shows the message for `code`; no account was changed. */
export class OAuthError extends Error {
  constructor(readonly code: OAuthErrorCode) {
    super(code);
    this.name = "OAuthError";
  }
}

const base = (value: string | undefined, fallback: string) => (value?.trim() ? value.trim() : fallback).replace(/\/+$/, "");

async function getJson(url: string, accessToken: string, accept = "application/json"): Promise<unknown> {
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: accept, "User-Agent": "StoryWeave" },
    // A provider that hangs must not hold the sign-in (and the Worker) forever.
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new OAuthError("profile");
  return res.json();
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

function setupFor(env: Env, provider: OAuthProvider): ProviderSetup | null {
  if (provider === "github") {
    if (!env.GITHUB_CLIENT_ID || !env.GITHUB_CLIENT_SECRET) return null;
    const oauthBase = base(env.GITHUB_OAUTH_BASE, "https://github.com");
    const apiBase = base(env.GITHUB_API_BASE, "https://api.github.com");
    return {
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      authorizeUrl: `${oauthBase}/login/oauth/authorize`,
      tokenUrl: `${oauthBase}/login/oauth/access_token`,
      scopes: ["read:user", "user:email"],
      async readProfile(accessToken) {
        const accept = "application/vnd.github+json";
        const user = (await getJson(`${apiBase}/user`, accessToken, accept)) as Record<string, unknown>;
        const emails = await getJson(`${apiBase}/user/emails`, accessToken, accept);
        const id = user?.id;
        if ((typeof id !== "number" && typeof id !== "string") || !Array.isArray(emails)) throw new OAuthError("profile");
        // The primary address, and whether GitHub has verified it (never another, unverified one).
        const primary = emails.find((e) => e && typeof e === "object" && e.primary === true);
        return {
          providerId: String(id),
          email: str(primary?.email),
          emailVerified: primary?.verified === true,
          name: str(user.name) ?? str(user.login),
        };
      },
    };
  }
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
  return {
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    authorizeUrl: base(env.GOOGLE_AUTH_URL, "https://accounts.google.com/o/oauth2/v2/auth"),
    tokenUrl: base(env.GOOGLE_TOKEN_URL, "https://oauth2.googleapis.com/token"),
    scopes: ["openid", "email", "profile"],
    async readProfile(accessToken) {
      const info = (await getJson(
        base(env.GOOGLE_USERINFO_URL, "https://openidconnect.googleapis.com/v1/userinfo"),
        accessToken,
      )) as Record<string, unknown>;
      const sub = str(info?.sub);
      if (!sub) throw new OAuthError("profile");
      return { providerId: sub, email: str(info.email), emailVerified: info.email_verified === true, name: str(info.name) };
    },
  };
}

export function isOAuthProvider(value: string): value is OAuthProvider {
  return (oauthProviders as readonly string[]).includes(value);
}

/** The providers whose client id and secret are set (the screens show only their buttons). */
export function configuredProviders(env: Env): { id: OAuthProvider; label: string }[] {
  return oauthProviders.filter((p) => setupFor(env, p)).map((id) => ({ id, label: oauthProviderLabels[id] }));
}

export const callbackUrl = (origin: string, provider: OAuthProvider) => `${origin}/api/auth/oauth/${provider}/callback`;

/** The provider's authorization URL plus the state and PKCE verifier the caller keeps in a short-lived cookie. */
export function startSignIn(env: Env, provider: OAuthProvider, origin: string) {
  const setup = setupFor(env, provider);
  if (!setup) return null;
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const client = new OAuth2Client(setup.clientId, setup.clientSecret, callbackUrl(origin, provider));
  const url = client.createAuthorizationURLWithPKCE(setup.authorizeUrl, state, CodeChallengeMethod.S256, codeVerifier, setup.scopes);
  return { url: url.toString(), state, codeVerifier };
}

/** Exchanges the code (with the PKCE verifier) and reads the provider's profile. */
export async function fetchProfile(
  env: Env,
  provider: OAuthProvider,
  origin: string,
  code: string,
  codeVerifier: string,
): Promise<OAuthProfile> {
  const setup = setupFor(env, provider);
  if (!setup) throw new OAuthError("not_configured");
  const client = new OAuth2Client(setup.clientId, setup.clientSecret, callbackUrl(origin, provider));
  let accessToken: string;
  try {
    const tokens = await client.validateAuthorizationCode(setup.tokenUrl, code, codeVerifier);
    // GitHub answers a refused exchange with 200 and an `error` field; accessToken() throws then.
    accessToken = tokens.accessToken();
  } catch (error) {
    console.warn(`[oauth] ${provider} code exchange failed:`, String(error));
    throw new OAuthError("exchange");
  }
  try {
    return await setup.readProfile(accessToken);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    console.warn(`[oauth] ${provider} profile read failed:`, String(error));
    throw new OAuthError("profile");
  }
}

/** What a sign-in through a provider needs besides the account rules: the rooms (to close ended sessions' sockets) and mail. */
export type OAuthSignInDeps = AuthDeps & { room: RoomNotifier; mail: AccountMail };

/**
 * The account rules: a known (provider, providerId) signs in its user; else an account with the same
 * email is linked only when the provider verified that email; else a new account (no password) is created.
 */
export async function signInWithProfile(deps: OAuthSignInDeps, provider: OAuthProvider, profile: OAuthProfile): Promise<AuthResult> {
  const { db } = deps;
  const linked = await db
    .select({ user: users })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerId, profile.providerId)))
    .get();
  if (linked) return finishSignIn(deps, linked.user, {});

  const email = profile.email?.toLowerCase() ?? null;
  if (!email || email.length > limits.email) throw new OAuthError("no_email");
  const existing = await findUserByEmail(db, email);
  if (existing) {
    // Never a takeover through an address the provider has not verified.
    if (!profile.emailVerified) throw new OAuthError("unverified_email");
    if (!existing.isEmailVerified) return claimAccount(deps, existing, provider, profile);
    const added = await db
      .insert(oauthAccounts)
      .values({ userId: existing.id, provider, providerId: profile.providerId })
      .onConflictDoNothing()
      .returning({ id: oauthAccounts.id })
      .all();
    if (added.length > 0) {
      const label = oauthProviderLabels[provider];
      mailSignInChange(
        deps.mail,
        existing.email,
        `${label} was connected to your StoryWeave account: it verified this address and now signs you in.`,
      );
    }
    return finishSignIn(deps, existing, {});
  }

  const name = (profile.name ?? email.split("@")[0]).slice(0, limits.name);
  let user: User;
  try {
    const draft = { email, isEmailVerified: profile.emailVerified, role: "user" as const };
    user = await db
      .insert(users)
      // No password: login with a password fails until one is set through "Forgot password".
      .values({ ...draft, name, hashedPassword: "", role: roleFor(draft, deps.adminEmails), lastLogin: nowIso() })
      .returning()
      .get();
  } catch (error) {
    // A registration racing this sign-in for the same address.
    if (String(error).includes("UNIQUE")) throw new OAuthError("failed");
    throw error;
  }
  await db.insert(oauthAccounts).values({ userId: user.id, provider, providerId: profile.providerId }).onConflictDoNothing();
  // An address the provider verified takes up the timelines it was invited to, as a verified sign-up does.
  await acceptInvitations(db, user);
  return { token: await createSession(db, user.id), user: toPublicUser(user) };
}

/**
 * The local account never proved it owns this address, the provider just did: whoever registered it
 * (possibly someone squatting the address) loses every way back in: the password, every other provider
 * link (one planted from /account would otherwise sign them into the now-verified account), reset and
 * verification tokens, and every session, whose open sockets close. One batch, so no sign-in method
 * survives half a claim. The owner can set a password again through "Forgot password".
 */
async function claimAccount(deps: OAuthSignInDeps, existing: User, provider: OAuthProvider, profile: OAuthProfile) {
  const { db } = deps;
  const [, , , ended] = await db.batch([
    db.delete(oauthAccounts).where(eq(oauthAccounts.userId, existing.id)),
    db.delete(verificationTokens).where(eq(verificationTokens.userId, existing.id)),
    db
      .update(users)
      .set({ hashedPassword: "", resetPasswordToken: null, resetPasswordExpires: null, isEmailVerified: true })
      .where(eq(users.id, existing.id)),
    db.delete(sessions).where(eq(sessions.userId, existing.id)).returning({ id: sessions.id }),
    db.insert(oauthAccounts).values({ userId: existing.id, provider, providerId: profile.providerId }).onConflictDoNothing(),
  ]);
  await closeSessionSockets(
    deps,
    existing.id,
    ended.map((s) => s.id),
  );
  await acceptInvitations(db, { ...existing, isEmailVerified: true });
  const label = oauthProviderLabels[provider];
  mailSignInChange(
    deps.mail,
    existing.email,
    `You signed in with ${label}, which verified this address, so this StoryWeave account is now yours alone. ` +
      `Every other way to sign in was removed (the password, other connected accounts, pending reset and verification links) ` +
      `and every other session was signed out. To sign in with a password again, choose one through "Forgot password" on the login page.`,
  );
  return finishSignIn(deps, existing, {
    isEmailVerified: true,
    hashedPassword: "",
    resetPasswordToken: null,
    resetPasswordExpires: null,
  });
}

/**
 * A signed-in writer connects a provider account (any email): refused when it already belongs to someone
 * else. The caller has checked the session may change sign-in methods (signInChangeRefusal).
 */
export async function linkToUser(
  db: AuthDeps["db"],
  mail: AccountMail,
  user: Pick<User, "id" | "email">,
  provider: OAuthProvider,
  profile: OAuthProfile,
) {
  const owner = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerId, profile.providerId)))
    .get();
  if (owner) {
    if (owner.userId !== user.id) throw new OAuthError("linked_elsewhere");
    return;
  }
  try {
    await db.insert(oauthAccounts).values({ userId: user.id, provider, providerId: profile.providerId });
  } catch (error) {
    // Another account connected it in the meantime: the unique index decides.
    if (String(error).includes("UNIQUE")) throw new OAuthError("linked_elsewhere");
    throw error;
  }
  const label = oauthProviderLabels[provider];
  mailSignInChange(mail, user.email, `${label} was connected to your StoryWeave account: it now signs you in.`);
}

async function finishSignIn(deps: AuthDeps, user: User, changes: Partial<User>): Promise<AuthResult> {
  const next = { ...user, ...changes };
  // Admin follows ADMIN_EMAILS at every sign-in, and only for a verified address (as the password login).
  const updates: Partial<User> = { ...changes, lastLogin: nowIso(), role: roleFor(next, deps.adminEmails) };
  const updated = await deps.db.update(users).set(updates).where(eq(users.id, user.id)).returning().get();
  return { token: await createSession(deps.db, user.id), user: toPublicUser(updated) };
}
