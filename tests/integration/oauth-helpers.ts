import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { oauthErrors } from "../../db/domain/sign-in-rules";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { ORIGIN, call } from "./helpers";

// The OAuth flow as a browser runs it against the fake provider (tests/fakes/oauth-server.mjs).

export type Provider = "github" | "google";
export type Profile = { id: string | number; name?: string; email?: string | null; emailVerified?: boolean; login?: string };

let ids = 0;
export const uniqueId = () => `${Date.now().toString(36)}${(ids += 1)}${Math.random().toString(36).slice(2, 6)}`;

/** GET through the real Worker without following redirects; `cookies` are name=value pairs. */
export async function get(path: string, opts: { cookies?: string[]; env?: Partial<Env> } = {}) {
  const headers = new Headers();
  if (opts.cookies?.length) headers.set("Cookie", opts.cookies.join("; "));
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, { headers }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, { ...env, ...opts.env } as Env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, location: res.headers.get("Location"), setCookies: res.headers.getSetCookie(), json };
}

/** name=value of a Set-Cookie header (null when absent or cleared). */
export function cookieValue(setCookies: string[], name: string) {
  const header = setCookies.find((c) => c.startsWith(`${name}=`));
  const pair = header?.split(";")[0];
  return pair && pair !== `${name}=` ? pair : null;
}

/** 'Continue with …': the Worker's redirect to the provider and the pending-sign-in cookie. */
export async function start(provider: Provider, query = "") {
  const res = await get(`/api/auth/oauth/${provider}${query}`);
  expect(res.status).toBe(302);
  const pending = cookieValue(res.setCookies, "sw_oauth");
  expect(pending).not.toBeNull();
  return { authorizeUrl: new URL(res.location!), pending: pending!, setCookie: res.setCookies[0] };
}

/** The browser at the (fake) provider, which approves `profile` and sends it back with code and state. */
export async function approve(authorizeUrl: URL, profile?: Profile, extra: Record<string, string> = {}) {
  const url = new URL(authorizeUrl);
  if (profile) url.searchParams.set("fake_profile", JSON.stringify(profile));
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status, await res.clone().text()).toBe(302);
  const back = new URL(res.headers.get("Location")!);
  expect(back.origin + back.pathname).toBe(
    `${ORIGIN}/api/auth/oauth/${url.pathname.includes("login/oauth") ? "github" : "google"}/callback`,
  );
  return back;
}

/** The whole flow; returns the callback's answer (and the session cookie when signed in). */
export async function signIn(provider: Provider, profile: Profile, query = "") {
  const { authorizeUrl, pending } = await start(provider, query);
  const back = await approve(authorizeUrl, profile);
  const res = await get(back.pathname + back.search, { cookies: [pending] });
  return { ...res, session: cookieValue(res.setCookies, "sw_session") };
}

export async function me(session: string) {
  const res = await call("GET", "/api/auth/me", { headers: { Cookie: session } });
  expect(res.status).toBe(200);
  return res.json;
}

export async function userRow(email: string) {
  return env.DB.prepare("SELECT id, name, hashed_password, is_email_verified, role FROM users WHERE lower(email) = ?")
    .bind(email.toLowerCase())
    .first<{ id: number; name: string; hashed_password: string; is_email_verified: number; role: string }>();
}

export async function linksOf(userId: number) {
  const rows = await env.DB.prepare("SELECT provider, provider_id FROM oauth_accounts WHERE user_id = ? ORDER BY id").bind(userId).all();
  return rows.results;
}

export const errorLocation = (code: keyof typeof oauthErrors) => `/auth/login?oauthError=${code}`;

/** Connecting from the account page with a session cookie; returns the callback's answer and its toast. */
export async function connect(provider: Provider, token: string, profile: Profile) {
  const session = `sw_session=${token}`;
  const startRes = await get(`/api/auth/oauth/${provider}?intent=link`, { cookies: [session] });
  expect(startRes.status).toBe(302);
  const pending = cookieValue(startRes.setCookies, "sw_oauth")!;
  const back = await approve(new URL(startRes.location!), profile);
  const res = await get(back.pathname + back.search, { cookies: [pending, session] });
  const flash = decodeURIComponent(cookieValue(res.setCookies, "sw_flash")?.slice("sw_flash=".length) ?? "null");
  return { ...res, toast: JSON.parse(flash) };
}
