import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { oauthErrors } from "../../db/domain/sign-in-rules";
import { configuredProviders } from "../../worker/services/oauth";
import { ORIGIN, TEST_ADMIN, call, markVerified, registerUser, uniqueEmail } from "./helpers";
import { approve, connect, cookieValue, errorLocation, get, linksOf, me, signIn, start, uniqueId, userRow } from "./oauth-helpers";

describe("OAuth sign-in: start", () => {
  it("redirects to the provider with state and an S256 PKCE challenge, keeping both in a short-lived HttpOnly Lax cookie", async () => {
    const { authorizeUrl, setCookie } = await start("github");
    expect(authorizeUrl.pathname).toBe("/login/oauth/authorize");
    expect(authorizeUrl.searchParams.get("client_id")).toBe("fake-github-client");
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/auth/oauth/github/callback`);
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizeUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(authorizeUrl.searchParams.get("scope")).toBe("read:user user:email");
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=600/);
    // The verifier stays on our side: the provider sees only its hash.
    const pending = JSON.parse(decodeURIComponent(setCookie.split(";")[0].slice("sw_oauth=".length)));
    expect(authorizeUrl.toString()).not.toContain(pending.v);

    const google = await start("google");
    expect(google.authorizeUrl.pathname).toBe("/o/oauth2/v2/auth");
    expect(google.authorizeUrl.searchParams.get("scope")).toBe("openid email profile");
  });

  it("an unknown or unconfigured provider is a 404 with a clear message, and the configured list drops it", async () => {
    const unknown = await get("/api/auth/oauth/facebook");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "This sign-in method is not available" });

    const noGoogle = { GOOGLE_CLIENT_ID: "", GOOGLE_CLIENT_SECRET: "" };
    const res = await get("/api/auth/oauth/google", { env: noGoogle });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: "This sign-in method is not available" });
    expect(cookieValue(res.setCookies, "sw_oauth")).toBeNull();
    // A secret without its id (or the reverse) is not configured either.
    expect((await get("/api/auth/oauth/github", { env: { GITHUB_CLIENT_SECRET: "" } })).status).toBe(404);

    // What the login and register pages show (their loaders call this): only configured providers.
    expect(configuredProviders(env).map((p) => p.id)).toEqual(["github", "google"]);
    expect(configuredProviders({ ...env, ...noGoogle }).map((p) => p.label)).toEqual(["GitHub"]);
    expect(configuredProviders({ ...env, ...noGoogle, GITHUB_CLIENT_ID: undefined })).toEqual([]);
  });
});

describe("OAuth sign-in: accounts", () => {
  it("a new GitHub user gets an account (name from the profile, verified, no password) and lands on /timeline signed in", async () => {
    const email = uniqueEmail("octo");
    const res = await signIn("github", { id: uniqueId(), login: "octo", name: "Octavia Writer", email, emailVerified: true });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/timeline");
    expect(res.session).not.toBeNull();
    expect(cookieValue(res.setCookies, "sw_oauth")).toBeNull(); // the pending sign-in is spent
    const user = await me(res.session!);
    expect(user).toMatchObject({ email, name: "Octavia Writer", isEmailVerified: true, role: "user" });
    expect(await linksOf(user.id)).toEqual([{ provider: "github", provider_id: expect.any(String) }]);
    expect((await userRow(email))!.hashed_password).toBe("");

    // No password to guess: neither an empty one nor any other.
    const empty = await call("POST", "/api/auth/login", { body: { email, password: "" } });
    expect(empty.status).toBe(400);
    const guess = await call("POST", "/api/auth/login", { body: { email, password: "anything-at-all" } });
    expect(guess.status).toBe(401);
    expect(guess.json).toEqual({ error: "Invalid email or password" });
  });

  it("a new Google user: name from the OpenID profile, unverified email kept unverified", async () => {
    const email = uniqueEmail("gwen");
    const res = await signIn("google", { id: `g-${uniqueId()}`, name: "Gwen", email, emailVerified: false });
    expect(res.location).toBe("/timeline");
    expect(await me(res.session!)).toMatchObject({ email, name: "Gwen", isEmailVerified: false });
  });

  it("a returning user signs in to the same account, even after changing their email at the provider", async () => {
    const id = uniqueId();
    const email = uniqueEmail("back");
    const first = await signIn("github", { id, name: "Returning", email, emailVerified: true });
    const firstUser = await me(first.session!);
    const again = await signIn("github", { id, name: "Renamed", email: uniqueEmail("changed"), emailVerified: true });
    expect(again.location).toBe("/timeline");
    const user = await me(again.session!);
    expect(user.id).toBe(firstUser.id);
    expect(user.email).toBe(email);
    expect(await linksOf(user.id)).toHaveLength(1);
    expect(again.session).not.toBe(first.session);
  });

  it("links to an existing account when the provider verified the same email; the password keeps working", async () => {
    const existing = await registerUser({ name: "Pat Password" });
    await markVerified(existing.email);
    const res = await signIn("google", { id: `g-${uniqueId()}`, name: "Pat G", email: existing.email.toUpperCase(), emailVerified: true });
    expect(res.location).toBe("/timeline");
    const user = await me(res.session!);
    expect(user).toMatchObject({ id: existing.user.id, name: "Pat Password", email: existing.email });
    expect(await linksOf(existing.user.id)).toEqual([{ provider: "google", provider_id: expect.stringMatching(/^g-/) }]);
    const login = await call("POST", "/api/auth/login", { body: { email: existing.email, password: existing.password } });
    expect(login.status).toBe(200);
    // And GitHub too: one account, two providers.
    await signIn("github", { id: uniqueId(), email: existing.email, emailVerified: true });
    expect((await linksOf(existing.user.id)).map((l) => l.provider)).toEqual(["google", "github"]);
  });

  it("never links through an email the provider has not verified: refused with a clear message, nothing changed", async () => {
    const existing = await registerUser();
    await markVerified(existing.email);
    const before = await userRow(existing.email);
    const res = await signIn("github", { id: uniqueId(), email: existing.email, emailVerified: false });
    expect(res.status).toBe(302);
    expect(res.location).toBe(errorLocation("unverified_email"));
    expect(res.session).toBeNull();
    expect(oauthErrors.unverified_email).toMatch(/Sign in with your password/);
    expect(await linksOf(existing.user.id)).toEqual([]);
    expect(await userRow(existing.email)).toEqual(before);
    expect((await call("GET", "/api/auth/me", { token: existing.token })).status).toBe(200);
  });

  it("a provider-verified email takes an unverified local account from whoever registered it: password and sessions revoked", async () => {
    const squatter = await registerUser({ name: "Squatter" });
    const res = await signIn("google", { id: `g-${uniqueId()}`, name: "Owner", email: squatter.email, emailVerified: true });
    expect(res.location).toBe("/timeline");
    const user = await me(res.session!);
    expect(user).toMatchObject({ id: squatter.user.id, isEmailVerified: true });
    expect((await call("GET", "/api/auth/me", { token: squatter.token })).status).toBe(401);
    const login = await call("POST", "/api/auth/login", { body: { email: squatter.email, password: squatter.password } });
    expect(login.status).toBe(401);
  });

  it("ADMIN_EMAILS makes an admin only of a provider-verified address", async () => {
    const unverified = await signIn("google", { id: `g-${uniqueId()}`, email: TEST_ADMIN.email, emailVerified: false });
    expect(await me(unverified.session!)).toMatchObject({ email: TEST_ADMIN.email, role: "user", isEmailVerified: false });

    // GitHub vouches for the address: the account is linked, verified, and the role follows ADMIN_EMAILS.
    const verified = await signIn("github", { id: uniqueId(), email: TEST_ADMIN.email, emailVerified: true });
    expect(verified.location).toBe("/timeline");
    expect(await me(verified.session!)).toMatchObject({ email: TEST_ADMIN.email, role: "admin", isEmailVerified: true });
  });

  it("a profile without an email creates nothing", async () => {
    const id = uniqueId();
    const res = await signIn("github", { id, login: `nomail${id}`, email: null });
    expect(res.location).toBe(errorLocation("no_email"));
    expect(res.session).toBeNull();
    const row = await env.DB.prepare("SELECT count(*) AS n FROM oauth_accounts WHERE provider_id = ?").bind(id).first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("goes back to a same-origin redirectTo, never to another site", async () => {
    const ok = await signIn("github", { id: uniqueId(), email: uniqueEmail(), emailVerified: true }, "?redirectTo=%2Ftimeline%2F42");
    expect(ok.location).toBe("/timeline/42");
    for (const target of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const res = await signIn(
        "github",
        { id: uniqueId(), email: uniqueEmail(), emailVerified: true },
        `?redirectTo=${encodeURIComponent(target)}`,
      );
      expect(res.location).toBe("/timeline");
    }
  });
});

describe("OAuth sign-in: refused callbacks", () => {
  const profile = () => ({ id: uniqueId(), email: uniqueEmail("refused"), emailVerified: true });

  async function expectNoAccount(email: string) {
    expect(await userRow(email)).toBeNull();
  }

  it("state mismatch, missing state, no pending cookie or another provider's cookie: refused, no account", async () => {
    const p = profile();
    const { authorizeUrl, pending } = await start("github");
    const back = await approve(authorizeUrl, p);
    const path = back.pathname;
    const state = back.searchParams.get("state")!;
    const code = back.searchParams.get("code")!;

    const wrongState = await get(`${path}?code=${code}&state=${state}x`, { cookies: [pending] });
    expect(wrongState.location).toBe(errorLocation("state"));
    expect(cookieValue(wrongState.setCookies, "sw_session")).toBeNull();
    expect(wrongState.setCookies.some((c) => c.startsWith("sw_oauth=;") && c.includes("Max-Age=0"))).toBe(true);

    expect((await get(`${path}?code=${code}`, { cookies: [pending] })).location).toBe(errorLocation("state"));
    expect((await get(`${path}?code=${code}&state=${state}`)).location).toBe(errorLocation("state"));
    expect((await get(`${path}?code=${code}&state=${state}`, { cookies: ["sw_oauth=not-json"] })).location).toBe(errorLocation("state"));
    const googlePending = (await start("google")).pending;
    expect((await get(`${path}?code=${code}&state=${state}`, { cookies: [googlePending] })).location).toBe(errorLocation("state"));
    await expectNoAccount(p.email);

    // The refused attempts never spent the code: the right state still signs in.
    const ok = await get(`${path}?code=${code}&state=${state}`, { cookies: [pending] });
    expect(ok.location).toBe("/timeline");
  });

  it("a wrong PKCE verifier is refused by the provider (GitHub: 200 with an error; Google: 400), no account", async () => {
    for (const provider of ["github", "google"] as const) {
      const p = profile();
      const { authorizeUrl, pending } = await start(provider);
      const back = await approve(authorizeUrl, p);
      const value = JSON.parse(decodeURIComponent(pending.slice("sw_oauth=".length)));
      const forged = `sw_oauth=${encodeURIComponent(JSON.stringify({ ...value, v: `${value.v.slice(0, -2)}xx` }))}`;
      const res = await get(back.pathname + back.search, { cookies: [forged] });
      expect(res.location, provider).toBe(errorLocation("exchange"));
      expect(cookieValue(res.setCookies, "sw_session")).toBeNull();
      await expectNoAccount(p.email);
    }
  });

  it("a code is single use, and a wrong client secret is refused", async () => {
    const p = profile();
    const { authorizeUrl, pending } = await start("github");
    const back = await approve(authorizeUrl, p);
    expect((await get(back.pathname + back.search, { cookies: [pending] })).location).toBe("/timeline");
    expect((await get(back.pathname + back.search, { cookies: [pending] })).location).toBe(errorLocation("exchange"));

    const other = profile();
    const second = await start("google");
    const back2 = await approve(second.authorizeUrl, other);
    const res = await get(back2.pathname + back2.search, { cookies: [second.pending], env: { GOOGLE_CLIENT_SECRET: "wrong-secret" } });
    expect(res.location).toBe(errorLocation("exchange"));
    await expectNoAccount(other.email);
  });

  it("cancelled at the provider, or a callback for a provider that is not configured", async () => {
    const { authorizeUrl, pending } = await start("google");
    const back = await approve(authorizeUrl, undefined, { fake_deny: "1" });
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect((await get(back.pathname + back.search, { cookies: [pending] })).location).toBe(errorLocation("denied"));

    expect((await get("/api/auth/oauth/facebook/callback?code=x&state=y")).location).toBe(errorLocation("not_configured"));
    const gh = await start("github");
    const ghBack = await approve(gh.authorizeUrl, profile());
    const res = await get(ghBack.pathname + ghBack.search, { cookies: [gh.pending], env: { GITHUB_CLIENT_ID: "" } });
    expect(res.location).toBe(errorLocation("not_configured"));
  });

  it("every refusal has a message for the login page", () => {
    for (const message of Object.values(oauthErrors)) expect(message.length).toBeGreaterThan(10);
  });
});

describe("OAuth: connecting a provider from the account page", () => {
  it("a signed-in, verified writer connects GitHub (whatever its email) and can then sign in with it; the methods list it", async () => {
    const writer = await registerUser();
    await markVerified(writer.email);
    const id = uniqueId();
    const res = await connect("github", writer.token, { id, email: uniqueEmail("other"), emailVerified: false });
    expect(res.location).toBe("/account");
    expect(res.toast).toEqual({ title: "Account connected", description: "You can now sign in with GitHub." });
    expect(cookieValue(res.setCookies, "sw_session")).toBeNull(); // same session, no new sign-in
    expect(await linksOf(writer.user.id)).toEqual([{ provider: "github", provider_id: id }]);

    const again = await signIn("github", { id, email: uniqueEmail("other"), emailVerified: false });
    expect((await me(again.session!)).id).toBe(writer.user.id);

    const methods = await call("GET", "/api/auth/methods", { token: writer.token });
    expect(methods.json).toEqual({ password: true, providers: [{ provider: "github", linkedAt: expect.any(String) }] });
  });

  it("a provider account connected to someone else is refused; connecting needs a signed-in session", async () => {
    const id = uniqueId();
    const first = await signIn("github", { id, email: uniqueEmail("first"), emailVerified: true });
    const firstUser = await me(first.session!);
    const writer = await registerUser();
    await markVerified(writer.email);
    const res = await connect("github", writer.token, { id, email: uniqueEmail(), emailVerified: true });
    expect(res.location).toBe("/account");
    expect(res.toast).toMatchObject({ title: "Could not connect", description: oauthErrors.linked_elsewhere, variant: "destructive" });
    expect(await linksOf(writer.user.id)).toEqual([]);
    expect(await linksOf(firstUser.id)).toHaveLength(1);

    const anonymous = await get("/api/auth/oauth/github?intent=link");
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ error: "Not authenticated" });

    // Signed out between start and callback: refused, nothing linked.
    const session = `sw_session=${writer.token}`;
    const startRes = await get("/api/auth/oauth/google?intent=link", { cookies: [session] });
    const back = await approve(new URL(startRes.location!), { id: `g-${uniqueId()}`, email: uniqueEmail(), emailVerified: true });
    const pending = cookieValue(startRes.setCookies, "sw_oauth")!;
    expect((await get(back.pathname + back.search, { cookies: [pending] })).location).toBe(errorLocation("state"));
    expect(await linksOf(writer.user.id)).toEqual([]);
  });
});
