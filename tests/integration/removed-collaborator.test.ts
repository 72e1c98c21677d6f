import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith } from "./helpers";

// A collaborator the owner removed is a stranger again on the planning tools; a grid move only across
// plotlines is no 'moved' in the activity.

async function planned() {
  const owner = await registerUser({ name: "Olive Owner" });
  await makePremium(owner.user.id);
  const timeline = await createTimeline(owner.token, { title: "Planned" });
  const timelineId = timeline.id as number;
  const collab = await registerUser({ name: "Cara Collab" });
  await shareWith(timelineId, owner.user.id, collab.user.id, "collaborator");
  const add = async (kind: "chapters" | "plotlines", title: string) => {
    const res = await call("POST", `/api/timelines/${timelineId}/${kind}`, { token: owner.token, body: { title } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as number;
  };
  const chapter = await add("chapters", "Chapter 1");
  const main = await add("plotlines", "Main plot");
  const romance = await add("plotlines", "Romance");
  const scene = await createEvent(owner.token, timelineId, { title: "Storm", chapterId: chapter, plotlineIds: [main] });
  return { owner, collab, timelineId, chapter, main, romance, scene };
}

const moves = async (timelineId: number) =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM scene_activity WHERE timeline_id = ? AND kind = 'moved'")
      .bind(timelineId)
      .first<{ n: number }>()
  )?.n;

describe("a removed collaborator", () => {
  it("gets 404 on plotlines, templates and grid moves, as before the share; nothing changes", async () => {
    const { owner, collab, timelineId, chapter, main, romance, scene } = await planned();
    // While shared, all of it works.
    expect((await call("GET", `/api/timelines/${timelineId}/plotlines`, { token: collab.token })).status).toBe(200);
    expect((await call("POST", "/api/templates", { token: collab.token, body: { timelineId, name: "Mine" } })).status).toBe(201);

    const removed = await call("DELETE", `/api/timelines/${timelineId}/shares/${collab.user.id}`, { token: owner.token });
    expect(removed.status, removed.text).toBe(200);
    const token = collab.token;
    expect((await call("GET", `/api/timelines/${timelineId}/plotlines`, { token })).status).toBe(404);
    expect((await call("POST", `/api/timelines/${timelineId}/plotlines`, { token, body: { title: "Heist" } })).status).toBe(404);
    expect((await call("PATCH", `/api/plotlines/${main}`, { token, body: { title: "Renamed" } })).status).toBe(404);
    expect((await call("DELETE", `/api/plotlines/${romance}`, { token })).status).toBe(404);
    expect((await call("POST", "/api/templates", { token, body: { timelineId, name: "Again" } })).status).toBe(404);
    const move = await call("PATCH", `/api/events/${scene.id}`, { token, body: { chapterId: chapter, plotlineIds: [romance] } });
    expect(move.status).toBe(404);

    const list = (await call("GET", `/api/timelines/${timelineId}/plotlines`, { token: owner.token })).json;
    expect(list.map((p: { title: string }) => p.title)).toEqual(["Main plot", "Romance"]);
    const events = (await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token })).json;
    const stored = (Array.isArray(events) ? events : events.events).find((e: { id: number }) => e.id === scene.id);
    expect(stored.plotlineIds).toEqual([main]);
  });
});

describe("grid moves and the activity", () => {
  it("a move to another plotline of the same chapter records no 'moved'; a move to another chapter does", async () => {
    const { owner, timelineId, chapter, main, romance, scene } = await planned();
    const before = await moves(timelineId);
    const across = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { chapterId: chapter, plotlineIds: [romance] },
    });
    expect(across.status, across.text).toBe(200);
    expect(across.json.plotlineIds).toEqual([romance]);
    expect(await moves(timelineId)).toBe(before);

    const other = await call("POST", `/api/timelines/${timelineId}/chapters`, { token: owner.token, body: { title: "Chapter 2" } });
    const moved = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { chapterId: other.json.id, plotlineIds: [main] },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await moves(timelineId)).toBe((before ?? 0) + 1);
  });
});
