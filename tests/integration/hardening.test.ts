import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { withSecurityHeaders } from "../../worker/lib/security-headers";
import { call, createEvent, premiumOwnerWithTimeline, registerUser, shareByEmail, signInAdmin, uniqueEmail } from "./helpers";
import { recordSocket, sleep, upgrade } from "./room-helpers";

let ipCounter = 0;
/** A fresh client address per test, so counters never leak between tests. */
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** A raw request to the Worker at any URL (https too), optionally with another env. */
async function fetchWorker(url: string, init: RequestInit = {}, workerEnv: object = env) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, init) as Request<unknown, IncomingRequestCfProperties>, workerEnv as typeof env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function socket(path: string, token: string, headers: Record<string, string> = {}) {
  const res = await upgrade(path, token, headers);
  if (res.status !== 101) return { open: false, status: res.status, body: await res.text() } as const;
  return { open: true, status: 101, ...recordSocket(res.webSocket!) } as const;
}

describe("login lockout is counted before the password is checked", () => {
  it("60 parallel wrong guesses: exactly 5 are checked (401), the rest 429; then even the right password waits", async () => {
    const user = await registerUser();
    const ip = freshIp();
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call("POST", "/api/auth/login", { body: { email: user.email, password: `wrong-guess-${i}` }, headers: { "CF-Connecting-IP": ip } }),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
    const refused = guesses.find((r) => r.status === 429)!;
    expect(refused.json.error).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);

    const right = await call("POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { "CF-Connecting-IP": freshIp() },
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("Retry-After"))).toBeGreaterThan(60);
  });

  it("successful sign-ins never use up a shared client address (loose per address)", async () => {
    const ip = freshIp();
    const user = await registerUser();
    // The test config allows 20 failures per address; 25 good logins from it all pass.
    for (let i = 0; i < 25; i++) {
      const res = await call("POST", "/api/auth/login", {
        body: { email: user.email, password: user.password },
        headers: { "CF-Connecting-IP": ip },
      });
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe("rate limits answer 429 with Retry-After", () => {
  it("register: 300 per client address per hour; other addresses are not affected; invalid input is not counted", async () => {
    const ip = freshIp();
    const taken = await registerUser();
    const headers = { "CF-Connecting-IP": ip };
    // Invalid bodies fail validation first and do not spend the allowance.
    for (let i = 0; i < 5; i++) {
      expect((await call("POST", "/api/auth/register", { body: { email: "nope" }, headers })).status).toBe(400);
    }
    // 300 attempts (for an address already registered: 409, cheap) use up the hour.
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call("POST", "/api/auth/register", { body: { name: "Sam", email: taken.email, password: "secret-pass-1" }, headers }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(409));
    }
    const limited = await call("POST", "/api/auth/register", {
      body: { name: "Sam", email: uniqueEmail(), password: "secret-pass-1" },
      headers,
    });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: "Too many registrations. Please try again in 60 minutes.", retryAfter: expect.any(Number) });
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const elsewhere = await call("POST", "/api/auth/register", {
      body: { name: "Sam", email: uniqueEmail(), password: "secret-pass-1" },
      headers: { "CF-Connecting-IP": freshIp() },
    });
    expect(elsewhere.status).toBe(201);
  });

  it("forgot-password: 3 mails per address per hour, the same for unknown addresses (no enumeration)", async () => {
    const known = await registerUser();
    const unknown = uniqueEmail("nobody");
    for (const email of [known.email, unknown]) {
      for (let i = 0; i < 3; i++) {
        const res = await call("POST", "/api/auth/forgot-password", { body: { email }, headers: { "CF-Connecting-IP": freshIp() } });
        expect(res.status).toBe(200);
      }
      const limited = await call("POST", "/api/auth/forgot-password", { body: { email }, headers: { "CF-Connecting-IP": freshIp() } });
      expect(limited.status).toBe(429);
      expect(limited.json.error).toMatch(/^Too many password reset emails\. Please try again in \d+ minutes\.$/);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(3500);
    }
    // Another address is not affected.
    expect((await call("POST", "/api/auth/forgot-password", { body: { email: uniqueEmail() } })).status).toBe(200);
  });

  it("the AI connection test: admins only (403 for writers), 20 per admin per hour", async () => {
    const writer = await registerUser();
    const refused = await call("GET", "/api/test/openai", { token: writer.token });
    expect(refused).toMatchObject({ status: 403, json: { error: "Admin access required" } });
    expect((await call("GET", "/api/test/openai")).status).toBe(401);
    const admin = await signInAdmin();
    for (let i = 0; i < 20; i++) expect((await call("GET", "/api/test/openai", { token: admin.token })).status).toBe(200);
    const limited = await call("GET", "/api/test/openai", { token: admin.token });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/^Too many AI connection tests\./);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("AI tool calls are limited per account (after the input is valid)", async () => {
    const writer = await registerUser();
    const limitedEnv = { ...env, RATE_AI_PER_ACCOUNT_PER_HOUR: "2" };
    const ideas = (body: unknown) =>
      fetchWorker(
        "http://storyweave.test/api/ideas/generate",
        {
          method: "POST",
          headers: { Authorization: `Bearer ${writer.token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        },
        limitedEnv,
      );
    expect((await ideas({})).status).toBe(400);
    expect((await ideas({ prompt: "" })).status).toBe(400);
    // Two valid calls are spent (whatever the AI answers), the third is refused before any AI call.
    await ideas({ prompt: "a lighthouse" });
    await ideas({ prompt: "a lighthouse" });
    const third = await ideas({ prompt: "a lighthouse" });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: string }).error).toMatch(/^Too many AI requests\./);
  });
});

describe("headers", () => {
  it("API answers are no-store; HSTS only on https", async () => {
    const user = await registerUser();
    const http = await fetchWorker("http://storyweave.test/api/auth/me", { headers: { Authorization: `Bearer ${user.token}` } });
    expect(http.status).toBe(200);
    expect(http.headers.get("Cache-Control")).toBe("no-store");
    expect(http.headers.get("Strict-Transport-Security")).toBeNull();
    const https = await fetchWorker("https://storyweave.test/api/auth/me", { headers: { Authorization: `Bearer ${user.token}` } });
    expect(https.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    expect(https.headers.get("Cache-Control")).toBe("no-store");
    // Errors too.
    expect((await fetchWorker("https://storyweave.test/api/nothing-here")).headers.get("Cache-Control")).toBe("no-store");
  });

  it("signed-in pages are no-store; the CSP names this origin's own socket, with no ws:/https: wildcards", () => {
    const page = () => new Response("<html></html>", { headers: { "Content-Type": "text/html; charset=utf-8" } });
    const signedIn = new Request("https://storyweave.test/timeline", { headers: { Cookie: "__Host-sw_session=abc" } });
    const res = withSecurityHeaders(page(), signedIn, "nonce123", false);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const csp = res.headers.get("Content-Security-Policy")!;
    const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `))!;
    expect(directive("connect-src")).toBe("connect-src 'self' wss://storyweave.test");
    expect(directive("img-src")).toBe("img-src 'self' data: blob:");
    expect(directive("script-src")).toBe("script-src 'self' 'nonce-nonce123' 'wasm-unsafe-eval'");
    expect(csp).not.toMatch(/(^|\s)(ws:|wss:|https:|http:)(\s|;|$)/);
    const local = withSecurityHeaders(page(), new Request("http://127.0.0.1:4173/auth/login"), "n", false);
    expect(local.headers.get("Content-Security-Policy")).toContain("connect-src 'self' ws://127.0.0.1:4173");
    // A signed-out page may be cached.
    expect(local.headers.get("Cache-Control")).toBeNull();
  });

  // Writes also hand back the D1 bookmark cookie (worker/lib/d1-session.ts): pick the session's own.
  const sessionSetCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.includes("sw_session="));

  it("the session cookie is __Host- prefixed on https, plain on http, and both are read", async () => {
    const body = (email: string) => JSON.stringify({ name: "Cookie Writer", email, password: "secret-pass-1" });
    const headers = { "Content-Type": "application/json", Origin: "https://storyweave.test" };
    const secure = await fetchWorker("https://storyweave.test/api/auth/register", { method: "POST", headers, body: body(uniqueEmail()) });
    expect(secure.status).toBe(201);
    const cookie = sessionSetCookie(secure)!;
    expect(cookie).toMatch(/^__Host-sw_session=[\w-]+; Path=\/; SameSite=Lax; HttpOnly; Secure; Max-Age=\d+$/);
    expect(cookie).not.toMatch(/Domain=/i);
    const token = cookie.split(";")[0].split("=")[1];
    const me = await fetchWorker("https://storyweave.test/api/auth/me", { headers: { Cookie: `__Host-sw_session=${token}` } });
    expect(me.status).toBe(200);
    // An older plain-named cookie still signs the browser in.
    expect((await fetchWorker("https://storyweave.test/api/auth/me", { headers: { Cookie: `sw_session=${token}` } })).status).toBe(200);
    // Logout clears the prefixed one.
    const out = await fetchWorker("https://storyweave.test/api/auth/logout", {
      method: "POST",
      headers: { Cookie: `__Host-sw_session=${token}`, Origin: "https://storyweave.test" },
    });
    expect(sessionSetCookie(out)).toMatch(/^__Host-sw_session=; .*Max-Age=0/);

    const plain = await fetchWorker("http://127.0.0.1:5173/api/auth/register", {
      method: "POST",
      headers: { ...headers, Origin: "http://127.0.0.1:5173" },
      body: body(uniqueEmail()),
    });
    expect(sessionSetCookie(plain)).toMatch(/^sw_session=[\w-]+; Path=\/; SameSite=Lax; HttpOnly; Max-Age=\d+$/);
  });
});

describe("MAILER=log runs only in local development", () => {
  it("refuses to serve anywhere else, with a clear log line; MAILER=http needs its URL and key", async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args.map(String).join(" "));
    try {
      const production = { ...env, ENVIRONMENT: undefined, MAILER: "log" };
      const res = await fetchWorker("https://storyweave.test/api/auth/me", {}, production);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: "Server is not configured" });
      expect(errors.join("\n")).toMatch(/MAILER=log .* only runs in local development/);
      const halfHttp = { ...env, ENVIRONMENT: undefined, MAILER: "http", MAIL_API_URL: "" };
      expect((await fetchWorker("https://storyweave.test/api/auth/me", {}, halfHttp)).status).toBe(500);
      expect(errors.join("\n")).toContain("MAILER=http needs MAIL_API_URL and MAIL_API_KEY");
    } finally {
      console.error = original;
    }
    const configured = { ...env, ENVIRONMENT: undefined, MAILER: "http", MAIL_API_URL: "http://127.0.0.1:9/send", MAIL_API_KEY: "k" };
    expect((await fetchWorker("https://storyweave.test/api/auth/me", {}, configured)).status).toBe(401);
    expect((await fetchWorker("http://storyweave.test/api/auth/me")).status).toBe(401);
  });
});

