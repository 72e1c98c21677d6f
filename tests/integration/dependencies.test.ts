import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, sharedTimeline, importBook } from "./helpers";
import { connect, sleep } from "./room-helpers";

import type { EventView as Ev } from "../../worker/services/event-list";

const patchEvent = (token: string, id: number, body: unknown) => call("PATCH", `/api/events/${id}`, { token, body });
const listOf = async (token: string, timelineId: number, order = "position") =>
  (await call("GET", `/api/timelines/${timelineId}/events?order=${order}`, { token })).json as Ev[];

describe("dependencies between scenes", () => {
  it("answers each role, keeps the list in every event JSON, and refuses foreign, self and looping ids", async () => {
    const { owner, collab, viewer, stranger, timelineId } = await sharedTimeline("Lifelines");
    const letter = await createEvent(owner.token, timelineId, { title: "The letter arrives" });
    const reply = await createEvent(owner.token, timelineId, { title: "The reply", after: [letter.id] });
    expect(reply.after).toEqual([letter.id]);
    const third = await createEvent(collab.token, timelineId, { title: "Third" });

    expect((await patchEvent(viewer.token, third.id, { after: [letter.id] })).status).toBe(403);
    expect(await patchEvent(stranger.token, third.id, { after: [letter.id] })).toMatchObject({
      status: 404,
      json: { error: "Event not found" },
    });
    const ok = await patchEvent(collab.token, third.id, { after: [reply.id, letter.id, reply.id] });
    expect(ok).toMatchObject({ status: 200, json: { after: [letter.id, reply.id] } });

    const list = await listOf(viewer.token, timelineId);
    expect(list.map((e) => [e.title, e.after])).toEqual([
      ["The letter arrives", []],
      ["The reply", [letter.id]],
      ["Third", [letter.id, reply.id]],
    ]);

    // Another timeline's scene, an unknown id, forged values.
    const other = await createTimeline(owner.token, { title: "Elsewhere" });
    const foreign = await createEvent(owner.token, other.id, { title: "Far away" });
    const foreignMsg = { status: 400, json: { error: "Dependencies must be scenes of this timeline" } };
    expect(await patchEvent(owner.token, third.id, { after: [foreign.id] })).toMatchObject(foreignMsg);
    expect(await patchEvent(owner.token, third.id, { after: [99999999] })).toMatchObject(foreignMsg);
    expect(
      await call("POST", `/api/timelines/${timelineId}/events`, {
        token: owner.token,
        body: { title: "X", content: "x", after: [foreign.id] },
      }),
    ).toMatchObject(foreignMsg);
    for (const forged of [["1"], [-1], [1.5], "1", { id: 1 }, [null], [Number.MAX_SAFE_INTEGER + 2]]) {
      const res = await patchEvent(owner.token, third.id, { after: forged });
      expect(res.status, JSON.stringify(forged)).toBe(400);
    }
    expect(await patchEvent(owner.token, third.id, { after: Array.from({ length: 51 }, (_, i) => i + 1) })).toMatchObject({
      status: 400,
      json: { error: "A scene can depend on at most 50 scenes" },
    });
    expect(await patchEvent(owner.token, third.id, { after: [third.id] })).toMatchObject({
      status: 400,
      json: { error: "A scene cannot depend on itself" },
    });
    expect(await patchEvent(owner.token, letter.id, { after: [third.id] })).toMatchObject({
      status: 400,
      json: { error: "These dependencies would make a loop" },
    });
    // Nothing was lost by the refusals.
    expect((await listOf(owner.token, timelineId)).find((e) => e.id === third.id)?.after).toEqual([letter.id, reply.id]);
    expect((await patchEvent(owner.token, third.id, { after: [] })).json.after).toEqual([]);
  });

  it("leaves a scene in Trash out of the list, refuses it as a new dependency, and brings it back on restore", async () => {
    const { owner, timelineId } = await sharedTimeline("Lifelines");
    const first = await createEvent(owner.token, timelineId, { title: "First" });
    const second = await createEvent(owner.token, timelineId, { title: "Second", after: [first.id] });
    const before = await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token });
    expect((await call("DELETE", `/api/events/${first.id}`, { token: owner.token })).status).toBe(200);
    const after = await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token });
    expect(after.headers.get("ETag")).not.toBe(before.headers.get("ETag"));
    expect(after.json.map((e: Ev) => [e.title, e.after])).toEqual([["Second", []]]);
    expect(await patchEvent(owner.token, second.id, { after: [first.id] })).toMatchObject({ status: 400 });
    // Editing the list keeps the one on the trashed scene for its restore.
    expect((await patchEvent(owner.token, second.id, { after: [] })).status).toBe(200);
    const restored = await call("POST", `/api/trash/event/${first.id}/restore`, { token: owner.token });
    expect(restored.status, restored.text).toBe(200);
    const back = await listOf(owner.token, timelineId);
    expect(back.find((e) => e.id === second.id)?.after).toEqual([first.id]);
  });

  it("changes the list's ETag when only dependencies change, and tells the room", async () => {
    const { owner, collab, timelineId } = await sharedTimeline("Lifelines");
    const a = await createEvent(owner.token, timelineId, { title: "A" });
    const b = await createEvent(owner.token, timelineId, { title: "B" });
    const path = `/api/timelines/${timelineId}/events`;
    const etag = (await call("GET", path, { token: owner.token })).headers.get("ETag");
    const watcher = await connect(timelineId, collab.token);
    await sleep(50);
    watcher.clear();
    expect((await patchEvent(owner.token, b.id, { after: [a.id] })).status).toBe(200);
    await watcher.waitFor((m) => m.type === "sync", "sync");
    const fresh = await call("GET", path, { token: owner.token, headers: { "If-None-Match": etag ?? "" } });
    expect(fresh.status).toBe(200);
    expect(fresh.json.find((e: Ev) => e.id === b.id).after).toEqual([a.id]);
    watcher.ws.close();
  });

  it("never answers a hostile body with a 500", async () => {
    const { owner, timelineId } = await sharedTimeline("Lifelines");
    const scene = await createEvent(owner.token, timelineId, { title: "Scene" });
    const bodies = [{ after: null }, { after: {} }, { after: [[1]] }, { after: ["' OR 1=1 --"] }, { after: [1e308] }, { after: [0] }];
    for (const body of bodies) {
      const res = await patchEvent(owner.token, scene.id, { title: "Scene", ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const entity = await call("POST", `/api/timelines/${timelineId}/entities`, {
      token: owner.token,
      body: { kind: "character", name: "M" },
    });
    for (const body of [{ born: 2014 }, { born: ["2014"] }, { died: {} }, { born: "x".repeat(10_000) }, { born: "2014-13" }]) {
      const res = await call("PATCH", `/api/entities/${entity.json.id}`, { token: owner.token, body: { name: "Mara", ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("born and died on the codex", () => {
  it("accepts story dates, refuses bad ones in the product's words, and clears with null", async () => {
    const { owner, collab, viewer, timelineId } = await sharedTimeline("Lifelines");
    const path = `/api/timelines/${timelineId}/entities`;
    const made = await call("POST", path, { token: collab.token, body: { kind: "character", name: "Mara", born: "2014-05-10" } });
    expect(made).toMatchObject({ status: 201, json: { name: "Mara", born: "2014-05-10", died: null } });
    const id = made.json.id;
    expect((await call("PATCH", `/api/entities/${id}`, { token: viewer.token, body: { died: "2090" } })).status).toBe(403);
    expect(await call("PATCH", `/api/entities/${id}`, { token: owner.token, body: { born: "last spring" } })).toMatchObject({
      status: 400,
      // Read in the timeline's calendar, as story dates are: the refusal gives an example in it.
      json: { error: "Born must be a date like 13 October 2031, 9:00" },
    });
    expect(await call("PATCH", `/api/entities/${id}`, { token: owner.token, body: { died: "2014-13" } })).toMatchObject({
      status: 400,
      json: { error: "Died has a month outside 01-12" },
    });
    expect(await call("PATCH", `/api/entities/${id}`, { token: owner.token, body: { died: "2014-05-09" } })).toMatchObject({
      status: 400,
      json: { error: "Died must come after Born" },
    });
    expect(
      await call("POST", path, { token: owner.token, body: { kind: "character", name: "X", born: "2000", died: "1999" } }),
    ).toMatchObject({
      status: 400,
      json: { error: "Died must come after Born" },
    });
    expect(await call("PATCH", `/api/entities/${id}`, { token: owner.token, body: { died: "-2090" } })).toMatchObject({ status: 400 });
    expect(await call("PATCH", `/api/entities/${id}`, { token: owner.token, body: { died: "2090" } })).toMatchObject({
      status: 200,
      json: { born: "2014-05-10", died: "2090" },
    });
    expect(await call("PATCH", `/api/entities/${id}`, { token: owner.token, body: { born: null } })).toMatchObject({
      status: 200,
      json: { born: null, died: "2090" },
    });
    const list = await call("GET", path, { token: viewer.token });
    expect(list.json.find((e: { id: number }) => e.id === id)).toMatchObject({ born: null, died: "2090" });
  });
});

describe("export and import", () => {
  it("carries lifespans and dependencies through a JSON round trip, and an append maps the ids", async () => {
    const { owner, timelineId } = await sharedTimeline("Lifelines");
    await call("POST", `/api/timelines/${timelineId}/entities`, {
      token: owner.token,
      body: { kind: "character", name: "Mara", born: "2014-05-10", died: "2090" },
    });
    const letter = await createEvent(owner.token, timelineId, { title: "The letter arrives" });
    const reply = await createEvent(owner.token, timelineId, { title: "The reply", after: [letter.id] });
    await createEvent(owner.token, timelineId, { title: "Later", after: [reply.id, letter.id] });
    const exported = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.json.entities[0]).toMatchObject({ name: "Mara", born: "2014-05-10", died: "2090" });
    expect(exported.json.events.map((e: { after?: number[] }) => e.after ?? [])).toEqual([[], [0], [0, 1]]);

    const imported = await importBook(owner.token, exported.text, "application/json");
    expect(imported.status, imported.text).toBe(201);
    const copy = await listOf(owner.token, imported.json.id);
    const ids = copy.map((e) => e.id);
    expect(copy.map((e) => e.after)).toEqual([[], [ids[0]], [ids[0], ids[1]].sort((a, b) => a - b)]);
    const codex = await call("GET", `/api/timelines/${imported.json.id}/entities`, { token: owner.token });
    expect(codex.json[0]).toMatchObject({ name: "Mara", born: "2014-05-10", died: "2090" });

    // Appended to the original: the file's indexes point at the new scenes, not the old ones.
    const appended = await call("POST", `/api/timelines/${timelineId}/import`, {
      token: owner.token,
      rawBody: exported.text,
      headers: { "Content-Type": "application/json" },
    });
    expect(appended.status, appended.text).toBe(200);
    const all = await listOf(owner.token, timelineId);
    expect(all).toHaveLength(6);
    expect(all[4].after).toEqual([all[3].id]);
    expect(all[5].after).toEqual([all[3].id, all[4].id]);

    // A file whose dependencies loop, or point at itself, is refused with its line.
    const looping = JSON.parse(exported.text);
    looping.events[0].after = [2];
    const refused = await importBook(owner.token, JSON.stringify(looping), "application/json");
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.json.error).toMatch(/loop/);
    looping.events[0].after = [0];
    expect((await importBook(owner.token, JSON.stringify(looping), "application/json")).status).toBe(400);
  });
});
