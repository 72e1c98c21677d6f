import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { oauthErrors, signInMethodMessages } from "../../db/domain/sign-in-rules";
import { sha256Hex } from "../../worker/lib/crypto";
import { ORIGIN, call, createTimeline, markVerified, registerUser, capturedMail, uniqueEmail } from "./helpers";
import { approve, connect, cookieValue, get, linksOf, me, signIn, uniqueId, userRow } from "./oauth-helpers";
import { closedWith, connect as joinRoom } from "./room-helpers";

const CHANGED = 'subject="Your StoryWeave sign-in methods changed"';
const ELEVEN_MINUTES_AGO = () => new Date(Date.now() - 11 * 60_000).toISOString();

/** Moves every session of the user back to a sign-in 11 minutes ago (past the 10-minute window). */
async function ageSessions(userId: number) {
  await env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?").bind(ELEVEN_MINUTES_AGO(), userId).run();
}

async function count(sql: string, ...binds: unknown[]) {
  return (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;
}

const sessionToken = (session: string) => session.slice("sw_session=".length);

describe("claiming an unverified account removes every other sign-in method", () => {
  it("a GitHub link planted before the owner's claim (as the old /account allowed) no longer reaches the account", async () => {
    const victim = uniqueEmail("victim");
    const squatter = await registerUser({ name: "Squatter", email: victim });
    const squatterGitHub = uniqueId();
    // The link as it existed in the database before connecting needed a verified address.
    await env.DB.prepare("INSERT INTO oauth_accounts (user_id, provider, provider_id) VALUES (?, 'github', ?)")
      .bind(squatter.user.id, squatterGitHub)
      .run();
    // A pending reset and the registration's verification link, and an open room socket.
    expect((await call("POST", "/api/auth/forgot-password", { body: { email: victim } })).status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM verification_tokens WHERE user_id = ?", squatter.user.id)).toBe(1);
    const timeline = await createTimeline(squatter.token, { title: "Squatter's lair" });
    const socket = await joinRoom(timeline.id, squatter.token);
    await socket.waitFor((m) => m.type === "presence");

    let owner!: Awaited<ReturnType<typeof signIn>>;
    const mail = await capturedMail(async () => {
      owner = await signIn("google", { id: `g-${uniqueId()}`, name: "Real Owner", email: victim, emailVerified: true });
    });
    expect(owner.location).toBe("/timeline");
    const ownerUser = await me(owner.session!);
    expect(ownerUser).toMatchObject({ id: squatter.user.id, isEmailVerified: true });

    // Only Google is left; the password, reset and verification tokens are gone; every old session ended.
    expect((await linksOf(squatter.user.id)).map((l) => l.provider)).toEqual(["google"]);
    expect((await userRow(victim))!.hashed_password).toBe("");
    const reset = await env.DB.prepare("SELECT reset_password_token AS t, reset_password_expires AS e FROM users WHERE id = ?")
      .bind(squatter.user.id)
      .first<{ t: string | null; e: string | null }>();
    expect(reset).toEqual({ t: null, e: null });
    expect(await count("SELECT count(*) AS n FROM verification_tokens WHERE user_id = ?", squatter.user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", squatter.user.id)).toBe(1);
    expect((await call("GET", "/api/auth/me", { token: squatter.token })).status).toBe(401);
    expect(await closedWith(socket)).toBe(4401);
    expect(mail).toContain(`to=${victim} ${CHANGED}`);
    expect(mail).toMatch(/Every other way to sign in was removed/);

    // The squatter's GitHub now signs in to an account of its own, never the owner's.
    const back = await signIn("github", { id: squatterGitHub, email: uniqueEmail("squatter"), emailVerified: true });
    expect((await me(back.session!)).id).not.toBe(squatter.user.id);
    const withVictimsAddress = await signIn("github", { id: squatterGitHub, email: victim, emailVerified: false });
    if (withVictimsAddress.session) expect((await me(withVictimsAddress.session)).id).not.toBe(squatter.user.id);
    expect((await linksOf(squatter.user.id)).map((l) => l.provider)).toEqual(["google"]);
  });

  it("the whole attack through /account: the squatter cannot connect GitHub, and the owner's claim leaves them nothing", async () => {
    const victim = uniqueEmail("admin-to-be");
    const squatter = await registerUser({ name: "Squatter", email: victim });
    const squatterGitHub = uniqueId();
    // The squatter, freshly signed in, tries to connect their own GitHub from /account (the old code let them).
    const session = `sw_session=${squatter.token}`;
    const attempt = await get("/api/auth/oauth/github?intent=link", { cookies: [session] });
    if (attempt.status === 302) {
      const back = await approve(new URL(attempt.location!), { id: squatterGitHub, email: uniqueEmail("gh"), emailVerified: true });
      await get(back.pathname + back.search, { cookies: [cookieValue(attempt.setCookies, "sw_oauth")!, session] });
    }

    const owner = await signIn("google", { id: `g-${uniqueId()}`, email: victim, emailVerified: true });
    expect((await me(owner.session!)).id).toBe(squatter.user.id);
    const back = await signIn("github", { id: squatterGitHub, email: uniqueEmail("squatter"), emailVerified: true });
    expect((await me(back.session!)).id).not.toBe(squatter.user.id);
    expect(attempt.status).toBe(403);
    expect(attempt.json).toEqual({ error: oauthErrors.verify_email });
  });
});

describe("a password reset of an unverified account is a claim too", () => {
  it("the reset link proves the address: a provider linked before it no longer reaches the account, and the account is mailed", async () => {
    const victim = uniqueEmail("reset-victim");
    const squatter = await registerUser({ name: "Squatter", email: victim });
    const planted = uniqueId();
    await env.DB.prepare("INSERT INTO oauth_accounts (user_id, provider, provider_id) VALUES (?, 'github', ?)")
      .bind(squatter.user.id, planted)
      .run();
    // The owner asks for a reset and opens the link from their mailbox.
    const token = `reset-${uniqueId()}`;
    await env.DB.prepare("UPDATE users SET reset_password_token = ?, reset_password_expires = ? WHERE id = ?")
      .bind(await sha256Hex(token), new Date(Date.now() + 3_600_000).toISOString(), squatter.user.id)
      .run();
    let res!: Awaited<ReturnType<typeof call>>;
    const mail = await capturedMail(async () => {
      res = await call("POST", "/api/auth/reset-password", { body: { token, password: "the-owners-password-1" } });
    });
    expect(res.status).toBe(200);
    expect(await linksOf(squatter.user.id)).toEqual([]);
    expect(mail).toContain(`to=${victim} ${CHANGED}`);
    const back = await signIn("github", { id: planted, email: uniqueEmail("squatter"), emailVerified: true });
    expect((await me(back.session!)).id).not.toBe(squatter.user.id);
  });

  it("a verified account keeps its providers through a password reset", async () => {
    const email = uniqueEmail("reset-verified");
    const writer = await registerUser({ name: "Verified", email });
    await markVerified(email);
    const github = uniqueId();
    await env.DB.prepare("INSERT INTO oauth_accounts (user_id, provider, provider_id) VALUES (?, 'github', ?)")
      .bind(writer.user.id, github)
      .run();
    const token = `reset-${uniqueId()}`;
    await env.DB.prepare("UPDATE users SET reset_password_token = ?, reset_password_expires = ? WHERE id = ?")
      .bind(await sha256Hex(token), new Date(Date.now() + 3_600_000).toISOString(), writer.user.id)
      .run();
    expect((await call("POST", "/api/auth/reset-password", { body: { token, password: "the-owners-password-1" } })).status).toBe(200);
    expect((await linksOf(writer.user.id)).map((l) => l.provider)).toEqual(["github"]);
  });
});

describe("connecting a provider needs a verified address and a recent sign-in", () => {
  it("an unverified account: the link start answers 403 (a browser gets the toast on /account), nothing linked", async () => {
    const writer = await registerUser();
    const session = `sw_session=${writer.token}`;
    const refused = await get("/api/auth/oauth/github?intent=link", { cookies: [session] });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: "Verify your email before connecting another sign-in method" });
    expect(cookieValue(refused.setCookies, "sw_oauth")).toBeNull();

    const navigation = await call("GET", "/api/auth/oauth/github?intent=link", {
      headers: { Cookie: session, "Sec-Fetch-Mode": "navigate" },
    });
    expect(navigation.status).toBe(302);
    expect(navigation.headers.get("Location")).toBe("/account");
    const flash = navigation.headers.getSetCookie().find((c) => c.startsWith("sw_flash="))!;
    expect(JSON.parse(decodeURIComponent(flash.split(";")[0].slice("sw_flash=".length)))).toMatchObject({
      description: signInMethodMessages.verifyFirst,
    });
    expect(await linksOf(writer.user.id)).toEqual([]);
  });

  it("a sign-in older than 10 minutes: refused at the start (403) and at the callback (the session aged meanwhile)", async () => {
    const writer = await registerUser();
    await markVerified(writer.email);
    await ageSessions(writer.user.id);
    const session = `sw_session=${writer.token}`;
    const stale = await get("/api/auth/oauth/github?intent=link", { cookies: [session] });
    expect(stale.status).toBe(403);
    expect(stale.json).toEqual({ error: "Please sign in again to continue" });

    // Fresh at the start, 11 minutes old at the callback.
    const fresh = await call("POST", "/api/auth/login", { body: { email: writer.email, password: writer.password } });
    const startRes = await get("/api/auth/oauth/github?intent=link", { cookies: [`sw_session=${fresh.json.token}`] });
    expect(startRes.status).toBe(302);
    await ageSessions(writer.user.id);
    const pending = cookieValue(startRes.setCookies, "sw_oauth")!;
    const back = await approve(new URL(startRes.location!), { id: uniqueId(), email: uniqueEmail(), emailVerified: true });
    const res = await get(back.pathname + back.search, { cookies: [pending, `sw_session=${fresh.json.token}`] });
    expect(res.location).toBe("/account");
    const flash = decodeURIComponent(cookieValue(res.setCookies, "sw_flash")!.slice("sw_flash=".length));
    expect(JSON.parse(flash)).toEqual({ title: "Could not connect", description: oauthErrors.sign_in_again, variant: "destructive" });
    expect(await linksOf(writer.user.id)).toEqual([]);
  });
});

describe("GET /api/auth/methods and DELETE /api/auth/oauth/{provider}", () => {
  it("lists the password and each connected provider with its date; signed out is 401", async () => {
    expect((await call("GET", "/api/auth/methods")).status).toBe(401);
    const writer = await registerUser();
    expect((await call("GET", "/api/auth/methods", { token: writer.token })).json).toEqual({ password: true, providers: [] });
    await markVerified(writer.email);
    await connect("github", writer.token, { id: uniqueId(), email: uniqueEmail(), emailVerified: true });
    const res = await call("GET", "/api/auth/methods", { token: writer.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ password: true, providers: [{ provider: "github", linkedAt: expect.any(String) }] });
    expect(Math.abs(Date.parse(res.json.providers[0].linkedAt) - Date.now())).toBeLessThan(60_000);
  });

  it("disconnecting works (200, the methods left), mails the account, and the provider no longer signs in", async () => {
    const writer = await registerUser();
    await markVerified(writer.email);
    const gitHubId = uniqueId();
    const linkMail = await capturedMail(() => connect("github", writer.token, { id: gitHubId, email: uniqueEmail(), emailVerified: true }));
    expect(linkMail).toContain(`to=${writer.email} ${CHANGED}`);
    expect(linkMail).toContain("GitHub was connected");

    let res!: Awaited<ReturnType<typeof call>>;
    const mail = await capturedMail(async () => {
      res = await call("DELETE", "/api/auth/oauth/github", { token: writer.token });
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ password: true, providers: [] });
    expect(mail).toContain(`to=${writer.email} ${CHANGED}`);
    expect(mail).toContain("GitHub was disconnected");
    expect(await linksOf(writer.user.id)).toEqual([]);
    const again = await signIn("github", { id: gitHubId, email: uniqueEmail("new"), emailVerified: true });
    expect((await me(again.session!)).id).not.toBe(writer.user.id);

    // Not connected, or not a provider: 404 with a message.
    const gone = await call("DELETE", "/api/auth/oauth/github", { token: writer.token });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ error: signInMethodMessages.notConnected });
    expect((await call("DELETE", "/api/auth/oauth/facebook", { token: writer.token })).status).toBe(404);
    expect((await call("DELETE", "/api/auth/oauth/github")).status).toBe(401);
    // With the session cookie, only from this site (CSRF).
    const cookie = `sw_session=${writer.token}`;
    const foreign = await call("DELETE", "/api/auth/oauth/github", { headers: { Cookie: cookie, Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect((await call("DELETE", "/api/auth/oauth/github", { headers: { Cookie: cookie, Origin: ORIGIN } })).status).toBe(404);
  });

  it("the last way to sign in cannot be removed (400); with two providers and no password, one can", async () => {
    const email = uniqueEmail("oauth-only");
    const first = await signIn("github", { id: uniqueId(), email, emailVerified: true });
    const token = sessionToken(first.session!);
    const last = await call("DELETE", "/api/auth/oauth/github", { token });
    expect(last.status).toBe(400);
    expect(last.json).toEqual({ error: "Add a password or another sign-in method first" });
    expect((await linksOf((await me(first.session!)).id)).map((l) => l.provider)).toEqual(["github"]);

    await signIn("google", { id: `g-${uniqueId()}`, email, emailVerified: true });
    const one = await call("DELETE", "/api/auth/oauth/github", { token });
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ password: false, providers: [{ provider: "google", linkedAt: expect.any(String) }] });
    const lastGoogle = await call("DELETE", "/api/auth/oauth/google", { token });
    expect(lastGoogle.status).toBe(400);
    expect(lastGoogle.json).toEqual({ error: signInMethodMessages.lastMethod });
  });

  it("disconnecting after a sign-in older than 10 minutes is refused (403), nothing removed", async () => {
    const writer = await registerUser();
    await markVerified(writer.email);
    await connect("github", writer.token, { id: uniqueId(), email: uniqueEmail(), emailVerified: true });
    await ageSessions(writer.user.id);
    const res = await call("DELETE", "/api/auth/oauth/github", { token: writer.token });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: "Please sign in again to continue" });
    expect(await linksOf(writer.user.id)).toHaveLength(1);
    // The session's own row is what counts: it is this session's sign-in time.
    expect(await count("SELECT count(*) AS n FROM sessions WHERE id = ?", await sha256Hex(writer.token))).toBe(1);
  });
});

