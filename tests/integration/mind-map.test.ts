import { env } from "cloudflare:workers";
import { createDb } from "../../db/client";
import { purgeTrash } from "../../worker/services/trash";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith, type User } from "./helpers";
import { connect, sleep } from "./room-helpers";

const PREMIUM_ONLY = "Upgrade to Premium for advanced mind mapping";
const VIEW_ONLY = "You have view-only access to this timeline";
const T = "Timeline not found";
const FOREIGN = "Every node must belong to this timeline";

let owner: User, collaborator: User, freeCollaborator: User, viewer: User, stranger: User;

beforeAll(async () => {
  [owner, collaborator, freeCollaborator, viewer, stranger] = await Promise.all([
    registerUser({ name: "Olive" }),
    registerUser({ name: "Cora" }),
    registerUser({ name: "Fern" }),
    registerUser({ name: "Vic" }),
    registerUser({ name: "Stan" }),
  ]);
  await makePremium(owner.user.id);
  await makePremium(collaborator.user.id);
});

/** A timeline shared with two collaborators (one Premium, one Free) and a viewer; an event linked to Mara, and Harbor. */
async function fixture() {
  const tl = await createTimeline(owner.token, { title: "Map" });
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, freeCollaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  const mara = await call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind: "character", name: "Mara" } });
  const harbor = await call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind: "place", name: "Harbor" } });
  const event = await createEvent(owner.token, tl.id, { title: "Arrival", entityIds: [mara.json.id] });
  const second = await createEvent(owner.token, tl.id, { title: "Storm" });
  return {
    timelineId: tl.id as number,
    maraId: mara.json.id as number,
    harborId: harbor.json.id as number,
    eventId: event.id as number,
    secondId: second.id as number,
  };
}
type Fx = Awaited<ReturnType<typeof fixture>>;

const getMap = (fx: Fx, token: string | undefined = owner.token) => call("GET", `/api/timelines/${fx.timelineId}/map`, { token });

describe("GET /api/timelines/{id}/map", () => {
  it("answers events and entities as nodes and links as edges, to every reader; strangers 404, anonymous 401", async () => {
    const fx = await fixture();
    for (const u of [owner, collaborator, freeCollaborator, viewer]) {
      const res = await getMap(fx, u.token);
      expect(res.status, res.text).toBe(200);
      expect(res.json.nodes).toEqual([
        {
          id: `event-${fx.eventId}`,
          kind: "event",
          refId: fx.eventId,
          label: "Arrival",
          color: null,
          entityKind: null,
          x: null,
          y: null,
          parentId: null,
          width: null,
          height: null,
        },
        {
          id: `event-${fx.secondId}`,
          kind: "event",
          refId: fx.secondId,
          label: "Storm",
          color: null,
          entityKind: null,
          x: null,
          y: null,
          parentId: null,
          width: null,
          height: null,
        },
        {
          id: `entity-${fx.maraId}`,
          kind: "entity",
          refId: fx.maraId,
          label: "Mara",
          color: "#6366f1",
          entityKind: "character",
          x: null,
          y: null,
          parentId: null,
          width: null,
          height: null,
        },
        {
          id: `entity-${fx.harborId}`,
          kind: "entity",
          refId: fx.harborId,
          label: "Harbor",
          color: "#10b981",
          entityKind: "place",
          x: null,
          y: null,
          parentId: null,
          width: null,
          height: null,
        },
      ]);
      expect(res.json.edges).toEqual([
        { id: `link-${fx.eventId}-${fx.maraId}`, kind: "link", source: `event-${fx.eventId}`, target: `entity-${fx.maraId}` },
      ]);
    }
    expect(await getMap(fx, stranger.token)).toMatchObject({ status: 404, json: { error: T } });
    expect(await call("GET", `/api/timelines/${fx.timelineId}/map`)).toMatchObject({ status: 401 });
    expect(await call("GET", "/api/timelines/abc/map", { token: owner.token })).toMatchObject({ status: 404, json: { error: T } });
  });
});

