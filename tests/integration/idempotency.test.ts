import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { idempotencyMessages, LEASE_MS } from "../../worker/api/idempotency";
import { createDb } from "../../db/client";
import { purgeExpired } from "../../worker/services/purge";
import { call, createTimeline, registerUser } from "./helpers";

// Issue 46: a queued create replayed by the outbox (its first answer lost as the network came back) carries the
// `Idempotency-Key` it was queued with; the server answers the same account's repeat with the first result.

const key = () => crypto.randomUUID();
const count = async (table: "events" | "chapters" | "plotlines", timelineId: number) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE timeline_id = ?`).bind(timelineId).first<{ n: number }>())?.n;

describe("Idempotency-Key on creates", () => {
  it("a scene created twice with one key is made once; the repeat answers the same scene", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const body = { title: "The tunnel", content: "Dark for a minute." };
    const first = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(first.status).toBe(201);
    const again = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.json.title).toBe("The tunnel");
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await count("events", timeline.id)).toBe(1);
    // Another key is another scene.
    const other = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body,
      headers: { "Idempotency-Key": key() },
    });
    expect(other.json.id).not.toBe(first.json.id);
    expect(await count("events", timeline.id)).toBe(2);
  });

  it("a plotline created twice with one key is made once (a create sent again after the tab closed while it was sent)", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const send = () =>
      call("POST", `/api/timelines/${timeline.id}/plotlines`, {
        token: writer.token,
        body: { title: "Smugglers" },
        headers: { "Idempotency-Key": k },
      });
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await count("plotlines", timeline.id)).toBe(1);
  });

  it("a chapter created twice with one key is made once", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const first = await call("POST", `/api/timelines/${timeline.id}/chapters`, {
      token: writer.token,
      body: { title: "Harbour" },
      headers: { "Idempotency-Key": k },
    });
    expect(first.status).toBe(201);
    const again = await call("POST", `/api/timelines/${timeline.id}/chapters`, {
      token: writer.token,
      body: { title: "Harbour" },
      headers: { "Idempotency-Key": k },
    });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(await count("chapters", timeline.id)).toBe(1);
  });

  it("another account's same key neither returns the first account's scene nor stops its own create", async () => {
    const owner = await registerUser();
    const intruder = await registerUser();
    const secret = await createTimeline(owner.token, { title: "Secret" });
    const theirs = await createTimeline(intruder.token, { title: "Mine" });
    const k = key();
    const made = await call("POST", `/api/timelines/${secret.id}/events`, {
      token: owner.token,
      body: { title: "Hidden letter", content: "Only the owner knows." },
      headers: { "Idempotency-Key": k },
    });
    expect(made.status).toBe(201);
    // The same key and the same request, from another account: no access, and nothing of the owner's answer.
    const probe = await call("POST", `/api/timelines/${secret.id}/events`, {
      token: intruder.token,
      body: { title: "Hidden letter", content: "Only the owner knows." },
      headers: { "Idempotency-Key": k },
    });
    expect(probe.status).toBe(404);
    expect(probe.text).not.toContain("Only the owner knows");
    // Their own create with that key is theirs, made anew.
    const own = await call("POST", `/api/timelines/${theirs.id}/events`, {
      token: intruder.token,
      body: { title: "Hidden letter", content: "Only the owner knows." },
      headers: { "Idempotency-Key": k },
    });
    expect(own.status).toBe(201);
    expect(own.json.id).not.toBe(made.json.id);
    expect(own.json.timelineId).toBe(theirs.id);
    expect(await count("events", secret.id)).toBe(1);
  });

  it("a malformed or huge key is refused with a clear 400 and nothing is made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    for (const bad of ["short", "has spaces in it", "x".repeat(101), "y".repeat(8000), "ключ-ключ-ключ"]) {
      const res = await call("POST", `/api/timelines/${timeline.id}/events`, {
        token: writer.token,
        body: { title: "A", content: "B" },
        headers: { "Idempotency-Key": bad },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe(idempotencyMessages.invalid);
    }
    expect(await count("events", timeline.id)).toBe(0);
  });

  it("one key for a different request is refused; a refused create leaves the key free", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const headers = { "Idempotency-Key": k };
    // Refused (no title): nothing made, no key kept.
    const refused = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: { title: "", content: "x" },
      headers,
    });
    expect(refused.status).toBe(400);
    const made = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: { title: "One", content: "x" },
      headers,
    });
    expect(made.status).toBe(201);
    const different = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: { title: "Two", content: "x" },
      headers,
    });
    expect(different.status).toBe(409);
    expect(different.json.error).toBe(idempotencyMessages.reused);
    const elsewhere = await call("POST", `/api/timelines/${timeline.id}/chapters`, {
      token: writer.token,
      body: { title: "One" },
      headers,
    });
    expect(elsewhere.status).toBe(409);
    expect(await count("events", timeline.id)).toBe(1);
    expect(await count("chapters", timeline.id)).toBe(0);
  });

  it("a key older than a day is forgotten", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const headers = { "Idempotency-Key": k };
    const body = { title: "Old", content: "x" };
    const first = await call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body, headers });
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE key = ?")
      .bind(new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString(), k)
      .run();
    const later = await call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body, headers });
    expect(later.status).toBe(201);
    expect(later.json.id).not.toBe(first.json.id);
  });
  // A server stopped under a create (between keeping the key and making the chapter) leaves a key with no answer.
  const reserve = async (userId: number, k: string, path: string, body: unknown, ageMs: number) => {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(body)));
    const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    await env.DB.prepare("INSERT INTO idempotency_keys (user_id, key, request, created_at) VALUES (?, ?, ?, ?)")
      .bind(userId, k, `POST ${path} ${hash}`, new Date(Date.now() - ageMs).toISOString())
      .run();
  };

  it("a repeat of a create whose first request died without an answer makes it once, not 'still being made' for ever", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const path = `/api/timelines/${timeline.id}/chapters`;
    const body = { title: "After the restart" };
    await reserve(writer.user.id, k, path, body, LEASE_MS + 1_000);
    const repeat = await call("POST", path, { token: writer.token, body, headers: { "Idempotency-Key": k } });
    expect(repeat.status).toBe(201);
    expect(repeat.json.title).toBe("After the restart");
    const again = await call("POST", path, { token: writer.token, body, headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(repeat.json.id);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await count("chapters", timeline.id)).toBe(1);
  });

  it("a repeat while the first request is still being made is told to try again in a moment (409, Retry-After)", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    const path = `/api/timelines/${timeline.id}/chapters`;
    const body = { title: "Still on its way" };
    await reserve(writer.user.id, k, path, body, 0);
    const repeat = await call("POST", path, { token: writer.token, body, headers: { "Idempotency-Key": k } });
    expect(repeat.status).toBe(409);
    expect(repeat.json.error).toBe(idempotencyMessages.inProgress);
    expect(Number(repeat.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await count("chapters", timeline.id)).toBe(0);
  }, 15_000);

  it("the hourly purge deletes keys older than a day and keeps the others", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const [old, fresh] = [key(), key()];
    for (const [k, title] of [
      [old, "Old chapter"],
      [fresh, "New chapter"],
    ])
      await call("POST", `/api/timelines/${timeline.id}/chapters`, {
        token: writer.token,
        body: { title },
        headers: { "Idempotency-Key": k },
      });
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE key = ?")
      .bind(new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString(), old)
      .run();
    const purged = await purgeExpired(createDb(env.DB));
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE user_id = ?").bind(writer.user.id).all<{ key: string }>();
    expect(left.results.map((r) => r.key)).toEqual([fresh]);
  });
});
