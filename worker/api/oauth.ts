import { type Context, Hono } from "hono";
import { resolveRedirect } from "../../db/domain/redirect";
import { type OAuthErrorCode, type OAuthProvider, oauthErrors, oauthProviderLabels } from "../../db/domain/sign-in-rules";
import { FLASH_COOKIE, readCookie, serializeCookie, sessionCookie } from "../lib/cookies";
import { forbidden, notFound, unauthorized } from "../lib/errors";
import {
  OAuthError,
  type OAuthProfile,
  fetchProfile,
  isOAuthProvider,
  linkToUser,
  signInWithProfile,
  startSignIn,
} from "../services/oauth";
import { SESSION_TTL_MS } from "../services/sessions";
import { disconnectProvider, signInChangeRefusal } from "../services/sign-in-methods";
import { accountMail } from "./auth";
import { type ApiEnv, requireAuth } from "./context";

/** State, PKCE verifier and where to go afterwards, for the 10 minutes a sign-in may take (HttpOnly, SameSite=Lax). */
const OAUTH_COOKIE = "sw_oauth";
const OAUTH_COOKIE_MAX_AGE = 600;
/** p: provider, s: state, v: PKCE verifier, r: where to go afterwards, i: "link" when connecting it to the signed-in account. */
type Pending = { p: string; s: string; v: string; r: string; i?: string };

function readPending(request: Request): Pending | null {
  try {
    const value = JSON.parse(readCookie(request, OAUTH_COOKIE) ?? "null");
    const ok = value && ["p", "s", "v", "r"].every((k) => typeof value[k] === "string") && (value.i === undefined || value.i === "link");
    return ok ? (value as Pending) : null;
  } catch {
    return null;
  }
}

/** Back to the login page with the reason; the pending sign-in is dropped and no account changed. */
function failed(request: Request, code: OAuthErrorCode) {
  const headers = new Headers({ Location: `/auth/login?oauthError=${code}` });
  headers.append("Set-Cookie", serializeCookie(request, OAUTH_COOKIE, "", { maxAge: 0 }));
  return new Response(null, { status: 302, headers });
}

type Toast = { title: string; description: string; variant?: "destructive" };

/** Back to the account page with a toast (the pending sign-in, if any, dropped). */
function toAccount(request: Request, toast: Toast) {
  const headers = new Headers({ Location: "/account", "Cache-Control": "no-store" });
  headers.append("Set-Cookie", serializeCookie(request, OAUTH_COOKIE, "", { maxAge: 0 }));
  headers.append("Set-Cookie", serializeCookie(request, FLASH_COOKIE, JSON.stringify(toast), { maxAge: 60 }));
  return new Response(null, { status: 302, headers });
}

const refusedToast = (code: OAuthErrorCode): Toast => ({
  title: "Could not connect",
  description: oauthErrors[code],
  variant: "destructive",
});

/**
 * Connecting from the account page: the account is the one signed in by this request's session cookie (never
 * anything the pending cookie says), checked again here (verified address, recent sign-in: the session may
 * have aged while the writer was at the provider), and the answer is a toast on /account.
 */
async function connect(c: Context<ApiEnv>, provider: OAuthProvider, profile: OAuthProfile) {
  const request = c.req.raw;
  const session = c.var.session;
  if (!session) return failed(request, "state");
  const refusal = signInChangeRefusal(session, "connect");
  if (refusal) return toAccount(request, refusedToast(refusal));
  try {
    await linkToUser(c.var.db, accountMail(c), session.user, provider, profile);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return toAccount(request, refusedToast(error.code));
  }
  return toAccount(request, { title: "Account connected", description: `You can now sign in with ${oauthProviderLabels[provider]}.` });
}

export const oauthApi = new Hono<ApiEnv>()
  // 'Continue with GitHub/Google' (or 'Connect' on the account page, ?intent=link): remember state + verifier,
  // then off to the provider.
  .get("/:provider", (c) => {
    const provider = c.req.param("provider");
    const start = isOAuthProvider(provider) ? startSignIn(c.env, provider, new URL(c.req.url).origin) : null;
    if (!start) throw notFound("This sign-in method is not available");
    const link = c.req.query("intent") === "link";
    if (link) {
      if (!c.var.session) throw unauthorized();
      const refusal = signInChangeRefusal(c.var.session, "connect");
      // The account page's 'Connect' is a link: a browser gets the reason as a toast there, a script a 403.
      if (refusal && c.req.header("Sec-Fetch-Mode") === "navigate") return toAccount(c.req.raw, refusedToast(refusal));
      if (refusal) throw forbidden(oauthErrors[refusal]);
    }
    const origin = new URL(c.req.url).origin;
    const pending: Pending = {
      p: provider,
      s: start.state,
      v: start.codeVerifier,
      r: link ? "/account" : resolveRedirect(c.req.query("redirectTo"), origin),
      ...(link ? { i: "link" } : {}),
    };
    c.header("Set-Cookie", serializeCookie(c.req.raw, OAUTH_COOKIE, JSON.stringify(pending), { maxAge: OAUTH_COOKIE_MAX_AGE }));
    c.header("Cache-Control", "no-store");
    return c.redirect(start.url, 302);
  })
  .get("/:provider/callback", async (c) => {
    const request = c.req.raw;
    const provider = c.req.param("provider");
    if (!isOAuthProvider(provider)) return failed(request, "not_configured");
    const pending = readPending(request);
    const state = c.req.query("state");
    // The state must be the one this browser was given for this provider (no forged or replayed callbacks).
    if (!pending || pending.p !== provider || !state || state !== pending.s) return failed(request, "state");
    if (c.req.query("error")) return failed(request, "denied");
    const code = c.req.query("code");
    if (!code || code.length > 2000) return failed(request, "state");
    try {
      const origin = new URL(c.req.url).origin;
      const profile = await fetchProfile(c.env, provider, origin, code, pending.v);
      if (pending.i === "link") return await connect(c, provider, profile);
      const result = await signInWithProfile(
        { db: c.var.db, secret: c.env.APP_SECRET, adminEmails: c.env.ADMIN_EMAILS, room: c.var.room, mail: accountMail(c) },
        provider,
        profile,
      );
      const headers = new Headers({ Location: resolveRedirect(pending.r, origin), "Cache-Control": "no-store" });
      headers.append("Set-Cookie", serializeCookie(request, OAUTH_COOKIE, "", { maxAge: 0 }));
      headers.append("Set-Cookie", sessionCookie(request, result.token, SESSION_TTL_MS / 1000));
      const toast = { title: "Welcome!", description: "You're signed in." };
      headers.append("Set-Cookie", serializeCookie(request, FLASH_COOKIE, JSON.stringify(toast), { maxAge: 60 }));
      return new Response(null, { status: 302, headers });
    } catch (error) {
      if (error instanceof OAuthError) return failed(request, error.code);
      console.error("[oauth] sign-in failed:", error);
      return failed(request, "failed");
    }
  })
  // 'Disconnect' on the account page: refused when it is the last way to sign in.
  .delete("/:provider", requireAuth, async (c) => {
    const provider = c.req.param("provider");
    if (!isOAuthProvider(provider)) throw notFound("This sign-in method is not available");
    return c.json(await disconnectProvider(c.var.db, accountMail(c), c.var.session!, provider));
  });