describe("PUT /api/timelines/{id}/map/positions", () => {
  it("persists positions for every plan's editors; viewers 403, strangers 404", async () => {
    const fx = await fixture();
    const path = `/api/timelines/${fx.timelineId}/map/positions`;
    const body = {
      positions: [
        { node: `event-${fx.eventId}`, x: 10.5, y: -20 },
        { node: `entity-${fx.maraId}`, x: 300, y: 40 },
      ],
    };
    expect(await call("PUT", path, { token: freeCollaborator.token, body })).toMatchObject({ status: 200, json: { ok: true } });
    let map = (await getMap(fx)).json;
    expect(map.nodes.find((n: any) => n.id === `event-${fx.eventId}`)).toMatchObject({ x: 10.5, y: -20 });
    expect(map.nodes.find((n: any) => n.id === `entity-${fx.maraId}`)).toMatchObject({ x: 300, y: 40 });
    expect(map.nodes.find((n: any) => n.id === `event-${fx.secondId}`)).toMatchObject({ x: null, y: null });
    // Moving again updates the same row; the last position for a node wins.
    const again = {
      positions: [
        { node: `event-${fx.eventId}`, x: 1, y: 1 },
        { node: `event-${fx.eventId}`, x: 2, y: 3 },
      ],
    };
    expect((await call("PUT", path, { token: owner.token, body: again })).status).toBe(200);
    map = (await getMap(fx)).json;
    expect(map.nodes.find((n: any) => n.id === `event-${fx.eventId}`)).toMatchObject({ x: 2, y: 3 });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM map_nodes WHERE timeline_id = ?")
      .bind(fx.timelineId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(2);

    expect(await call("PUT", path, { token: viewer.token, body })).toMatchObject({ status: 403, json: { error: VIEW_ONLY } });
    expect(await call("PUT", path, { token: stranger.token, body })).toMatchObject({ status: 404, json: { error: T } });
    expect(await call("PUT", path, { body })).toMatchObject({ status: 401 });
  });

  it("refuses nodes of another timeline and junk with 400, changing nothing", async () => {
    const fx = await fixture();
    const other = await fixture();
    const path = `/api/timelines/${fx.timelineId}/map/positions`;
    const foreign = {
      positions: [
        { node: `event-${fx.eventId}`, x: 5, y: 5 },
        { node: `event-${other.eventId}`, x: 1, y: 1 },
      ],
    };
    expect(await call("PUT", path, { token: owner.token, body: foreign })).toMatchObject({ status: 400, json: { error: FOREIGN } });
    expect(
      await call("PUT", path, { token: owner.token, body: { positions: [{ node: `entity-${other.maraId}`, x: 1, y: 1 }] } }),
    ).toMatchObject({ status: 400, json: { error: FOREIGN } });
    expect((await getMap(fx)).json.nodes.every((n: any) => n.x === null)).toBe(true);

    const junk: Array<[unknown, string]> = [
      [{}, "Positions must be a list"],
      [{ positions: "x" }, "Positions must be a list"],
      [{ positions: [{ node: "event-x", x: 1, y: 1 }] }, "Unknown map node"],
      [{ positions: [{ node: `event-${fx.eventId}`, x: "1", y: 1 }] }, "Positions must be numbers"],
      [{ positions: [{ node: `event-${fx.eventId}`, x: 1e308, y: 1 }] }, "Positions must be between -1,000,000 and 1,000,000"],
      [{ positions: [null] }, "Each position needs a node, x and y"],
      [{ positions: Array.from({ length: 2001 }, () => ({ node: `event-${fx.eventId}`, x: 1, y: 1 })) }, "At most 2000 positions at once"],
      [{ positions: [{ node: `idea-${fx.eventId}`, x: 1, y: 1 }] }, FOREIGN],
    ];
    for (const [body, error] of junk) {
      const res = await call("PUT", path, { token: owner.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json).toEqual({ error });
    }
    expect((await call("PUT", path, { token: owner.token, rawBody: "{nope" })).status).toBe(400);
  });

  it("places 2000 nodes in one request", async () => {
    const fx = await fixture();
    const positions = Array.from({ length: 2000 }, (_, i) => ({
      node: i % 2 ? `event-${fx.eventId}` : `entity-${fx.maraId}`,
      x: i,
      y: -i,
    }));
    expect((await call("PUT", `/api/timelines/${fx.timelineId}/map/positions`, { token: owner.token, body: { positions } })).status).toBe(
      200,
    );
    const map = (await getMap(fx)).json;
    expect(map.nodes.find((n: any) => n.id === `event-${fx.eventId}`)).toMatchObject({ x: 1999, y: -1999 });
    expect(map.nodes.find((n: any) => n.id === `entity-${fx.maraId}`)).toMatchObject({ x: 1998, y: -1998 });
  });
});

describe("advanced mapping (Premium)", () => {
  it("Free writers get 403 with the upgrade message; Premium 201; viewers 403; strangers 404", async () => {
    const fx = await fixture();
    const nodes = `/api/timelines/${fx.timelineId}/map/nodes`;
    const edges = `/api/timelines/${fx.timelineId}/map/edges`;
    const idea = { kind: "idea", text: "What if the storm is a memory?", x: 50, y: 60 };
    expect(await call("POST", nodes, { token: freeCollaborator.token, body: idea })).toMatchObject({
      status: 403,
      json: { error: PREMIUM_ONLY },
    });
    expect(
      await call("POST", edges, { token: freeCollaborator.token, body: { source: `event-${fx.eventId}`, target: `event-${fx.secondId}` } }),
    ).toMatchObject({ status: 403, json: { error: PREMIUM_ONLY } });
    expect(await call("POST", nodes, { token: viewer.token, body: idea })).toMatchObject({ status: 403, json: { error: VIEW_ONLY } });
    expect(await call("POST", nodes, { token: stranger.token, body: idea })).toMatchObject({ status: 404, json: { error: T } });
    expect(await call("POST", nodes, { body: idea })).toMatchObject({ status: 401 });

    // A Premium collaborator on a Free owner's timeline would be the same: the acting writer's plan decides.
    const created = await call("POST", nodes, { token: collaborator.token, body: { ...idea, color: "#AABBCC" } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^idea-\d+$/),
      kind: "idea",
      refId: null,
      label: idea.text,
      color: "#aabbcc",
      entityKind: null,
      x: 50,
      y: 60,
      parentId: null,
      width: null,
      height: null,
    });
    const ideaId = Number(created.json.id.slice(5));
    const group = await call("POST", nodes, { token: owner.token, body: { kind: "group", text: "Act one", x: 0, y: 0 } });
    expect(group.status).toBe(201);
    expect(group.json).toMatchObject({ kind: "group", label: "Act one", width: 360, height: 240 });

    // Free writers may not edit or delete them either, but may move them with the positions call.
    expect(await call("PATCH", `/api/map-nodes/${ideaId}`, { token: freeCollaborator.token, body: { text: "x" } })).toMatchObject({
      status: 403,
      json: { error: PREMIUM_ONLY },
    });
    expect(await call("DELETE", `/api/map-nodes/${ideaId}`, { token: viewer.token })).toMatchObject({
      status: 403,
      json: { error: VIEW_ONLY },
    });
    expect(await call("DELETE", `/api/map-nodes/${ideaId}`, { token: stranger.token })).toMatchObject({
      status: 404,
      json: { error: "Map node not found" },
    });
    expect(
      (
        await call("PUT", `/api/timelines/${fx.timelineId}/map/positions`, {
          token: freeCollaborator.token,
          body: { positions: [{ node: created.json.id, x: 7, y: 8 }] },
        })
      ).status,
    ).toBe(200);

    const patched = await call("PATCH", `/api/map-nodes/${ideaId}`, {
      token: owner.token,
      body: { text: "  The storm is a memory  ", parentId: group.json.id },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ id: created.json.id, label: "The storm is a memory", x: 7, y: 8, parentId: group.json.id });

    const map = (await getMap(fx, viewer.token)).json;
    expect(map.nodes.map((n: any) => n.id)).toEqual([
      `event-${fx.eventId}`,
      `event-${fx.secondId}`,
      `entity-${fx.maraId}`,
      `entity-${fx.harborId}`,
      group.json.id,
      created.json.id,
    ]);
  });

  it("labeled, colored edges between any two nodes; validation; patch and delete", async () => {
    const fx = await fixture();
    const edges = `/api/timelines/${fx.timelineId}/map/edges`;
    const idea = (
      await call("POST", `/api/timelines/${fx.timelineId}/map/nodes`, {
        token: owner.token,
        body: { kind: "idea", text: "Omen", x: 0, y: 0 },
      })
    ).json;
    const e1 = await call("POST", edges, {
      token: collaborator.token,
      body: { source: `event-${fx.eventId}`, target: `event-${fx.secondId}`, label: "causes", color: "#ff0000" },
    });
    expect(e1.status, e1.text).toBe(201);
    expect(e1.json).toEqual({
      id: expect.stringMatching(/^edge-\d+$/),
      kind: "custom",
      source: `event-${fx.eventId}`,
      target: `event-${fx.secondId}`,
      label: "causes",
      color: "#ff0000",
    });
    const e2 = await call("POST", edges, {
      token: owner.token,
      body: { source: idea.id, target: `entity-${fx.harborId}`, label: "foreshadows" },
    });
    expect(e2.status).toBe(201);
    // The edge made rows for the unplaced event nodes: they are still unplaced.
    const map = (await getMap(fx)).json;
    expect(map.nodes.find((n: any) => n.id === `event-${fx.secondId}`)).toMatchObject({ x: null, y: null });
    expect(map.edges.filter((e: any) => e.kind === "custom")).toEqual([e1.json, { ...e2.json, color: null }]);

    const other = await fixture();
    const bad: Array<[unknown, string]> = [
      [{ source: `event-${fx.eventId}`, target: `event-${other.eventId}` }, FOREIGN],
      [{ source: `event-${fx.eventId}`, target: `event-${fx.eventId}` }, "An edge needs two different nodes"],
      [{ source: `event-${fx.eventId}`, target: `entity-${fx.maraId}`, label: "x".repeat(61) }, "Label must be 60 characters or less"],
      [{ source: `event-${fx.eventId}`, target: `entity-${fx.maraId}`, color: "red" }, "Color must be a hex color like #a1b2c3"],
      [{ source: 12, target: `entity-${fx.maraId}` }, "Unknown map node"],
      [{}, "Unknown map node"],
    ];
    for (const [body, error] of bad) {
      expect(await call("POST", edges, { token: owner.token, body })).toMatchObject({ status: 400, json: { error } });
    }
    const nodes = `/api/timelines/${fx.timelineId}/map/nodes`;
    for (const [body, error] of [
      [{ kind: "idea", text: "", x: 0, y: 0 }, "Text is required"],
      [{ kind: "idea", text: "x".repeat(501), x: 0, y: 0 }, "Text must be 500 characters or less"],
      [{ kind: "event", text: "x", x: 0, y: 0 }, "Kind must be idea or group"],
      [{ kind: "idea", text: "x", x: "a", y: 0 }, "Positions must be numbers"],
      [{ kind: "idea", text: "x", x: 0, y: 0, parentId: `group-${fx.eventId}` }, FOREIGN],
    ] as const) {
      expect(await call("POST", nodes, { token: owner.token, body })).toMatchObject({ status: 400, json: { error } });
    }

    const edgeId = e1.json.id.slice(5);
    const relabeled = await call("PATCH", `/api/map-edges/${edgeId}`, { token: owner.token, body: { label: "foreshadows", color: null } });
    expect(relabeled.json).toEqual({ ...e1.json, label: "foreshadows", color: null });
    expect(await call("PATCH", `/api/map-edges/${edgeId}`, { token: freeCollaborator.token, body: { label: "x" } })).toMatchObject({
      status: 403,
      json: { error: PREMIUM_ONLY },
    });
    expect(await call("PATCH", `/api/map-edges/${edgeId}`, { token: owner.token, body: {} })).toMatchObject({ status: 400 });
    expect(await call("DELETE", `/api/map-edges/${edgeId}`, { token: stranger.token })).toMatchObject({
      status: 404,
      json: { error: "Map edge not found" },
    });
    expect(await call("DELETE", `/api/map-edges/${edgeId}`, { token: owner.token })).toMatchObject({
      status: 200,
      json: { success: true },
    });
    expect(await call("DELETE", `/api/map-edges/${edgeId}`, { token: owner.token })).toMatchObject({ status: 404 });
    // Deleting the idea takes its edge along.
    expect((await call("DELETE", `/api/map-nodes/${idea.id.slice(5)}`, { token: owner.token })).status).toBe(200);
    expect((await getMap(fx)).json.edges.filter((e: any) => e.kind === "custom")).toEqual([]);
  });
});

describe("cascades", () => {
  it("a trashed event leaves the map with its edges; deleting an entity, or purging the timeline, removes its positions and edges", async () => {
    const fx = await fixture();
    const edges = `/api/timelines/${fx.timelineId}/map/edges`;
    await call("PUT", `/api/timelines/${fx.timelineId}/map/positions`, {
      token: owner.token,
      body: {
        positions: [
          { node: `event-${fx.eventId}`, x: 1, y: 1 },
          { node: `entity-${fx.harborId}`, x: 2, y: 2 },
        ],
      },
    });
    await call("POST", edges, {
      token: owner.token,
      body: { source: `event-${fx.eventId}`, target: `event-${fx.secondId}`, label: "causes" },
    });
    await call("POST", edges, { token: owner.token, body: { source: `entity-${fx.harborId}`, target: `event-${fx.secondId}` } });
    const count = async (table: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE timeline_id = ?`).bind(fx.timelineId).first<{ n: number }>())?.n;
    expect(await count("map_edges")).toBe(2);

    expect((await call("DELETE", `/api/events/${fx.eventId}`, { token: owner.token })).status).toBe(200);
    // In Trash: kept for a restore, but not on the map.
    const map = (await getMap(fx)).json;
    expect(map.nodes.some((n: any) => n.id === `event-${fx.eventId}`)).toBe(false);
    expect(map.edges.filter((e: any) => e.kind !== "link").map((e: any) => [e.source, e.target])).toEqual([
      [`entity-${fx.harborId}`, `event-${fx.secondId}`],
    ]);

    expect((await call("DELETE", `/api/entities/${fx.harborId}`, { token: owner.token })).status).toBe(200);
    expect(await count("map_edges")).toBe(1);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM map_nodes WHERE entity_id = ?").bind(fx.harborId).first<{ n: number }>(),
    ).toEqual({ n: 0 });

    await call("POST", `/api/timelines/${fx.timelineId}/map/nodes`, {
      token: owner.token,
      body: { kind: "idea", text: "Loose", x: 0, y: 0 },
    });
    expect((await call("DELETE", `/api/timelines/${fx.timelineId}`, { token: owner.token })).status).toBe(200);
    await purgeTrash(createDb(env.DB), { files: env.FILES }, Date.now() + 31 * 24 * 3600_000);
    expect(await count("map_nodes")).toBe(0);
    expect(await count("map_edges")).toBe(0);
  });
});

describe("live", () => {
  it("every map write tells the room once, as a map-only sync without a notification; refused writes tell nobody", async () => {
    const fx = await fixture();
    const o = await connect(fx.timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence", "presence");
    const c = await connect(fx.timelineId, collaborator.token, undefined, "cora-tab");
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2, "both present");
    await sleep(50);
    const writes: Array<[string, string, unknown]> = [
      ["PUT", `/api/timelines/${fx.timelineId}/map/positions`, { positions: [{ node: `event-${fx.eventId}`, x: 3, y: 4 }] }],
      ["POST", `/api/timelines/${fx.timelineId}/map/nodes`, { kind: "idea", text: "Spark", x: 0, y: 0 }],
      [
        "POST",
        `/api/timelines/${fx.timelineId}/map/edges`,
        { source: `event-${fx.eventId}`, target: `entity-${fx.harborId}`, label: "causes" },
      ],
    ];
    for (const [method, path, body] of writes) {
      o.clear();
      c.clear();
      const res = await call(method, path, { token: collaborator.token, body, headers: { "X-Room-Connection": "cora-tab" } });
      expect(res.status, res.text).toBeLessThan(300);
      await o.waitFor((m) => m.type === "sync", `sync after ${method} ${path}`);
      await sleep(80);
      expect(o.messages.filter((m) => m.type === "sync")).toEqual([{ type: "sync", scope: "map" }]);
      expect(o.messages.some((m) => m.type === "notification")).toBe(false);
      // The author's own connection is not echoed.
      expect(c.messages.filter((m) => m.type === "sync")).toEqual([]);
    }
    o.clear();
    expect(
      (await call("POST", `/api/timelines/${fx.timelineId}/map/nodes`, { token: freeCollaborator.token, body: writes[1][2] })).status,
    ).toBe(403);
    expect((await call("PUT", writes[0][1], { token: viewer.token, body: writes[0][2] })).status).toBe(403);
    await sleep(100);
    expect(o.messages.filter((m) => m.type !== "presence")).toEqual([]);
    o.ws.close();
    c.ws.close();
  });
});
