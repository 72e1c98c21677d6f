import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { idempotencyMessages, LEASE_MS } from "../../worker/api/idempotency";
import { chapterBatchMessages } from "../../worker/services/chapters-batch";
import { expectOneBatchMade } from "./batch-helpers";
import { call, createTimeline, premiumOwnerWithTimeline, registerUser, shareWith } from "./helpers";

// Issue 46: queued chapter creates sent together (`POST /api/timelines/{id}/chapters/batch`), each made once, in
// the list's order, whatever was sent before (alone or in an earlier batch whose answer was lost).

const key = () => crypto.randomUUID();
const batchPath = (timelineId: number) => `/api/timelines/${timelineId}/chapters/batch`;
const titles = async (timelineId: number) =>
  (
    await env.DB.prepare("SELECT title FROM chapters WHERE timeline_id = ? ORDER BY position, id").bind(timelineId).all<{ title: string }>()
  ).results.map((r) => r.title);
const send = (token: string, timelineId: number, chapters: unknown, extra: { env?: Partial<typeof env> } = {}) =>
  call("POST", batchPath(timelineId), { token, body: { chapters }, ...extra });

describe("POST /api/timelines/{id}/chapters/batch", () => {
  it("makes the chapters last, in the list's order; the same batch sent again answers the same and makes nothing", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title: "Prologue" } });
    const items = ["One", "Two", "Three"].map((title) => ({ title, key: key() }));
    const first = await send(writer.token, timeline.id, items);
    expect(first.status).toBe(201);
    expect(first.json.chapters.map((c: { title: string; position: number }) => [c.title, c.position])).toEqual([
      ["One", 1],
      ["Two", 2],
      ["Three", 3],
    ]);
    expect(first.json.chapters[0]).toMatchObject({ timelineId: timeline.id, targetWords: null, wordCount: 0 });
    expect(await titles(timeline.id)).toEqual(["Prologue", "One", "Two", "Three"]);

    // Its answer was lost: sent again, with one more queued meanwhile. The three are answered, the fourth made.
    const again = await send(writer.token, timeline.id, [...items, { title: "Four", key: key() }]);
    expect(again.status).toBe(201);
    expect(again.json.chapters.slice(0, 3)).toEqual(first.json.chapters);
    expect(again.json.chapters[3]).toMatchObject({ title: "Four", position: 4 });
    expect(await titles(timeline.id)).toEqual(["Prologue", "One", "Two", "Three", "Four"]);
  });

  it("a create sent alone with its key and then in a batch (or the other way) is made once", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const alone = key();
    const single = await call("POST", `/api/timelines/${timeline.id}/chapters`, {
      token: writer.token,
      body: { title: "Alone first" },
      headers: { "Idempotency-Key": alone },
    });
    expect(single.status).toBe(201);
    const batched = key();
    const batch = await send(writer.token, timeline.id, [
      { title: "Alone first", key: alone },
      { title: "Batched first", key: batched },
    ]);
    expect(batch.status).toBe(201);
    expect(batch.json.chapters[0]).toEqual(single.json);
    const repeat = await call("POST", `/api/timelines/${timeline.id}/chapters`, {
      token: writer.token,
      body: { title: "Batched first" },
      headers: { "Idempotency-Key": batched },
    });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(repeat.json).toEqual(batch.json.chapters[1]);
    expect(await titles(timeline.id)).toEqual(["Alone first", "Batched first"]);
  });

  it("the same batch sent twice at once is made once", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const items = Array.from({ length: 10 }, (_, i) => ({ title: `Twin ${i + 1}`, key: key() }));
    const [a, b] = await Promise.all([send(writer.token, timeline.id, items), send(writer.token, timeline.id, items)]);
    expectOneBatchMade(a, b);
    expect(await titles(timeline.id)).toEqual(items.map((i) => i.title));
  });

  it("a key used for another chapter is refused (409) and nothing of the batch is made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const k = key();
    await send(writer.token, timeline.id, [{ title: "Harbour", key: k }]);
    const reused = await send(writer.token, timeline.id, [
      { title: "New one", key: key() },
      { title: "Not the harbour", key: k },
    ]);
    expect(reused.status).toBe(409);
    expect(reused.json.error).toBe(idempotencyMessages.reused);
    expect(await titles(timeline.id)).toEqual(["Harbour"]);
  });

  it("a key a lone create still holds is 'still being made' (409, Retry-After); one it left dead is taken over", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const reserve = async (k: string, title: string, ageMs: number) => {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify({ title })));
      const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      await env.DB.prepare("INSERT INTO idempotency_keys (user_id, key, request, created_at) VALUES (?, ?, ?, ?)")
        .bind(writer.user.id, k, `POST /api/timelines/${timeline.id}/chapters ${hash}`, new Date(Date.now() - ageMs).toISOString())
        .run();
    };
    const busy = key();
    await reserve(busy, "On its way", 0);
    const waiting = await send(writer.token, timeline.id, [{ title: "On its way", key: busy }]);
    expect(waiting.status).toBe(409);
    expect(waiting.json.error).toBe(idempotencyMessages.inProgress);
    expect(Number(waiting.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await titles(timeline.id)).toEqual([]);

    const dead = key();
    await reserve(dead, "After the restart", LEASE_MS + 1_000);
    const taken = await send(writer.token, timeline.id, [{ title: "After the restart", key: dead }]);
    expect(taken.status).toBe(201);
    const again = await send(writer.token, timeline.id, [{ title: "After the restart", key: dead }]);
    expect(again.json.chapters).toEqual(taken.json.chapters);
    expect(await titles(timeline.id)).toEqual(["After the restart"]);
  });

  it("another account, a viewer, a forged or trashed timeline: refused, nothing made; another account's same keys are its own", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Guarded");
    const stranger = await registerUser({ name: "Stranger" });
    const viewer = await registerUser({ name: "Viewer" });
    const collab = await registerUser({ name: "Collab" });
    await shareWith(timelineId, owner.user.id, viewer.user.id, "viewer");
    await shareWith(timelineId, owner.user.id, collab.user.id, "collaborator");
    const items = [{ title: "Intruder", key: key() }];
    const strangers = await send(stranger.token, timelineId, items);
    expect(strangers.status).toBe(404);
    expect(strangers.json.error).toBe("Timeline not found");
    const viewers = await send(viewer.token, timelineId, items);
    expect(viewers.status).toBe(403);
    expect(viewers.json.error).toBe("You have view-only access to this timeline");
    expect((await send(owner.token, 999_999_999, items)).status).toBe(404);
    expect((await call("POST", "/api/timelines/abc/chapters/batch", { token: owner.token, body: { chapters: items } })).status).toBe(404);
    expect((await call("POST", batchPath(timelineId), { body: { chapters: items } })).status).toBe(401);
    expect(await titles(timelineId)).toEqual([]);

    // A collaborator may; the owner's same key afterwards is the owner's own chapter, not the collaborator's answer.
    const made = await send(collab.token, timelineId, items);
    expect(made.status).toBe(201);
    const owners = await send(owner.token, timelineId, items);
    expect(owners.status).toBe(201);
    expect(owners.json.chapters[0].id).not.toBe(made.json.chapters[0].id);
    expect(await titles(timelineId)).toEqual(["Intruder", "Intruder"]);

    const trashed = await createTimeline(owner.token);
    await call("DELETE", `/api/timelines/${trashed.id}`, { token: owner.token });
    expect((await send(owner.token, trashed.id, [{ title: "Late", key: key() }])).status).toBe(404);
  });

  it("malformed, empty, oversized or too long a list: a clear 400 (or 413) and nothing made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const bad = async (body: unknown, message: string) => {
      const res = await call("POST", batchPath(timeline.id), { token: writer.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.error).toBe(message);
    };
    await bad({}, chapterBatchMessages.list);
    await bad({ chapters: "One" }, chapterBatchMessages.list);
    await bad({ chapters: [] }, chapterBatchMessages.list);
    await bad({ chapters: Array.from({ length: 101 }, (_, i) => ({ title: `C${i}`, key: key() })) }, chapterBatchMessages.list);
    await bad({ chapters: [{ title: "No key" }] }, chapterBatchMessages.key);
    await bad({ chapters: [{ title: "Short key", key: "abc" }] }, chapterBatchMessages.key);
    await bad({ chapters: [{ title: "Spaced key", key: "has a space 123" }] }, chapterBatchMessages.key);
    const k = key();
    await bad(
      {
        chapters: [
          { title: "Twice", key: k },
          { title: "Twice again", key: k },
        ],
      },
      chapterBatchMessages.duplicateKey,
    );
    await bad({ chapters: [{ title: "  ", key: key() }] }, "Chapter title is required");
    await bad({ chapters: [{ title: "x".repeat(201), key: key() }] }, "Chapter title must be 200 characters or less");
    await bad(
      { chapters: [{ title: "Target", key: key(), targetWords: -5 }] },
      "Target must be a whole number of words between 1 and 10,000,000, or empty",
    );
    await bad("chapters", chapterBatchMessages.list);
    const notJson = await call("POST", batchPath(timeline.id), { token: writer.token, rawBody: "{not json" });
    expect(notJson.status).toBe(400);
    const huge = await call("POST", batchPath(timeline.id), {
      token: writer.token,
      rawBody: JSON.stringify({ chapters: [{ title: "x".repeat(1_100_000), key: key() }] }),
    });
    expect(huge.status).toBe(413);
    expect(await titles(timeline.id)).toEqual([]);
  });

  it("each item is one chapter change of the account's hourly budget: past it, 429 and nothing made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const limited = { env: { RATE_CHAPTER_WRITES_PER_ACCOUNT_PER_HOUR: "5" } as Partial<typeof env> };
    const four = Array.from({ length: 4 }, (_, i) => ({ title: `Within ${i + 1}`, key: key() }));
    expect((await send(writer.token, timeline.id, four, limited)).status).toBe(201);
    const two = [
      { title: "Past 1", key: key() },
      { title: "Past 2", key: key() },
    ];
    const refused = await send(writer.token, timeline.id, two, limited);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatch(/^Too many chapter changes\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await titles(timeline.id)).toEqual(four.map((c) => c.title));
  });
});
