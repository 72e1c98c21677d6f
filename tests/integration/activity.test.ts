import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

async function team() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "While I was away" });
  const collab = await registerUser({ name: "Mara" });
  const viewer = await registerUser({ name: "Bea Reader" });
  const stranger = await registerUser({ name: "Stranger" });
  await shareWith(timeline.id, owner.user.id, collab.user.id, "collaborator");
  await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
  return { owner, timeline, collab, viewer, stranger };
}

const activity = (timelineId: number, token: string, query = "") => call("GET", `/api/timelines/${timelineId}/activity${query}`, { token });
const brief = (items: { type: string; userName: string; eventTitle: string }[]) =>
  items.map((i) => `${i.type} ${i.userName} ${i.eventTitle}`);

describe("a timeline's activity", () => {
  it("lists adds, edits, moves, deletes, restores and comments, newest first, with who and when", async () => {
    const { owner, timeline, collab, viewer } = await team();
    const started = new Date().toISOString();
    const harbour = await createEvent(owner.token, timeline.id, { title: "Harbour", content: "Boats." });
    const storm = await createEvent(collab.token, timeline.id, { title: "Storm", content: "Rain." });
    const edit = await call("PATCH", `/api/events/${harbour.id}`, { token: collab.token, body: { content: "Boats in the rain." } });
    expect(edit.status, edit.text).toBe(200);
    const move = await call("PATCH", `/api/events/${storm.id}`, { token: owner.token, body: { position: 0 } });
    expect(move.status, move.text).toBe(200);
    // A story-field change that is not a move or a text edit leaves no entry.
    await call("PATCH", `/api/events/${storm.id}`, { token: owner.token, body: { storyLabel: "Night" } });
    expect((await call("DELETE", `/api/events/${harbour.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("POST", `/api/trash/event/${harbour.id}/restore`, { token: collab.token })).status).toBe(200);
    const comment = await call("POST", `/api/events/${storm.id}/comments`, { token: viewer.token, body: { body: "Love this" } });
    expect(comment.status).toBe(201);

    const res = await activity(timeline.id, viewer.token);
    expect(res.status, res.text).toBe(200);
    expect(brief(res.json)).toEqual([
      "comment Bea Reader Storm",
      "scene-restored Mara Harbour",
      "scene-deleted Olive Owner Harbour",
      "scene-moved Olive Owner Storm",
      "scene-edited Mara Harbour",
      "scene-added Mara Storm",
      "scene-added Olive Owner Harbour",
    ]);
    const [newest] = res.json;
    expect(newest).toEqual({
      type: "comment",
      userId: viewer.user.id,
      userName: "Bea Reader",
      eventId: storm.id,
      eventTitle: "Storm",
      at: expect.any(String),
      cursor: expect.any(String),
    });
    for (const item of res.json) expect(item.at >= started && item.at <= new Date().toISOString()).toBe(true);
    expect(res.json.find((i: { type: string }) => i.type === "scene-moved").userId).toBe(owner.user.id);
  });

  it("filters by writer and pages with before, without gaps or repeats, even for entries made in the same instant", async () => {
    const { owner, timeline, collab } = await team();
    const scenes = [];
    for (let i = 0; i < 5; i++) scenes.push(await createEvent(i % 2 ? collab.token : owner.token, timeline.id, { title: `Scene ${i}` }));
    // Three entries at exactly the same time.
    await env.DB.prepare(
      "UPDATE event_versions SET created_at = '2030-01-01T00:00:00.000Z' WHERE timeline_id = ? AND event_id IN (?, ?, ?)",
    )
      .bind(timeline.id, scenes[0].id, scenes[1].id, scenes[2].id)
      .run();

    const mine = await activity(timeline.id, owner.token, `?userId=${collab.user.id}`);
    expect(brief(mine.json).sort()).toEqual(["scene-added Mara Scene 1", "scene-added Mara Scene 3"]);

    const all = (await activity(timeline.id, owner.token)).json;
    expect(all).toHaveLength(5);
    const paged: string[] = [];
    let before = "";
    for (let page = 0; page < 5; page++) {
      const res = await activity(timeline.id, owner.token, `?limit=2${before ? `&before=${encodeURIComponent(before)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      paged.push(...brief(res.json));
      if (res.json.length < 2) break;
      before = res.json.at(-1).cursor;
    }
    expect(paged).toEqual(brief(all));

    for (const [query, message] of [
      ["?limit=0", "Limit must be a whole number from 1 to 100"],
      ["?limit=101", "Limit must be a whole number from 1 to 100"],
      ["?userId=mara", "Writer must be a user id"],
      ["?before=yesterday", "Before must be a cursor from this list"],
    ]) {
      const bad = await activity(timeline.id, owner.token, query);
      expect(bad.status, query).toBe(400);
      expect(bad.json.error).toBe(message);
    }
  });

  it("readers see it; strangers and the signed-out do not", async () => {
    const { owner, timeline, collab, viewer, stranger } = await team();
    await createEvent(owner.token, timeline.id, { title: "Opening" });
    for (const reader of [owner, collab, viewer]) expect((await activity(timeline.id, reader.token)).status).toBe(200);
    const refused = await activity(timeline.id, stranger.token);
    expect(refused.status).toBe(404);
    expect(refused.json.error).toBe("Timeline not found");
    expect((await call("GET", `/api/timelines/${timeline.id}/activity`)).status).toBe(401);
  });
});
