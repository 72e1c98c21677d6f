import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import worker from "../../worker/index";
import { sha256Hex } from "../../worker/lib/crypto";
import { purgeExpired } from "../../worker/services/purge";
import { call, premiumOwnerWithTimeline, registerUser, shareByEmail } from "./helpers";
import { closedWith, connect, sleep, upgrade } from "./room-helpers";

const DAY = 24 * 60 * 60 * 1000;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const sessionId = (token: string) => sha256Hex(token);

async function login(email: string, password: string) {
  const res = await call("POST", "/api/auth/login", { body: { email, password } });
  expect(res.status, res.text).toBe(200);
  return res.json.token as string;
}

async function setSession(token: string, fields: { created_at?: string; expires_at?: string; last_seen_at?: string }) {
  const sets = Object.keys(fields).map((k) => `${k} = ?`);
  await env.DB.prepare(`UPDATE sessions SET ${sets.join(", ")} WHERE id = ?`)
    .bind(...Object.values(fields), await sessionId(token))
    .run();
}

const roomStub = (timelineId: number) => env.TimelineRoom.get(env.TimelineRoom.idFromName(String(timelineId)));

describe("ending a session closes its room sockets at once", () => {
  it("logout closes that session's sockets in every room (owned and shared), and only that session's", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const other = await premiumOwnerWithTimeline("Another's story");
    const writer = await registerUser({ name: "Wren Writer" });
    await shareByEmail(other.timelineId, other.owner.token, writer.email, "collaborator");
    const own = await call("POST", "/api/timelines", { token: writer.token, body: { title: "Wren's own" } });
    const secondTab = await login(writer.email, writer.password);

    const inOwn = await connect(own.json.id, writer.token);
    const inShared = await connect(other.timelineId, writer.token);
    const otherSession = await connect(other.timelineId, secondTab);
    const bystander = await connect(timelineId, owner.token);
    const host = await connect(other.timelineId, other.owner.token);
    for (const r of [inOwn, inShared, otherSession, bystander, host]) await r.waitFor((m) => m.type === "presence");

    const out = await call("POST", "/api/auth/logout", { token: writer.token });
    expect(out.status).toBe(200);
    expect(await closedWith(inOwn)).toBe(4401);
    expect(await closedWith(inShared)).toBe(4401);
    await sleep(100);
    expect(otherSession.closed.code).toBeUndefined();
    expect(bystander.closed.code).toBeUndefined();
    expect(host.closed.code).toBeUndefined();
    // The session is gone: no new socket, no API.
    expect((await call("GET", "/api/auth/me", { token: writer.token })).status).toBe(401);
    for (const r of [otherSession, bystander, host]) r.ws.close();
  });

  it("a password reset closes the sockets of every session of that user", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const writer = await registerUser({ name: "Rae Reset" });
    await shareByEmail(timelineId, owner.token, writer.email, "collaborator");
    const laptop = await connect(timelineId, writer.token);
    const phone = await connect(timelineId, await login(writer.email, writer.password));
    const o = await connect(timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2);

    const resetToken = "reset-token-for-sockets-0123456789";
    await env.DB.prepare("UPDATE users SET reset_password_token = ?, reset_password_expires = ? WHERE id = ?")
      .bind(await sha256Hex(resetToken), iso(DAY / 24), writer.user.id)
      .run();
    const res = await call("POST", "/api/auth/reset-password", { body: { token: resetToken, password: "a-new-password-2" } });
    expect(res.status, res.text).toBe(200);
    expect(await closedWith(laptop)).toBe(4401);
    expect(await closedWith(phone)).toBe(4401);
    expect(o.closed.code).toBeUndefined();
    // The reset signed the user in again: that fresh session may connect.
    const fresh = await connect(timelineId, res.json.token);
    await fresh.waitFor((m) => m.type === "presence");
    await sleep(100);
    expect(fresh.closed.code).toBeUndefined();
    for (const r of [fresh, o]) r.ws.close();
  });

  it("expiry: the room's alarm re-checks its sockets' sessions and closes the expired ones", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const writer = await registerUser({ name: "Ezra Expiring" });
    await shareByEmail(timelineId, owner.token, writer.email, "viewer");
    const w = await connect(timelineId, writer.token);
    const o = await connect(timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2);

    // An alarm is set no later than the earliest session expiry (here: the 30-day end, capped at an hour).
    const stub = roomStub(timelineId);
    const alarm = await runInDurableObject(stub, (_room, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(Date.now() + 60 * 60 * 1000);

    await setSession(writer.token, { expires_at: iso(-1000) });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await closedWith(w)).toBe(4401);
    await sleep(100);
    expect(o.closed.code).toBeUndefined();
    // A live session keeps the room re-checking.
    expect(await runInDurableObject(stub, (_room, state) => state.storage.getAlarm())).not.toBeNull();

    // The absolute end counts too, however recently the session slid.
    await setSession(owner.token, { created_at: iso(-31 * DAY), expires_at: iso(DAY) });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await closedWith(o)).toBe(4401);
  });

  it("a socket needs the Worker's session headers: a forged upgrade straight to the room is refused", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const o = await connect(timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence");
    o.ws.close();
    // Direct to the Durable Object with identity but without a session: closed as unauthenticated.
    const res = await roomStub(timelineId).fetch(
      new Request(`http://room/parties/timeline-room/${timelineId}`, {
        headers: {
          Upgrade: "websocket",
          "x-partykit-room": String(timelineId),
          "X-StoryWeave-User-Id": String(owner.user.id),
          "X-StoryWeave-Access": "owner",
        },
      }),
    );
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const closed: { code?: number } = {};
    ws.addEventListener("close", (e) => {
      closed.code = e.code;
    });
    ws.accept();
    expect(await closedWith({ closed })).toBe(4401);
  });
});