describe("room upgrades", () => {
  it("one spelling per room id: /ws/01 and extra segments are refused (404), non-numeric 404", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    for (const path of [`/ws/0${timelineId}`, `/ws/${timelineId}/x`, `/ws/${timelineId}.0`, "/ws/abc", "/ws/0", "/ws/-1", "/ws/1e3"]) {
      const res = await socket(path, owner.token);
      expect(res.status, path).toBe(404);
    }
    const ok = await socket(`/ws/${timelineId}`, owner.token);
    expect(ok.status).toBe(101);
    if (ok.open) ok.ws.close();
  });

  it("Origin must be this site when present; bearer clients without Origin are allowed", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const evil = await socket(`/ws/${timelineId}`, owner.token, { Origin: "https://evil.example" });
    expect(evil).toEqual({ open: false, status: 403, body: JSON.stringify({ error: "Cross-site WebSocket refused" }) });
    const same = await socket(`/ws/${timelineId}`, owner.token, { Origin: "http://storyweave.test" });
    expect(same.status).toBe(101);
    const none = await socket(`/ws/${timelineId}`, owner.token);
    expect(none.status).toBe(101);
    for (const s of [same, none]) if (s.open) s.ws.close();
  });

  it("client x-partykit-*/x-storyweave-* headers and connection ids grant nothing", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser({ name: "Mallory" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const event = await createEvent(owner.token, timelineId, { title: "Keep" });
    const victim = await socket(`/ws/${timelineId}?_pk=shared-tab`, owner.token);
    // Same connection id as the owner's, plus forged identity and partyserver headers.
    const forger = await socket(`/ws/${timelineId}?_pk=shared-tab`, collab.token, {
      "x-partykit-room": "999",
      "x-partykit-props": btoa(JSON.stringify({ admin: true })),
      "X-StoryWeave-User-Id": String(owner.user.id),
      "X-StoryWeave-Access": "owner",
    });
    if (!victim.open || !forger.open) throw new Error("sockets did not open");
    const presence = await victim.waitFor((m) => m.type === "presence" && m.presence.users.length === 2, "presence");
    expect(presence.presence.users).toEqual([
      expect.objectContaining({ userId: owner.user.id, isOwner: true }),
      expect.objectContaining({ userId: collab.user.id, userName: "Mallory", accessMode: "collaborator", isOwner: false }),
    ]);
    victim.messages.splice(0);
    forger.messages.splice(0);
    // The forger names "shared-tab" as its own connection: that leaves out only the forger's socket.
    const res = await call("PATCH", `/api/events/${event.id}`, {
      token: collab.token,
      body: { content: "changed" },
      headers: { "X-Room-Connection": "shared-tab" },
    });
    expect(res.status).toBe(200);
    await victim.waitFor((m) => m.type === "sync", "the owner still resyncs");
    await sleep(200);
    expect(forger.messages.filter((m) => m.type === "sync")).toEqual([]);
    victim.ws.close();
    forger.ws.close();
  });

  it("a flooding connection is closed (4429); others stay connected", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser({ name: "Flo" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const calm = await socket(`/ws/${timelineId}`, owner.token);
    const flood = await socket(`/ws/${timelineId}`, collab.token);
    if (!calm.open || !flood.open) throw new Error("sockets did not open");
    await calm.waitFor((m) => m.type === "presence" && m.presence.users.length === 2, "presence");
    for (let i = 0; i < 100; i++)
      flood.ws.send(JSON.stringify({ type: "change", eventId: 1, change: { type: "content", value: `v${i}` } }));
    const start = Date.now();
    while (flood.closed.code === undefined && Date.now() - start < 3000) await sleep(20);
    expect(flood.closed.code).toBe(4429);
    expect(calm.closed.code).toBeUndefined();
    await calm.waitFor((m) => m.type === "presence" && m.presence.users.length === 1, "presence after the flooder left");
    calm.ws.close();
  });
});

