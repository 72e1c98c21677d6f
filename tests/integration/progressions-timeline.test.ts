import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

// `GET /api/timelines/{id}/progressions` (DESIGN.md §12): every progression of a timeline's codex, from which the
// lanes and the Map read each entry as of a scene.

async function story() {
  const owner = await registerUser();
  const timeline = await createTimeline(owner.token, { title: "The Salt Road" });
  const gate = await createEvent(owner.token, timeline.id, { title: "The Gate" });
  const duel = await createEvent(owner.token, timeline.id, { title: "The Duel" });
  const entity = async (name: string, kind = "character") => {
    const res = await call("POST", `/api/timelines/${timeline.id}/entities`, { token: owner.token, body: { kind, name } });
    expect(res.status, res.text).toBe(201);
    return res.json;
  };
  const mara = await entity("Mara");
  const keep = await entity("The Keep", "place");
  const progress = async (entityId: number, eventId: number, text: string) => {
    const res = await call("POST", `/api/entities/${entityId}/progressions`, { token: owner.token, body: { eventId, text } });
    expect(res.status, res.text).toBe(201);
    return res.json;
  };
  return { owner, timeline, gate, duel, mara, keep, progress };
}

describe("a timeline's progressions", () => {
  it("lists every entry's progressions at this timeline's live scenes, oldest first", async () => {
    const { owner, timeline, gate, duel, mara, keep, progress } = await story();
    const eye = await progress(mara.id, duel.id, "Loses an eye");
    const oath = await progress(mara.id, gate.id, "Swears an oath");
    const burnt = await progress(keep.id, duel.id, "Burnt to the ground");
    const path = `/api/timelines/${timeline.id}/progressions`;
    const listed = await call("GET", path, { token: owner.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json).toEqual([eye, oath, burnt]);

    // Another timeline's progressions are not in it.
    const other = await story();
    await other.progress(other.mara.id, other.gate.id, "Elsewhere");
    expect((await call("GET", path, { token: owner.token })).json).toHaveLength(3);

    // A scene moved to the trash takes its progressions out of the list (no scene to read them at).
    expect((await call("DELETE", `/api/events/${duel.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("GET", path, { token: owner.token })).json).toEqual([oath]);
  });

  it("viewers read it; strangers, forged ids and no session are refused", async () => {
    const { owner, timeline, gate, mara, progress } = await story();
    await progress(mara.id, gate.id, "Swears an oath");
    const path = `/api/timelines/${timeline.id}/progressions`;
    const viewer = await registerUser();
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    const read = await call("GET", path, { token: viewer.token });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject([{ entityId: mara.id, eventId: gate.id, text: "Swears an oath" }]);

    const stranger = await registerUser();
    expect(await call("GET", path, { token: stranger.token })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    expect((await call("GET", "/api/timelines/abc/progressions", { token: owner.token })).status).toBe(404);
    expect((await call("GET", "/api/timelines/99999999/progressions", { token: owner.token })).status).toBe(404);
    expect((await call("GET", "/api/timelines/1e99/progressions", { token: owner.token })).status).toBe(404);
    expect((await call("GET", path)).status).toBe(401);
    // Writing there is not a route.
    expect((await call("POST", path, { token: owner.token, body: { eventId: gate.id, text: "x" } })).status).toBe(404);
  });
});