describe("absolute session lifetime (30 days from sign-in)", () => {
  it("refuses a session older than 30 days even if it was used a minute ago; slides never past the end", async () => {
    const writer = await registerUser();
    await setSession(writer.token, { created_at: iso(-30 * DAY - 60_000), expires_at: iso(29 * DAY), last_seen_at: iso(-60_000) });
    expect((await call("GET", "/api/auth/me", { token: writer.token })).status).toBe(401);
    expect((await upgrade("/ws/1", writer.token)).status).toBe(401);

    const recent = await registerUser();
    await setSession(recent.token, { created_at: iso(-29 * DAY), expires_at: iso(DAY / 2), last_seen_at: iso(-2 * 60 * 60 * 1000) });
    expect((await call("GET", "/api/auth/me", { token: recent.token })).status).toBe(200);
    // Sliding moved the expiry, but only up to 30 days from sign-in.
    const row = await env.DB.prepare("SELECT created_at, expires_at FROM sessions WHERE id = ?")
      .bind(await sessionId(recent.token))
      .first<{ created_at: string; expires_at: string }>();
    expect(Date.parse(row!.expires_at)).toBeGreaterThan(Date.now() + DAY / 2);
    expect(Date.parse(row!.expires_at)).toBeLessThanOrEqual(Date.parse(row!.created_at) + 30 * DAY);
  });

  it("the cookie lives no longer than the session can", async () => {
    const email = `cookie-${Date.now()}@example.test`;
    const res = await call("POST", "/api/auth/register", { body: { name: "Cookie", email, password: "secret-pass-1" } });
    const maxAge = Number(/Max-Age=(\d+)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(30 * 24 * 60 * 60);
  });
});

describe("scheduled purge", () => {
  async function seed() {
    const u = await registerUser();
    const v = await registerUser();
    const ids = { live: await sessionId(u.token), expired: `exp-${crypto.randomUUID()}`, ancient: `old-${crypto.randomUUID()}` };
    await env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)").bind(ids.expired, u.user.id, iso(-1000)).run();
    await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
      .bind(ids.ancient, u.user.id, iso(-31 * DAY), iso(DAY))
      .run();
    await env.DB.prepare("UPDATE users SET reset_password_token = 'h1', reset_password_expires = ? WHERE id = ?")
      .bind(iso(-1000), u.user.id)
      .run();
    await env.DB.prepare("UPDATE users SET reset_password_token = 'h2', reset_password_expires = ? WHERE id = ?")
      .bind(iso(DAY / 24), v.user.id)
      .run();
    const tag = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO verification_tokens (user_id, token_hash, expires_at) VALUES (?, ?, ?), (?, ?, ?)")
      .bind(u.user.id, `gone-${tag}`, iso(-1000), u.user.id, `kept-${tag}`, iso(DAY))
      .run();
    await env.DB.prepare(
      "INSERT INTO login_attempts (key, failures, window_start, locked_until) VALUES (?, 3, ?, NULL), (?, 5, ?, ?), (?, 1, ?, NULL)",
    )
      .bind(`email:stale-${tag}`, iso(-2 * DAY), `email:locked-${tag}`, iso(-2 * DAY), iso(DAY), `email:fresh-${tag}`, iso(-60_000))
      .run();
    await env.DB.prepare("INSERT INTO rate_limits (key, count, window_start) VALUES (?, 3, ?), (?, 1, ?)")
      .bind(`register:stale-${tag}`, iso(-2 * DAY), `register:fresh-${tag}`, iso(-60_000))
      .run();
    return { u, v, ids, tag };
  }

  async function state(s: Awaited<ReturnType<typeof seed>>) {
    const sessions = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(s.u.user.id).all<{ id: string }>();
    const resets = await env.DB.prepare("SELECT id, reset_password_token AS t FROM users WHERE id IN (?, ?) ORDER BY id")
      .bind(s.u.user.id, s.v.user.id)
      .all<{ t: string | null }>();
    const tokens = await env.DB.prepare("SELECT token_hash AS h FROM verification_tokens WHERE token_hash LIKE ?").bind(`%-${s.tag}`).all();
    const attempts = await env.DB.prepare("SELECT key FROM login_attempts WHERE key LIKE ? ORDER BY key").bind(`%-${s.tag}`).all();
    const limits = await env.DB.prepare("SELECT key FROM rate_limits WHERE key LIKE ? ORDER BY key").bind(`%-${s.tag}`).all();
    return {
      sessions: sessions.results.map((r) => r.id).sort(),
      resets: resets.results.map((r) => r.t),
      tokens: tokens.results.map((r: any) => r.h),
      attempts: attempts.results.map((r: any) => r.key),
      limits: limits.results.map((r: any) => r.key),
    };
  }

  it("drops expired and too-old sessions, expired reset and verification tokens, stale login attempts; keeps the rest", async () => {
    const s = await seed();
    const purged = await purgeExpired(createDb(env.DB));
    expect(purged.sessions).toBeGreaterThanOrEqual(2);
    expect(await state(s)).toEqual({
      sessions: [s.ids.live],
      resets: [null, "h2"],
      tokens: [`kept-${s.tag}`],
      attempts: [`email:fresh-${s.tag}`, `email:locked-${s.tag}`],
      limits: [`register:fresh-${s.tag}`],
    });
    // Purging again finds nothing of these.
    await purgeExpired(createDb(env.DB));
    expect((await state(s)).sessions).toEqual([s.ids.live]);
  });

  it("the Worker's scheduled handler runs the purge (cron trigger)", async () => {
    const s = await seed();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "17 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const after = await state(s);
    expect(after.sessions).toEqual([s.ids.live]);
    expect(after.tokens).toEqual([`kept-${s.tag}`]);
  });
});
