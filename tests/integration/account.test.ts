import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import worker from "../../worker/index";
import { versionStatements } from "../../worker/services/versions";
import { ORIGIN, call, createEvent, createTimeline, makePremium, registerUser, shareByEmail, signInAdmin, importBook } from "./helpers";
import { closedWith, connect, sleep } from "./room-helpers";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);
const SK = "sk_test_fake_secret_key_123";
const PK = "pk_test_fake_publishable_key_123";

async function fetchRaw(path: string, token: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${token}`);
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(ORIGIN + path, { ...init, headers }) as Request<unknown, IncomingRequestCfProperties>,
    env,
    ctx,
  );
  const body = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { res, body };
}

async function upload(eventId: number, token: string, bytes: Uint8Array<ArrayBuffer>, name: string) {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "image/png" }), name);
  const { res, body } = await fetchRaw(`/api/events/${eventId}/attachments`, token, { method: "POST", body: form });
  expect(res.status, strFromU8(body)).toBe(201);
  return JSON.parse(strFromU8(body)) as { id: number };
}

const count = async (sql: string, ...args: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;

/** Makes every session of the writer older than the recent sign-in window. */
const ageSessions = (userId: number) =>
  env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?")
    .bind(new Date(Date.now() - 11 * 60_000).toISOString(), userId)
    .run();

const login = (email: string, password: string) => call("POST", "/api/auth/login", { body: { email, password } });

/** An owner with two timelines (events, codex, an attachment, a version by a collaborator) and a timeline shared with them. */
async function writerWithData() {
  const writer = await registerUser({ name: "Dana Data" });
  const other = await registerUser({ name: "Otto Other" });
  await makePremium(writer.user.id);
  await makePremium(other.user.id);
  const first = await createTimeline(writer.token, { title: "Salt Road", description: "Caravans" });
  const second = await createTimeline(writer.token, { title: "Glass Tower" });
  const entity = await call("POST", `/api/timelines/${first.id}/entities`, {
    token: writer.token,
    body: { kind: "character", name: "Mira", description: "A guide" },
  });
  expect(entity.status, entity.text).toBe(201);
  const event = await createEvent(writer.token, first.id, { title: "Departure", content: "They leave at dawn" });
  await createEvent(writer.token, second.id, { title: "Top floor", content: "Wind" });
  const attachment = await upload(event.id, writer.token, PNG, "map.png");
  const theirs = await createTimeline(other.token, { title: "Other's Story" });
  await shareByEmail(theirs.id, other.token, writer.email, "collaborator");
  const shared = await createEvent(other.token, theirs.id, { title: "Harbor", content: "Boats" });
  return { writer, other, first, second, event, attachment, theirs, shared };
}

describe("GET /api/account/export", () => {
  let fx: Awaited<ReturnType<typeof writerWithData>>;
  let entries: Record<string, Uint8Array>;
  let res: Response;
  beforeAll(async () => {
    fx = await writerWithData();
    const got = await fetchRaw("/api/account/export", fx.writer.token);
    res = got.res;
    entries = unzipSync(got.body);
  });

  it("answers a zip named for download", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="storyweave-data-\d+-\d{4}-\d{2}-\d{2}\.zip"$/);
  });

  it("holds each owned timeline's JSON and Markdown exactly as the single export gives them, and no one else's", async () => {
    const names = Object.keys(entries).sort();
    expect(names).toEqual([
      "account.json",
      "timelines/glass-tower/glass-tower.json",
      "timelines/glass-tower/glass-tower.md",
      `timelines/salt-road/attachments/${fx.attachment.id}-map.png`,
      "timelines/salt-road/salt-road.json",
      "timelines/salt-road/salt-road.md",
    ]);
    const json = await call("GET", `/api/timelines/${fx.first.id}/export?format=json`, { token: fx.writer.token });
    const md = await call("GET", `/api/timelines/${fx.first.id}/export?format=md`, { token: fx.writer.token });
    expect(strFromU8(entries["timelines/salt-road/salt-road.json"])).toBe(json.text);
    expect(strFromU8(entries["timelines/salt-road/salt-road.md"])).toBe(md.text);
    expect(JSON.parse(json.text).events[0]).toMatchObject({ title: "Departure", attachments: [{ filename: "map.png" }] });
    expect(names.some((n) => n.includes("other"))).toBe(false);
  });

  it("holds the attachments' bytes", () => {
    expect(entries[`timelines/salt-road/attachments/${fx.attachment.id}-map.png`]).toEqual(PNG);
  });

  it("account.json has profile, plan and AI use, never a secret", () => {
    const text = strFromU8(entries["account.json"]);
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ id: fx.writer.user.id, email: fx.writer.email, name: "Dana Data" });
    expect(data.plan).toMatchObject({ tier: "premium" });
    expect(data.aiUsage).toEqual({ total: 0, requests: [] });
    expect(data.signInMethods).toEqual({ password: true, providers: [] });
    expect(text).not.toMatch(/hashed|pbkdf2|token|stripe|secret/i);
  });

  it("its JSON imports back through the import endpoint", async () => {
    const res = await importBook(fx.writer.token, strFromU8(entries["timelines/salt-road/salt-road.json"]), "application/json");
    expect(res.status, res.text).toBe(201);
    expect(res.json.title).toBe("Salt Road");
    const events = await call("GET", `/api/timelines/${res.json.id}/events`, { token: fx.writer.token });
    expect(events.json.map((e: { title: string }) => e.title)).toEqual(["Departure"]);
  });

  it("needs a sign-in", async () => {
    expect(await call("GET", "/api/account/export")).toMatchObject({ status: 401 });
  });

  it("is limited to 10 downloads an hour per writer (429 with Retry-After), other writers unaffected", async () => {
    const writer = await registerUser({ name: "Eager Exporter" });
    for (let i = 0; i < 10; i++) expect((await call("GET", "/api/account/export", { token: writer.token })).status).toBe(200);
    const over = await call("GET", "/api/account/export", { token: writer.token });
    expect(over.status).toBe(429);
    expect(over.json.error).toMatch(/^Too many data downloads\. Please try again in \d+ minutes?\.$/);
    expect(over.headers.get("Retry-After")).toMatch(/^\d+$/);
    const other = await registerUser({ name: "Calm Exporter" });
    expect((await call("GET", "/api/account/export", { token: other.token })).status).toBe(200);
  });
});

describe("DELETE /api/account", () => {
  it("removes the account and everything it owns; others keep their history under 'Deleted writer'", async () => {
    const fx = await writerWithData();
    const { writer } = fx;
    // The writer's version on the other writer's timeline, a mind map node, a provider link, a second session.
    const edit = await call("PATCH", `/api/events/${fx.shared.id}`, { token: writer.token, body: { content: "Boats at night" } });
    expect(edit.status, edit.text).toBe(200);
    await env.DB.prepare("INSERT INTO map_nodes (timeline_id, kind, text) VALUES (?, 'idea', 'An idea')").bind(fx.first.id).run();
    await env.DB.prepare("INSERT INTO oauth_accounts (user_id, provider, provider_id) VALUES (?, 'github', ?)")
      .bind(writer.user.id, `gh-${writer.user.id}`)
      .run();
    const second = await login(writer.email, writer.password);
    const keys = (await env.FILES.list({ prefix: `t/${fx.first.id}/` })).objects.map((o) => o.key);
    expect(keys).toHaveLength(1);
    // An object whose row never landed (an upload cut short) goes too.
    await env.FILES.put(`t/${fx.first.id}/e/${fx.event.id}/stray`, "x");

    const res = await call("DELETE", "/api/account", { token: writer.token, body: { password: writer.password } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect(res.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);

    const owned = [fx.first.id, fx.second.id];
    const inOwned = `IN (${owned.join(",")})`;
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ?", writer.user.id)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM timelines WHERE id ${inOwned}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM events WHERE timeline_id ${inOwned}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM event_versions WHERE timeline_id ${inOwned}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM entities WHERE timeline_id ${inOwned}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM map_nodes WHERE timeline_id ${inOwned}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM files WHERE timeline_id ${inOwned}`)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM timeline_shares WHERE shared_with_user_id = ?", writer.user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM oauth_accounts WHERE user_id = ?", writer.user.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", writer.user.id)).toBe(0);
    expect((await env.FILES.list({ prefix: `t/${fx.first.id}/` })).objects).toEqual([]);

    // Every session is gone, and the password no longer signs in.
    expect((await call("GET", "/api/auth/me", { token: second.json.token })).status).toBe(401);
    expect(await login(writer.email, writer.password)).toMatchObject({ status: 401, json: { error: "Invalid email or password" } });

    // The other writer's timeline keeps the version, by 'Deleted writer'.
    const versions = await call("GET", `/api/events/${fx.shared.id}/versions`, { token: fx.other.token });
    expect(versions.json.map((v: { authorName: string }) => v.authorName)).toEqual(["Deleted writer", "Otto Other"]);
    const full = await call("GET", `/api/event-versions/${versions.json[0].id}`, { token: fx.other.token });
    expect(full.json).toMatchObject({ authorId: null, authorName: "Deleted writer", content: "Boats at night" });
    // The stored name is gone too, not only hidden.
    expect(await count("SELECT count(*) AS n FROM event_versions WHERE event_id = ? AND author_name = 'Dana Data'", fx.shared.id)).toBe(0);
    expect((await call("GET", `/api/timelines/${fx.theirs.id}`, { token: fx.other.token })).status).toBe(200);
  });

  it("closes the writer's room sockets, and everyone's in the timelines it owned", async () => {
    const fx = await writerWithData();
    const guest = await registerUser({ name: "Gus Guest" });
    await shareByEmail(fx.first.id, fx.writer.token, guest.email, "collaborator");
    const inShared = await connect(fx.theirs.id, fx.writer.token);
    const guestInOwned = await connect(fx.first.id, guest.token);
    const host = await connect(fx.theirs.id, fx.other.token);
    for (const r of [inShared, guestInOwned, host]) await r.waitFor((m) => m.type === "presence");

    expect((await call("DELETE", "/api/account", { token: fx.writer.token })).status).toBe(200);
    expect(await closedWith(inShared)).toBe(4401);
    expect(await closedWith(guestInOwned)).toBe(4404);
    await sleep(100);
    expect(host.closed.code).toBeUndefined();
    host.ws.close();
  });

  it("a version a live doc records later for the deleted writer lands as 'Deleted writer' instead of failing the save", async () => {
    const fx = await writerWithData();
    const gone = { id: fx.writer.user.id, name: "Dana Data", email: fx.writer.email };
    expect((await call("DELETE", "/api/account", { token: fx.writer.token })).status).toBe(200);
    // What the shared doc's autosave runs with the last editor it saw (worker/services/versions.ts).
    const db = createDb(env.DB);
    await db.batch([...versionStatements(db, { eventId: fx.shared.id, author: gone, content: "Typed before leaving" })]);
    const versions = await call("GET", `/api/events/${fx.shared.id}/versions`, { token: fx.other.token });
    expect(versions.json[0]).toMatchObject({ authorId: null, authorName: "Deleted writer", contentPreview: "Typed before leaving" });
  });

  it("a sign-in within 10 minutes is enough without the password; an older one is refused", async () => {
    const fresh = await registerUser();
    expect((await call("DELETE", "/api/account", { token: fresh.token })).status).toBe(200);

    const stale = await registerUser();
    await ageSessions(stale.user.id);
    expect(await call("DELETE", "/api/account", { token: stale.token })).toMatchObject({
      status: 403,
      json: { error: "Please sign in again to continue" },
    });
    expect(await count("SELECT count(*) AS n FROM users WHERE id = ?", stale.user.id)).toBe(1);
    // The password still works on an old session.
    expect((await call("DELETE", "/api/account", { token: stale.token, body: { password: stale.password } })).status).toBe(200);
  });

  it("a wrong password is refused and deletes nothing", async () => {
    const writer = await registerUser();
    const tl = await createTimeline(writer.token, { title: "Kept" });
    expect(await call("DELETE", "/api/account", { token: writer.token, body: { password: "not-the-password" } })).toMatchObject({
      status: 403,
      json: { error: "Incorrect password" },
    });
    expect(await count("SELECT count(*) AS n FROM timelines WHERE id = ?", tl.id)).toBe(1);
    expect((await call("GET", "/api/auth/me", { token: writer.token })).status).toBe(200);
    expect((await call("DELETE", "/api/account")).status).toBe(401);
  });

  it("cancels a Stripe subscription", async () => {
    await call("POST", "/api/config/stripe-keys", { token: (await signInAdmin()).token, body: { secretKey: SK, publishableKey: PK } });
    const writer = await registerUser();
    const checkout = await call("POST", "/api/subscription/create-checkout-session", { token: writer.token });
    expect(checkout.status, checkout.text).toBe(200);
    await fetch(`${env.STRIPE_API_BASE}/__complete/${checkout.json.sessionId}`, { method: "POST" });
    await call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: checkout.json.sessionId } });
    const subscriptionId = (await env.DB.prepare("SELECT stripe_subscription_id AS id FROM users WHERE id = ?")
      .bind(writer.user.id)
      .first<{ id: string }>())!.id;
    expect(subscriptionId).toMatch(/^sub_/);

    expect((await call("DELETE", "/api/account", { token: writer.token, body: { password: writer.password } })).status).toBe(200);
    const state = await (await fetch(`${env.STRIPE_API_BASE}/__state`)).json<any>();
    expect(state.subscriptions.find((s: { id: string }) => s.id === subscriptionId).status).toBe("canceled");
    expect(state.requests).toContainEqual(expect.objectContaining({ method: "DELETE", path: `/v1/subscriptions/${subscriptionId}` }));
  });
});

