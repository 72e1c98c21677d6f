import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { idempotencyMessages } from "../../worker/api/idempotency";
import { eventBatchMessages } from "../../worker/services/events-batch";
import { expectOneBatchMade } from "./batch-helpers";
import { call, createTimeline, premiumOwnerWithTimeline, registerUser, shareWith } from "./helpers";

// Issue 46: queued scene creates sent together (`POST /api/timelines/{id}/events/batch`), each made once, in the
// list's order, whatever was sent before (alone or in an earlier batch whose answer was lost).

const key = () => crypto.randomUUID();
const batchPath = (timelineId: number) => `/api/timelines/${timelineId}/events/batch`;
const scenes = async (timelineId: number) =>
  (
    await env.DB.prepare(
      "SELECT title, position, chapter_id AS chapterId FROM events WHERE timeline_id = ? AND deleted_at IS NULL ORDER BY position, id",
    )
      .bind(timelineId)
      .all<{ title: string; position: number; chapterId: number | null }>()
  ).results;
const titles = async (timelineId: number) => (await scenes(timelineId)).map((s) => s.title);
const keyCount = async (userId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n ?? 0;
const send = (token: string, timelineId: number, events: unknown) => call("POST", batchPath(timelineId), { token, body: { events } });
const scene = (title: string, extra: Record<string, unknown> = {}) => ({ title, content: `${title} text`, ...extra, key: key() });

describe("POST /api/timelines/{id}/events/batch", () => {
  it("makes the scenes last, in the list's order; sent again with one more, the first answered and only the new one made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: { title: "Opening", content: "Opening text" },
    });
    const items = ["One", "Two", "Three"].map((title) => scene(title));
    const first = await send(writer.token, timeline.id, items);
    expect(first.status).toBe(201);
    expect(first.json.events.map((e: { title: string; position: number }) => [e.title, e.position])).toEqual([
      ["One", 1],
      ["Two", 2],
      ["Three", 3],
    ]);
    expect(first.json.events[0]).toMatchObject({ timelineId: timeline.id, content: "One text", version: 1, chapterId: null, wordCount: 2 });
    // The answer is the scene as the list has it.
    const list = await call("GET", `/api/timelines/${timeline.id}/events`, { token: writer.token });
    expect(list.json.find((e: { id: number }) => e.id === first.json.events[1].id)).toMatchObject(first.json.events[1]);

    const again = await send(writer.token, timeline.id, [...items, scene("Four")]);
    expect(again.status).toBe(201);
    expect(again.json.events.slice(0, 3)).toEqual(first.json.events);
    expect(again.json.events[3]).toMatchObject({ title: "Four", position: 4 });
    expect(await titles(timeline.id)).toEqual(["Opening", "One", "Two", "Three", "Four"]);
  });

  it("a scene with a chapter lands at the end of its chapter's scenes, as a single create would", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const ch1 = (await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title: "Ch 1" } })).json;
    await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title: "Ch 2" } });
    const single = (title: string, chapterId: number) =>
      call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body: { title, content: `${title} text`, chapterId } });
    const ch2 = (await call("GET", `/api/timelines/${timeline.id}/chapters`, { token: writer.token })).json[1];
    await single("In two", ch2.id);
    await single("In one", ch1.id);
    const items = [scene("Batched one", { chapterId: ch1.id }), scene("Loose")];
    const batch = await send(writer.token, timeline.id, items);
    expect(batch.status).toBe(201);
    expect(batch.json.events[0]).toMatchObject({ title: "Batched one", chapterId: ch1.id, position: 1 });
    expect(await titles(timeline.id)).toEqual(["In one", "Batched one", "In two", "Loose"]);
    // Its key answers with where it now is.
    const repeat = await send(writer.token, timeline.id, items);
    expect(repeat.json.events).toEqual(batch.json.events);
    expect(await titles(timeline.id)).toEqual(["In one", "Batched one", "In two", "Loose"]);
  });

  it("a create sent alone with its key and then in a batch (or the other way) is made once", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const alone = scene("Alone first", { attachments: [], timelineId: timeline.id });
    const { key: aloneKey, ...aloneBody } = alone;
    const single = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: aloneBody,
      headers: { "Idempotency-Key": aloneKey },
    });
    expect(single.status).toBe(201);
    const batched = scene("Batched first");
    const batch = await send(writer.token, timeline.id, [alone, batched]);
    expect(batch.status).toBe(201);
    expect(batch.json.events[0]).toEqual(single.json);
    const { key: batchedKey, ...batchedBody } = batched;
    const repeat = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: batchedBody,
      headers: { "Idempotency-Key": batchedKey },
    });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(repeat.json).toEqual(batch.json.events[1]);
    expect(await titles(timeline.id)).toEqual(["Alone first", "Batched first"]);
  });

  it("the same batch sent twice at once is made once", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const items = Array.from({ length: 10 }, (_, i) => scene(`Twin ${i + 1}`));
    const [a, b] = await Promise.all([send(writer.token, timeline.id, items), send(writer.token, timeline.id, items)]);
    expectOneBatchMade(a, b);
    expect(await titles(timeline.id)).toEqual(items.map((i) => i.title));
  });

  it("a key used for another scene is refused (409) and nothing of the batch is made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const harbour = scene("Harbour");
    await send(writer.token, timeline.id, [harbour]);
    const reused = await send(writer.token, timeline.id, [scene("New one"), { ...scene("Not the harbour"), key: harbour.key }]);
    expect(reused.status).toBe(409);
    expect(reused.json.error).toBe(idempotencyMessages.reused);
    expect(await titles(timeline.id)).toEqual(["Harbour"]);
    expect(await keyCount(writer.user.id)).toBe(1);
  });

  it("another account, a viewer, a forged or trashed timeline: refused, nothing made; another account's same keys are its own", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Guarded");
    const stranger = await registerUser({ name: "Stranger" });
    const viewer = await registerUser({ name: "Viewer" });
    const collab = await registerUser({ name: "Collab" });
    await shareWith(timelineId, owner.user.id, viewer.user.id, "viewer");
    await shareWith(timelineId, owner.user.id, collab.user.id, "collaborator");
    const items = [scene("Intruder")];
    const before = await titles(timelineId);
    const strangers = await send(stranger.token, timelineId, items);
    expect(strangers.status).toBe(404);
    expect(strangers.json.error).toBe("Timeline not found");
    const viewers = await send(viewer.token, timelineId, items);
    expect(viewers.status).toBe(403);
    expect(viewers.json.error).toBe("You have view-only access to this timeline");
    expect((await send(owner.token, 999_999_999, items)).status).toBe(404);
    expect((await call("POST", "/api/timelines/abc/events/batch", { token: owner.token, body: { events: items } })).status).toBe(404);
    expect((await call("POST", batchPath(timelineId), { body: { events: items } })).status).toBe(401);
    expect(await titles(timelineId)).toEqual(before);

    // Another timeline's chapter is refused with the single create's message.
    const other = await createTimeline(stranger.token);
    const foreign = (await call("POST", `/api/timelines/${other.id}/chapters`, { token: stranger.token, body: { title: "Theirs" } })).json;
    const foreignChapter = await send(owner.token, timelineId, [scene("Sneaky", { chapterId: foreign.id })]);
    expect(foreignChapter.status).toBe(400);
    expect(foreignChapter.json.error).toBe("Chapter must belong to this timeline");

    const made = await send(collab.token, timelineId, items);
    expect(made.status).toBe(201);
    const owners = await send(owner.token, timelineId, items);
    expect(owners.status).toBe(201);
    expect(owners.json.events[0].id).not.toBe(made.json.events[0].id);
    expect(await titles(timelineId)).toEqual([...before, "Intruder", "Intruder"]);

    const trashed = await createTimeline(owner.token);
    await call("DELETE", `/api/timelines/${trashed.id}`, { token: owner.token });
    expect((await send(owner.token, trashed.id, [scene("Late")])).status).toBe(404);
  });

  it("malformed, empty, oversized or too long a list: the single create's messages (or the list's), and nothing made", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const bad = async (body: unknown, message: string) => {
      const res = await call("POST", batchPath(timeline.id), { token: writer.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.error).toBe(message);
    };
    // What the single create says about the same fields.
    const singleSays = async (body: unknown) => {
      const res = await call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body });
      expect(res.status).toBe(400);
      return res.json.error as string;
    };
    await bad({}, eventBatchMessages.list);
    await bad({ events: "One" }, eventBatchMessages.list);
    await bad({ events: [] }, eventBatchMessages.list);
    await bad({ events: Array.from({ length: 101 }, (_, i) => scene(`S${i}`)) }, eventBatchMessages.list);
    await bad({ events: [{ title: "No key", content: "" }] }, eventBatchMessages.key);
    await bad({ events: [{ title: "Short key", content: "", key: "abc" }] }, eventBatchMessages.key);
    await bad({ events: [{ title: "Spaced key", content: "", key: "has a space 123" }] }, eventBatchMessages.key);
    const k = key();
    await bad(
      {
        events: [
          { ...scene("Twice"), key: k },
          { ...scene("Twice again"), key: k },
        ],
      },
      eventBatchMessages.duplicateKey,
    );
    for (const fields of [
      { title: "  ", content: "" },
      { title: "x".repeat(201), content: "" },
      { title: "No content" },
      { title: "Bad status", content: "", status: "Finished" },
      { title: "Bad range", content: "", storyStart: "2020", storyEnd: "2019" },
      { title: "Bad plotlines", content: "", plotlineIds: "one" },
    ]) {
      const message = await singleSays(fields);
      await bad({ events: [scene("Fine"), { ...fields, key: key() }] }, message);
    }
    await bad("events", eventBatchMessages.list);
    const notJson = await call("POST", batchPath(timeline.id), { token: writer.token, rawBody: "{not json" });
    expect(notJson.status).toBe(400);
    const huge = await call("POST", batchPath(timeline.id), {
      token: writer.token,
      rawBody: JSON.stringify({ events: [{ title: "Huge", content: "x".repeat(1_100_000), key: key() }] }),
    });
    expect(huge.status).toBe(413);
    expect(await titles(timeline.id)).toEqual([]);
    expect(await keyCount(writer.user.id)).toBe(0);
  });
});
