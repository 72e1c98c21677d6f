import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith, lastRequestWith, lighthouseStory } from "./helpers";

// Codex progressions (DESIGN.md §12): what changes about an entry from a scene on, and the story bible per scene.

/** A story of three chapters (3, 9 and 12), one scene each, and Mara in the codex; the owner writes with their own model. */
async function story() {
  const { owner, timeline, scenes } = await lighthouseStory();
  const mara = await call("POST", `/api/timelines/${timeline.id}/entities`, {
    token: owner.token,
    body: { kind: "character", name: "Mara", description: "A lighthouse keeper with grey eyes." },
  });
  expect(mara.status).toBe(201);
  return { owner, timeline, scenes, mara: mara.json };
}

describe("progressions", () => {
  it("are added, listed, changed and deleted by writers with edit access", async () => {
    const { owner, scenes, mara } = await story();
    const added = await call("POST", `/api/entities/${mara.id}/progressions`, {
      token: owner.token,
      body: { eventId: scenes["9"].id, text: "Lost her left eye in the storm." },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ entityId: mara.id, eventId: scenes["9"].id, text: "Lost her left eye in the storm." });
    expect((await call("GET", `/api/entities/${mara.id}/progressions`, { token: owner.token })).json).toEqual([added.json]);
    const moved = await call("PATCH", `/api/progressions/${added.json.id}`, { token: owner.token, body: { eventId: scenes["12"].id } });
    expect(moved.json).toMatchObject({ eventId: scenes["12"].id, text: "Lost her left eye in the storm." });
    expect((await call("DELETE", `/api/progressions/${added.json.id}`, { token: owner.token })).json).toEqual({ success: true });
    expect((await call("GET", `/api/entities/${mara.id}/progressions`, { token: owner.token })).json).toEqual([]);
  });

  it("viewers read but may not write; strangers, forged ids and other timelines' scenes are refused", async () => {
    const { owner, timeline, scenes, mara } = await story();
    const added = await call("POST", `/api/entities/${mara.id}/progressions`, {
      token: owner.token,
      body: { eventId: scenes["9"].id, text: "Lost an eye." },
    });
    const viewer = await registerUser();
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    expect((await call("GET", `/api/entities/${mara.id}/progressions`, { token: viewer.token })).json).toHaveLength(1);
    const denied = await call("POST", `/api/entities/${mara.id}/progressions`, {
      token: viewer.token,
      body: { eventId: scenes["9"].id, text: "x" },
    });
    expect(denied.status).toBe(403);
    expect((await call("PATCH", `/api/progressions/${added.json.id}`, { token: viewer.token, body: { text: "x" } })).status).toBe(403);
    expect((await call("DELETE", `/api/progressions/${added.json.id}`, { token: viewer.token })).status).toBe(403);

    const stranger = await registerUser();
    expect((await call("GET", `/api/entities/${mara.id}/progressions`, { token: stranger.token })).status).toBe(404);
    expect(
      (await call("POST", `/api/entities/${mara.id}/progressions`, { token: stranger.token, body: { eventId: scenes["9"].id, text: "x" } }))
        .status,
    ).toBe(404);
    expect(await call("PATCH", `/api/progressions/${added.json.id}`, { token: stranger.token, body: { text: "x" } })).toMatchObject({
      status: 404,
      json: { error: "Progression not found" },
    });
    expect((await call("DELETE", `/api/progressions/${added.json.id}`, { token: stranger.token })).status).toBe(404);
    expect((await call("GET", "/api/entities/99999999/progressions", { token: owner.token })).status).toBe(404);
    expect((await call("PATCH", "/api/progressions/99999999", { token: owner.token, body: { text: "x" } })).status).toBe(404);
    expect((await call("GET", "/api/entities/abc/progressions", { token: owner.token })).status).toBe(404);

    // A scene of another timeline, even the writer's own, or one that does not exist: a clear 400.
    const other = await createTimeline(owner.token, { title: "Elsewhere" });
    const elsewhere = await createEvent(owner.token, other.id, { title: "Far away" });
    for (const eventId of [elsewhere.id, 99999999]) {
      const res = await call("POST", `/api/entities/${mara.id}/progressions`, { token: owner.token, body: { eventId, text: "x" } });
      expect(res).toMatchObject({ status: 400, json: { error: "That scene is not in this entry's timeline" } });
    }
    const patched = await call("PATCH", `/api/progressions/${added.json.id}`, { token: owner.token, body: { eventId: elsewhere.id } });
    expect(patched.status).toBe(400);
    expect(
      await call("POST", `/api/entities/${mara.id}/progressions`, { token: owner.token, body: { eventId: scenes["9"].id, text: "  " } }),
    ).toMatchObject({
      status: 400,
      json: { error: "Please say what changes" },
    });
    expect((await call("POST", `/api/entities/${mara.id}/progressions`, { token: owner.token, body: { text: "x" } })).status).toBe(400);
    expect((await call("GET", `/api/entities/${mara.id}/progressions`, { token: owner.token })).json).toHaveLength(1);
  });
});

describe("the story bible per scene", () => {
  it("tells the AI writing chapter 12 that Mara lost an eye in chapter 9, and the one writing chapter 3 nothing of it", async () => {
    const { owner, scenes, mara } = await story();
    await call("POST", `/api/entities/${mara.id}/progressions`, {
      token: owner.token,
      body: { eventId: scenes["9"].id, text: "Lost her left eye in the storm." },
    });
    const promptFor = async (n: string) => {
      const marker = `[[bible-${n}-${mara.id}]]`;
      const res = await call("POST", `/api/events/${scenes[n].id}/continue`, { token: owner.token, body: { instruction: marker } });
      expect(res.status, res.text).toBe(200);
      return (await lastRequestWith(marker)).user as string;
    };
    const twelve = await promptFor("12");
    expect(twelve).toContain(
      '- Mara (character): A lighthouse keeper with grey eyes. (from "Scene of chapter 9" on: Lost her left eye in the storm.)',
    );
    const nine = await promptFor("9");
    expect(nine).toContain("Lost her left eye");
    const three = await promptFor("3");
    expect(three).toContain("- Mara (character): A lighthouse keeper with grey eyes.");
    expect(three).not.toContain("Lost her left eye");
  });
});