describe("redirectTo after an OAuth sign-in stays on the site", () => {
  const newProfile = () => ({ id: uniqueId(), email: uniqueEmail("redirect"), emailVerified: true });

  it("a tab, newline or backslash trick, another origin, a script URL or an overlong target lands on /timeline", async () => {
    // As a phishing link carries it: the tab arrives percent-encoded once (the browser would drop it from a
    // Location and read `//127.0.0.1:5193/phish`).
    const phish = await signIn("github", newProfile(), "?redirectTo=/%09/127.0.0.1:5193/phish");
    expect(phish.location).toBe("/timeline");
    const targets = [
      "/\t/127.0.0.1:5193/phish",
      "/\n/evil.example",
      "/\r\n//evil.example",
      "//evil.example/x",
      "///evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/.//evil.example",
      "https://evil.example/",
      `${ORIGIN}.evil.example/`,
      "javascript:alert(1)",
      "data:text/html,hi",
      `/timeline/${"x".repeat(600)}`,
    ];
    for (const target of targets) {
      const res = await signIn("github", newProfile(), `?redirectTo=${encodeURIComponent(target)}`);
      expect(res.location, JSON.stringify(target)).toBe("/timeline");
    }
  });

  it("a path on this site comes back whole (query and fragment), also given as an absolute URL of this origin", async () => {
    const shared = await signIn("github", newProfile(), `?redirectTo=${encodeURIComponent("/timeline/shared/abc123?view=list#e5")}`);
    expect(shared.location).toBe("/timeline/shared/abc123?view=list#e5");
    const absolute = await signIn("github", newProfile(), `?redirectTo=${encodeURIComponent(`${ORIGIN}/account`)}`);
    expect(absolute.location).toBe("/account");
  });
});