describe("PATCH /api/account", () => {
  it("changes the name with SPEC's rules", async () => {
    const writer = await registerUser({ name: "Before" });
    const res = await call("PATCH", "/api/account", { token: writer.token, body: { name: "  After Name  " } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: writer.user.id, name: "After Name", email: writer.email });
    expect(res.json).not.toHaveProperty("hashedPassword");
    expect((await call("GET", "/api/auth/me", { token: writer.token })).json.name).toBe("After Name");

    for (const [body, error] of [
      [{ name: "A" }, "Name must be at least 2 characters"],
      [{ name: "   " }, "Name must be at least 2 characters"],
      [{}, "Name must be at least 2 characters"],
      [{ name: "x".repeat(101) }, "Name must be at most 100 characters"],
    ] as const) {
      expect(await call("PATCH", "/api/account", { token: writer.token, body })).toMatchObject({ status: 400, json: { error } });
    }
    expect((await call("PATCH", "/api/account", { body: { name: "Anon" } })).status).toBe(401);
  });
});

describe("POST /api/account/password", () => {
  it("needs the current password, then revokes the other sessions and keeps this one", async () => {
    const writer = await registerUser();
    const other = await login(writer.email, writer.password);
    const change = (body: unknown) => call("POST", "/api/account/password", { token: writer.token, body });

    expect(await change({ currentPassword: "wrong-pass", newPassword: "brand-new-1" })).toMatchObject({
      status: 400,
      json: { error: "Current password is incorrect" },
    });
    expect(await change({ newPassword: "brand-new-1" })).toMatchObject({ status: 400, json: { error: "Current password is incorrect" } });
    expect(await change({ currentPassword: writer.password, newPassword: "short" })).toMatchObject({
      status: 400,
      json: { error: "Password must be at least 6 characters" },
    });
    expect((await call("GET", "/api/auth/me", { token: other.json.token })).status).toBe(200);

    const tl = await createTimeline(writer.token, { title: "Sockets" });
    const here = await connect(tl.id, writer.token);
    const there = await connect(tl.id, other.json.token);
    for (const r of [here, there]) await r.waitFor((m) => m.type === "presence");

    const res = await change({ currentPassword: writer.password, newPassword: "brand-new-1" });
    expect(res.status, res.text).toBe(200);
    expect(await closedWith(there)).toBe(4401);
    await sleep(100);
    expect(here.closed.code).toBeUndefined();
    here.ws.close();
    expect(res.json).toMatchObject({ success: true, user: { id: writer.user.id } });
    expect((await call("GET", "/api/auth/me", { token: other.json.token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: writer.token })).status).toBe(200);
    expect((await login(writer.email, writer.password)).status).toBe(401);
    expect((await login(writer.email, "brand-new-1")).status).toBe(200);
  });

  it("a writer without a password may set one only soon after signing in", async () => {
    const writer = await registerUser();
    await env.DB.prepare("UPDATE users SET hashed_password = '' WHERE id = ?").bind(writer.user.id).run();
    await ageSessions(writer.user.id);
    expect(await call("POST", "/api/account/password", { token: writer.token, body: { newPassword: "first-pass-1" } })).toMatchObject({
      status: 403,
      json: { error: "Please sign in again to continue" },
    });
    await env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?").bind(new Date().toISOString(), writer.user.id).run();
    expect((await call("POST", "/api/account/password", { token: writer.token, body: { newPassword: "first-pass-1" } })).status).toBe(200);
    expect((await login(writer.email, "first-pass-1")).status).toBe(200);
  });
});
