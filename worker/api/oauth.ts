import { Hono } from "hono";
import type { OAuthErrorCode } from "../../db/rules";
import { FLASH_COOKIE, readCookie, serializeCookie, sessionCookie } from "../lib/cookies";
import { notFound } from "../lib/errors";
import { OAuthError, fetchProfile, isOAuthProvider, safeRedirect, signInWithProfile, startSignIn } from "../services/oauth";
import { SESSION_TTL_MS } from "../services/sessions";
import type { ApiEnv } from "./context";

/** State, PKCE verifier and where to go afterwards, for the 10 minutes a sign-in may take (HttpOnly, SameSite=Lax). */
const OAUTH_COOKIE = "sw_oauth";
const OAUTH_COOKIE_MAX_AGE = 600;
type Pending = { p: string; s: string; v: string; r: string };

function readPending(request: Request): Pending | null {
  try {
    const value = JSON.parse(readCookie(request, OAUTH_COOKIE) ?? "null");
    const ok = value && ["p", "s", "v", "r"].every((k) => typeof value[k] === "string");
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

export const oauthApi = new Hono<ApiEnv>()
  // 'Continue with GitHub/Google': remember state + verifier, then off to the provider.
  .get("/:provider", (c) => {
    const provider = c.req.param("provider");
    const start = isOAuthProvider(provider) ? startSignIn(c.env, provider, new URL(c.req.url).origin) : null;
    if (!start) throw notFound("This sign-in method is not available");
    const pending: Pending = { p: provider, s: start.state, v: start.codeVerifier, r: safeRedirect(c.req.query("redirectTo")) };
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
      const result = await signInWithProfile(
        { db: c.var.db, secret: c.env.APP_SECRET, adminEmails: c.env.ADMIN_EMAILS },
        provider,
        profile,
      );
      const headers = new Headers({ Location: safeRedirect(pending.r), "Cache-Control": "no-store" });
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
  });