describe("PATCH /api/events/{id} writes only the fields sent", () => {
  it("a title-only save from a stale copy keeps the content another writer saved", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId, { title: "Old title", content: "Old content" });
    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { content: "New content" } })).status).toBe(200);
    const titled = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { title: "New title" } });
    expect(titled.status).toBe(200);
    expect(titled.json).toMatchObject({ title: "New title", content: "New content" });
    const row = await env.DB.prepare("SELECT title, content FROM events WHERE id = ?").bind(event.id).first();
    expect(row).toEqual({ title: "New title", content: "New content" });
    // A content-only save leaves the title alone.
    await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { content: "Third" } });
    expect(await env.DB.prepare("SELECT title, content FROM events WHERE id = ?").bind(event.id).first()).toEqual({
      title: "New title",
      content: "Third",
    });
  });
});

describe("upstream failures are generic to the client", () => {
  it("a payment provider that cannot be reached is a 502 with no upstream detail", async () => {
    const admin = await signInAdmin();
    await call("POST", "/api/config/stripe-keys", {
      token: admin.token,
      body: { secretKey: "sk_test_fake_secret_key_123", publishableKey: "pk_test_fake_publishable_key_123" },
    });
    const writer = await registerUser();
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args.map(String).join(" "));
    try {
      const res = await fetchWorker(
        "http://storyweave.test/api/subscription/create-checkout-session",
        { method: "POST", headers: { Authorization: `Bearer ${writer.token}` } },
        { ...env, STRIPE_API_BASE: "http://127.0.0.1:9" },
      );
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: "The payment provider could not complete the request. Please try again later." });
    } finally {
      console.error = original;
    }
    expect(errors.join("\n")).toContain("[billing] Stripe error:");
  });
});
