import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { ServerMessageSchema } from "../../durable-objects/protocol";
import { buildStoryBible } from "../../worker/services/story-context";
import { call, createEvent, createTimeline, sharedTimeline, importBook } from "./helpers";
import { connect, sleep } from "./room-helpers";

import type { EventView as Ev } from "../../worker/services/event-list";
import type { PlotlineView as Plotline } from "../../worker/services/plotlines";

const addPlotline = async (token: string, timelineId: number, body: Record<string, unknown>) => {
  const res = await call("POST", `/api/timelines/${timelineId}/plotlines`, { token, body });
  expect(res.status, res.text).toBe(201);
  return res.json as Plotline;
};

const eventsOf = async (token: string, timelineId: number) =>
  (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as Ev[];

describe("plotlines", () => {
  it("answers each role: owner and collaborator edit, viewer reads (403 on writes), stranger 404", async () => {
    const { owner, collab, viewer, stranger, timelineId } = await sharedTimeline("Two Threads");
    const path = `/api/timelines/${timelineId}/plotlines`;

    const main = await addPlotline(owner.token, timelineId, { title: "  Main plot  ", color: "#2563EB" });
    expect(main).toEqual({ id: main.id, timelineId, title: "Main plot", color: "#2563eb", position: 0 });
    const romance = await addPlotline(collab.token, timelineId, { title: "Romance" });
    expect(romance.position).toBe(1);
    expect(romance.color).toMatch(/^#[0-9a-f]{6}$/);

    for (const token of [owner.token, collab.token, viewer.token]) {
      const res = await call("GET", path, { token });
      expect(res.status).toBe(200);
      expect(res.json.map((p: Plotline) => p.title)).toEqual(["Main plot", "Romance"]);
    }
    expect(await call("GET", path, { token: stranger.token })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    expect((await call("GET", path)).status).toBe(401);

    expect((await call("POST", path, { token: viewer.token, body: { title: "X" } })).status).toBe(403);
    expect(await call("POST", path, { token: stranger.token, body: { title: "X" } })).toMatchObject({ status: 404 });
    expect((await call("PATCH", `/api/plotlines/${main.id}`, { token: viewer.token, body: { title: "X" } })).status).toBe(403);
    expect((await call("DELETE", `/api/plotlines/${main.id}`, { token: viewer.token })).status).toBe(403);
    expect(await call("PATCH", `/api/plotlines/${main.id}`, { token: stranger.token, body: { title: "X" } })).toMatchObject({
      status: 404,
      json: { error: "Plotline not found" },
    });
    expect(await call("DELETE", `/api/plotlines/${main.id}`, { token: stranger.token })).toMatchObject({
      status: 404,
      json: { error: "Plotline not found" },
    });
    expect(await call("PATCH", "/api/plotlines/999999", { token: owner.token, body: { title: "X" } })).toMatchObject({
      status: 404,
      json: { error: "Plotline not found" },
    });

    const renamed = await call("PATCH", `/api/plotlines/${main.id}`, {
      token: collab.token,
      body: { title: "The heist", color: "#dc2626" },
    });
    expect(renamed).toMatchObject({ status: 200, json: { title: "The heist", color: "#dc2626", position: 0 } });
    // Deleting is the owner's (a collaborator edits, the owner deletes), and nothing is removed on a refusal.
    expect(await call("DELETE", `/api/plotlines/${romance.id}`, { token: collab.token })).toMatchObject({
      status: 403,
      json: { error: "Only the owner of this timeline can do that" },
    });
    expect((await call("GET", path, { token: owner.token })).json.map((p: Plotline) => p.title)).toEqual(["The heist", "Romance"]);
    expect(await call("DELETE", `/api/plotlines/${romance.id}`, { token: owner.token })).toMatchObject({
      status: 200,
      json: { success: true },
    });
    expect((await call("GET", path, { token: owner.token })).json.map((p: Plotline) => p.title)).toEqual(["The heist"]);
  });

  it("refuses bad titles, colors and positions with clear messages", async () => {
    const { owner, timelineId } = await sharedTimeline("Two Threads");
    const path = `/api/timelines/${timelineId}/plotlines`;
    const cases: [Record<string, unknown>, string][] = [
      [{}, "Plotline title is required"],
      [{ title: "   " }, "Plotline title is required"],
      [{ title: 7 }, "Plotline title is required"],
      [{ title: "x".repeat(101) }, "Plotline title must be 100 characters or less"],
      [{ title: "Ok", color: "red" }, "Color must be a hex color like #a1b2c3"],
      [{ title: "Ok", color: "#12345" }, "Color must be a hex color like #a1b2c3"],
    ];
    for (const [body, error] of cases) {
      expect(await call("POST", path, { token: owner.token, body }), JSON.stringify(body)).toMatchObject({ status: 400, json: { error } });
    }
    expect((await addPlotline(owner.token, timelineId, { title: "x".repeat(100) })).title).toHaveLength(100);
    const p = await addPlotline(owner.token, timelineId, { title: "B" });
    const patch = (body: unknown) => call("PATCH", `/api/plotlines/${p.id}`, { token: owner.token, body });
    expect(await patch({})).toMatchObject({ status: 400, json: { error: "Nothing to update" } });
    expect(await patch({ position: -1 })).toMatchObject({ status: 400, json: { error: "Position must be a whole number" } });
    expect(await patch({ position: 1.5 })).toMatchObject({ status: 400, json: { error: "Position must be a whole number" } });
    expect(await patch({ title: "" })).toMatchObject({ status: 400, json: { error: "Plotline title is required" } });
    expect(await patch({ color: "#zzzzzz" })).toMatchObject({ status: 400, json: { error: "Color must be a hex color like #a1b2c3" } });
  });

  it("keeps an order: moves shift the others, deletes close the gap", async () => {
    const { owner, timelineId } = await sharedTimeline("Two Threads");
    const [a, b, c] = [
      await addPlotline(owner.token, timelineId, { title: "A" }),
      await addPlotline(owner.token, timelineId, { title: "B" }),
      await addPlotline(owner.token, timelineId, { title: "C" }),
    ];
    const list = async () =>
      ((await call("GET", `/api/timelines/${timelineId}/plotlines`, { token: owner.token })).json as Plotline[]).map((p) => [
        p.title,
        p.position,
      ]);
    expect((await call("PATCH", `/api/plotlines/${c.id}`, { token: owner.token, body: { position: 0 } })).json.position).toBe(0);
    expect(await list()).toEqual([
      ["C", 0],
      ["A", 1],
      ["B", 2],
    ]);
    // Past the end: last.
    expect((await call("PATCH", `/api/plotlines/${c.id}`, { token: owner.token, body: { position: 99 } })).json.position).toBe(2);
    expect(await list()).toEqual([
      ["A", 0],
      ["B", 1],
      ["C", 2],
    ]);
    await call("DELETE", `/api/plotlines/${a.id}`, { token: owner.token });
    expect(await list()).toEqual([
      ["B", 0],
      ["C", 1],
    ]);
    expect(b.id).toBeGreaterThan(0);
  });

  it("a scene's plotlineIds: in every event JSON, set by PATCH, only this timeline's, gone when the plotline is deleted", async () => {
    const { owner, collab, viewer, timelineId } = await sharedTimeline("Two Threads");
    const scene = await createEvent(owner.token, timelineId, { title: "The vault" });
    expect(scene.plotlineIds).toEqual([]);
    const main = await addPlotline(owner.token, timelineId, { title: "Main" });
    const romance = await addPlotline(owner.token, timelineId, { title: "Romance" });
    const other = await createTimeline(owner.token, { title: "Elsewhere" });
    const foreign = await addPlotline(owner.token, other.id, { title: "Theirs" });

    const patch = (token: string, body: unknown) => call("PATCH", `/api/events/${scene.id}`, { token, body });
    const set = await patch(collab.token, { plotlineIds: [romance.id, main.id, main.id] });
    expect(set.status, set.text).toBe(200);
    expect(set.json.plotlineIds).toEqual([main.id, romance.id].sort((x, y) => x - y));
    expect((await eventsOf(viewer.token, timelineId))[0].plotlineIds).toEqual([main.id, romance.id].sort((x, y) => x - y));

    expect(await patch(owner.token, { plotlineIds: [main.id, foreign.id] })).toMatchObject({
      status: 400,
      json: { error: "Plotlines must belong to this timeline" },
    });
    expect(await patch(owner.token, { plotlineIds: [987654321] })).toMatchObject({
      status: 400,
      json: { error: "Plotlines must belong to this timeline" },
    });
    for (const bad of ["x", [0], ["1"], [1.5], null]) {
      expect(await patch(owner.token, { plotlineIds: bad }), JSON.stringify(bad)).toMatchObject({
        status: 400,
        json: { error: "Plotlines must be a list of plotline ids" },
      });
    }
    expect(await patch(viewer.token, { plotlineIds: [] })).toMatchObject({ status: 403 });
    // The refused writes changed nothing.
    expect((await eventsOf(owner.token, timelineId))[0].plotlineIds).toHaveLength(2);

    // Every answer that carries the scene carries its plotlines: a move, a trash and restore.
    const second = await createEvent(owner.token, timelineId, { title: "Aftermath" });
    const moved = await patch(owner.token, { position: 1 });
    expect(moved.json.plotlineIds).toHaveLength(2);
    expect((await call("DELETE", `/api/events/${scene.id}`, { token: owner.token })).status).toBe(200);
    const restored = await call("POST", `/api/trash/event/${scene.id}/restore`, { token: owner.token });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.plotlineIds).toHaveLength(2);
    // A PATCH that changes nothing answers the scene as it is.
    expect((await patch(owner.token, { position: restored.json.position })).json.plotlineIds).toHaveLength(2);
    expect(
      (await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token })).json.find((e: Ev) => e.id === scene.id)
        .plotlineIds,
    ).toHaveLength(2);
    expect(second.plotlineIds).toEqual([]);

    await call("DELETE", `/api/plotlines/${romance.id}`, { token: owner.token });
    expect((await eventsOf(owner.token, timelineId)).find((e) => e.id === scene.id)?.plotlineIds).toEqual([main.id]);
    expect((await patch(owner.token, { plotlineIds: [] })).json.plotlineIds).toEqual([]);
  });

  it("tells the room once per write with a 'plotlines' sync", async () => {
    const { owner, collab, timelineId } = await sharedTimeline("Two Threads");
    const scene = await createEvent(owner.token, timelineId, { title: "The vault" });
    const watcher = await connect(timelineId, collab.token);
    await sleep(50);
    const syncsAfter = async (write: () => Promise<{ status: number }>) => {
      watcher.clear();
      expect((await write()).status).toBeLessThan(300);
      await watcher.waitFor((m) => m.type === "sync", "sync");
      await sleep(150);
      return watcher.messages.filter((m) => m.type === "sync");
    };
    let id = 0;
    const added = await syncsAfter(async () => {
      const res = await call("POST", `/api/timelines/${timelineId}/plotlines`, { token: owner.token, body: { title: "Main" } });
      id = res.json.id;
      return res;
    });
    expect(added).toEqual([{ type: "sync", scope: "plotlines" }]);
    expect(ServerMessageSchema.safeParse(added[0]).success).toBe(true);
    expect(watcher.messages.find((m) => m.type === "notification")?.notification.message).toBe('Olive Owner added the plotline "Main"');
    expect(
      await syncsAfter(() => call("PATCH", `/api/plotlines/${id}`, { token: owner.token, body: { position: 0, title: "M" } })),
    ).toEqual([{ type: "sync", scope: "plotlines" }]);
    expect(
      await syncsAfter(() => call("PATCH", `/api/events/${scene.id}`, { token: owner.token, body: { plotlineIds: [id] } })),
    ).toHaveLength(1);
    expect(await syncsAfter(() => call("DELETE", `/api/plotlines/${id}`, { token: owner.token }))).toEqual([
      { type: "sync", scope: "plotlines" },
    ]);
    watcher.ws.close();
  });

  it("JSON export carries plotlines and each scene's; import and append read them back", async () => {
    const { owner, timelineId } = await sharedTimeline("Two Threads");
    const t = owner.token;
    const a = await createEvent(t, timelineId, { title: "Heist" });
    await createEvent(t, timelineId, { title: "Interlude" });
    const c = await createEvent(t, timelineId, { title: "Kiss" });
    const main = await addPlotline(t, timelineId, { title: "Main", color: "#2563eb" });
    const romance = await addPlotline(t, timelineId, { title: "Romance", color: "#db2777" });
    await addPlotline(t, timelineId, { title: "Unused", color: "#16a34a" });
    await call("PATCH", `/api/events/${a.id}`, { token: t, body: { plotlineIds: [main.id, romance.id] } });
    await call("PATCH", `/api/events/${c.id}`, { token: t, body: { plotlineIds: [romance.id] } });

    const exported = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token: t });
    expect(exported.json.plotlines).toEqual([
      { title: "Main", color: "#2563eb" },
      { title: "Romance", color: "#db2777" },
      { title: "Unused", color: "#16a34a" },
    ]);
    expect(exported.json.events.map((e: { plotlines?: number[] }) => e.plotlines)).toEqual([[0, 1], undefined, [1]]);

    const imported = await importBook(t, exported.text, "application/json");
    expect(imported.status, imported.text).toBe(201);
    const again = await call("GET", `/api/timelines/${imported.json.id}/export?format=json`, { token: t });
    expect(again.text).toBe(exported.text);

    // Appended: plotlines of the same title are the timeline's own; new ones go last.
    const target = await createTimeline(t, { title: "Target" });
    await addPlotline(t, target.id, { title: "romance", color: "#000000" });
    const appended = await call("POST", `/api/timelines/${target.id}/import`, {
      token: t,
      rawBody: exported.text,
      headers: { "Content-Type": "application/json" },
    });
    expect(appended.status, appended.text).toBe(200);
    const plotlines = (await call("GET", `/api/timelines/${target.id}/plotlines`, { token: t })).json as Plotline[];
    expect(plotlines.map((p) => [p.title, p.position])).toEqual([
      ["romance", 0],
      ["Main", 1],
      ["Unused", 2],
    ]);
    const name = new Map(plotlines.map((p) => [p.id, p.title]));
    expect((await eventsOf(t, target.id)).map((e) => e.plotlineIds.map((id) => name.get(id)).sort())).toEqual([
      ["Main", "romance"],
      [],
      ["romance"],
    ]);

    const bad = JSON.stringify({ ...exported.json, events: [{ ...exported.json.events[0], plotlines: [7] }] });
    const refused = await importBook(t, bad, "application/json");
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.json.error).toContain("plotlines must be a list of the numbers of the file's plotlines");
  });

  it("the AI's story bible lists each scene's plotlines", async () => {
    const { owner, timelineId } = await sharedTimeline("Two Threads");
    const a = await createEvent(owner.token, timelineId, { title: "Heist", content: "They crack the vault." });
    const b = await createEvent(owner.token, timelineId, { title: "Kiss", content: "On the roof." });
    const main = await addPlotline(owner.token, timelineId, { title: "Main plot" });
    const romance = await addPlotline(owner.token, timelineId, { title: "Romance" });
    await call("PATCH", `/api/events/${a.id}`, { token: owner.token, body: { plotlineIds: [main.id, romance.id] } });
    await call("PATCH", `/api/events/${b.id}`, { token: owner.token, body: { plotlineIds: [romance.id] } });
    const bible = await buildStoryBible(
      createDb(env.DB),
      {},
      { id: timelineId, title: "Two Threads", description: null },
      b.id,
      owner.user,
    );
    expect(bible).toContain("Plotlines: Main plot, Romance");
    expect(bible).toContain("Heist [Plotlines: Main plot, Romance]: They crack the vault.");
    expect(bible).toContain("This scene's plotlines: Romance");
  });
});
