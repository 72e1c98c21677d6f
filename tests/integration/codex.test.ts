import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sortChronologically } from "../../db/domain/story-order";
import { createDb } from "../../db/client";
import worker from "../../worker/index";
import { purgeTrash } from "../../worker/services/trash";
import type { EventView } from "../../worker/services/events";
import { ORIGIN, call, createEvent, createTimeline, type User, type Role, ROLES, matrixWriters, shareAsMatrix } from "./helpers";

const OWNER_ONLY = "Only the owner of this timeline can do that";
const VIEW_ONLY = "You have view-only access to this timeline";
const T = "Timeline not found";
const N = "Entity not found";
const E = "Event not found";
const FOREIGN = "Linked entities must belong to this timeline";
const POV = "The point of view must be one of the linked entities";
const END = "End must not be before start";

let owner: User, collaborator: User, viewer: User, linkGuest: User;

let tokenOf: (role: Role) => string | undefined;

beforeAll(async () => {
  ({ owner, collaborator, viewer, linkGuest, tokenOf } = await matrixWriters());
});

async function createEntity(token: string, timelineId: number, body: Record<string, unknown> = {}) {
  const res = await call("POST", `/api/timelines/${timelineId}/entities`, { token, body: { kind: "character", name: "Mara", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A timeline shared with a collaborator and a viewer, plus a viewer-only share link; two entities and a linked event. */
async function fixture() {
  const tl = await createTimeline(owner.token, { title: "Codex" });
  const shareCode = await shareAsMatrix(tl.id, { owner, collaborator, viewer });
  const mara = await createEntity(owner.token, tl.id, { name: "Mara" });
  const harbor = await createEntity(owner.token, tl.id, { name: "Harbor", kind: "place" });
  const event = await createEvent(owner.token, tl.id, { title: "Arrival", entityIds: [mara.id], povEntityId: mara.id });
  return {
    timelineId: tl.id as number,
    shareCode,
    entityId: mara.id as number,
    otherEntityId: harbor.id as number,
    eventId: event.id as number,
  };
}
type Fx = Awaited<ReturnType<typeof fixture>>;

/** Everything a codex request could change about a timeline. */
async function snapshot(timelineId: number) {
  const ents = await env.DB.prepare(
    "SELECT id, kind, name, aliases, description, color, updated_at FROM entities WHERE timeline_id = ? ORDER BY id",
  )
    .bind(timelineId)
    .all();
  const evs = await env.DB.prepare(
    "SELECT id, title, position, pov_entity_id, story_start, story_end, story_label, story_sort, updated_at FROM events WHERE timeline_id = ? ORDER BY id",
  )
    .bind(timelineId)
    .all();
  const links = await env.DB.prepare(
    "SELECT l.event_id, l.entity_id FROM event_entities l JOIN events e ON e.id = l.event_id WHERE e.timeline_id = ? ORDER BY 1, 2",
  )
    .bind(timelineId)
    .all();
  return JSON.stringify([ents.results, evs.results, links.results]);
}

const statuses = (owner: number, collaborator: number, viewer: number): Record<Role, number> => ({
  owner,
  collaborator,
  viewer,
  shareViewer: viewer,
  stranger: 404,
  anonymous: 401,
});

type Endpoint = {
  name: string;
  req: (fx: Fx) => { method: string; path: string; body?: unknown };
  expect: Record<Role, number>;
  need: "viewer" | "collaborator" | "owner";
  missing: string;
};

const ENDPOINTS: Endpoint[] = [
  {
    name: "GET entities",
    req: (f) => ({ method: "GET", path: `/api/timelines/${f.timelineId}/entities` }),
    expect: statuses(200, 200, 200),
    need: "viewer",
    missing: T,
  },
  {
    name: "POST entity",
    req: (f) => ({ method: "POST", path: `/api/timelines/${f.timelineId}/entities`, body: { kind: "thing", name: "Lantern" } }),
    expect: statuses(201, 201, 403),
    need: "collaborator",
    missing: T,
  },
  {
    name: "PATCH entity",
    req: (f) => ({ method: "PATCH", path: `/api/entities/${f.entityId}`, body: { name: "Mara Vell" } }),
    expect: statuses(200, 200, 403),
    need: "collaborator",
    missing: N,
  },
  {
    name: "DELETE entity",
    req: (f) => ({ method: "DELETE", path: `/api/entities/${f.entityId}` }),
    expect: statuses(200, 403, 403),
    need: "owner",
    missing: N,
  },
  {
    name: "PATCH event links",
    req: (f) => ({ method: "PATCH", path: `/api/events/${f.eventId}`, body: { entityIds: [f.entityId, f.otherEntityId] } }),
    expect: statuses(200, 200, 403),
    need: "collaborator",
    missing: E,
  },
  {
    name: "PATCH event story time",
    req: (f) => ({ method: "PATCH", path: `/api/events/${f.eventId}`, body: { storyStart: "-450", storyLabel: "The fall" } }),
    expect: statuses(200, 200, 403),
    need: "collaborator",
    missing: E,
  },
  {
    name: "GET events chronological",
    req: (f) => ({ method: "GET", path: `/api/timelines/${f.timelineId}/events?order=chronological` }),
    expect: statuses(200, 200, 200),
    need: "viewer",
    missing: T,
  },
];

describe("codex access matrix: endpoint × role", () => {
  const cases = ENDPOINTS.flatMap((ep) => ROLES.map((role) => ({ ep, role, status: ep.expect[role] })));
  it.each(cases)("$ep.name as $role → $status", async ({ ep, role, status }) => {
    const fx = await fixture();
    const before = await snapshot(fx.timelineId);
    const { method, path, body } = ep.req(fx);
    const withShare = role === "shareViewer" ? `${path}${path.includes("?") ? "&" : "?"}share=${fx.shareCode}` : path;
    const res = await call(method, withShare, { token: tokenOf(role), body });
    expect(res.status, res.text).toBe(status);
    if (status === 401) expect(res.json).toEqual({ error: "Not authenticated" });
    if (status === 404) expect(res.json).toEqual({ error: ep.missing });
    if (status === 403) expect(res.json).toEqual({ error: ep.need === "owner" ? OWNER_ONLY : VIEW_ONLY });
    const changed = (await snapshot(fx.timelineId)) !== before;
    expect(changed).toBe(method !== "GET" && status < 300);
  });

  it("a wrong share code is no access, and a code of another timeline opens nothing", async () => {
    const fx = await fixture();
    const other = await fixture();
    for (const share of ["wrong", other.shareCode]) {
      const res = await call("GET", `/api/timelines/${fx.timelineId}/entities?share=${share}`, { token: linkGuest.token });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: T });
    }
  });

  it("bad and unknown ids are 404", async () => {
    const cases: Array<[string, string, string, unknown?]> = [
      ["GET", "/api/timelines/abc/entities", T],
      ["GET", "/api/timelines/0/entities", T],
      ["GET", "/api/timelines/99999999/entities", T],
      ["POST", "/api/timelines/abc/entities", T, { kind: "thing", name: "x" }],
      ["POST", "/api/timelines/99999999/entities", T, { kind: "thing", name: "x" }],
      ["PATCH", "/api/entities/abc", N, { name: "x" }],
      ["PATCH", "/api/entities/99999999", N, { name: "x" }],
      ["DELETE", "/api/entities/-1", N],
      ["DELETE", "/api/entities/99999999", N],
    ];
    for (const [method, path, error, body] of cases) {
      const res = await call(method, path, { token: owner.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json, `${method} ${path}`).toEqual({ error });
    }
  });
});

describe("entities", () => {
  it("a new entry without a colour takes one no entry of the codex has, its kind's default first", async () => {
    const tl = await createTimeline(owner.token);
    const make = async (kind: string, name: string, color?: string) => {
      const res = await call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind, name, color } });
      expect(res.status, res.text).toBe(201);
      return res.json.color as string;
    };
    const characters = [await make("character", "Mara"), await make("character", "Ivo"), await make("character", "Sel")];
    expect(characters[0]).toBe("#6366f1");
    expect(new Set(characters).size).toBe(3);
    // A colour chosen by hand is kept, and counts as taken.
    expect(await make("character", "Tam", "#EC4899")).toBe("#ec4899");
    const places = [await make("place", "Harbour"), await make("place", "Lighthouse")];
    expect(places[0]).toBe("#10b981");
    expect(places[1]).not.toBe(places[0]);
    expect(characters).not.toContain(places[1]);
  });

  it("create answers the entity JSON exactly; list, patch and delete agree", async () => {
    const tl = await createTimeline(owner.token);
    const res = await call("POST", `/api/timelines/${tl.id}/entities`, {
      token: owner.token,
      body: {
        kind: "character",
        name: "  Mara  ",
        aliases: ["The Captain", " ", "The Captain", "Vell"],
        description: " Sails. ",
        color: "#A1B2C3",
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual([
      "aliases",
      "born",
      "color",
      "createdAt",
      "description",
      "died",
      "id",
      "kind",
      "name",
      "timelineId",
      "updatedAt",
    ]);
    expect(res.json).toMatchObject({
      timelineId: tl.id,
      kind: "character",
      name: "Mara",
      aliases: ["The Captain", "Vell"],
      description: "Sails.",
      color: "#a1b2c3",
    });
    expect(res.json.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const bare = await createEntity(owner.token, tl.id, { kind: "place", name: "Harbor" });
    expect(bare).toMatchObject({ aliases: [], description: "", color: "#10b981" });

    const list = await call("GET", `/api/timelines/${tl.id}/entities`, { token: owner.token });
    expect(list.json).toEqual([bare, res.json]); // by name

    const patched = await call("PATCH", `/api/entities/${res.json.id}`, {
      token: owner.token,
      body: { name: "Mara Vell", kind: "thing", aliases: [] },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      id: res.json.id,
      name: "Mara Vell",
      kind: "thing",
      aliases: [],
      description: "Sails.",
      color: "#a1b2c3",
    });
    expect(patched.json.updatedAt >= res.json.updatedAt).toBe(true);

    const deleted = await call("DELETE", `/api/entities/${res.json.id}`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ success: true });
    expect((await call("GET", `/api/timelines/${tl.id}/entities`, { token: owner.token })).json).toEqual([bare]);
    expect((await call("PATCH", `/api/entities/${res.json.id}`, { token: owner.token, body: { name: "Ghost" } })).status).toBe(404);
  });

  it("answers 400 {error} with a clear message", async () => {
    const tl = await createTimeline(owner.token);
    const ent = await createEntity(owner.token, tl.id);
    const before = await snapshot(tl.id);
    const post = `/api/timelines/${tl.id}/entities`;
    const patch = `/api/entities/${ent.id}`;
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", post, { kind: "character" }, "Name is required"],
      ["POST", post, { kind: "character", name: "   " }, "Name is required"],
      ["POST", post, { kind: "character", name: 5 }, "Name is required"],
      ["POST", post, { kind: "character", name: "x".repeat(101) }, "Name must be 100 characters or less"],
      ["POST", post, { name: "Mara" }, "Kind is required"],
      ["POST", post, { name: "Mara", kind: "dragon" }, "Kind must be character, place or thing"],
      ["POST", post, { name: "Mara", kind: "character", aliases: Array.from({ length: 21 }, (_, i) => `a${i}`) }, "At most 20 aliases"],
      ["POST", post, { name: "Mara", kind: "character", aliases: ["x".repeat(101)] }, "Each alias must be 100 characters or less"],
      ["POST", post, { name: "Mara", kind: "character", aliases: "Cap" }, "Aliases must be a list of names"],
      ["POST", post, { name: "Mara", kind: "character", description: "x".repeat(10_001) }, "Description must be 10,000 characters or less"],
      ["POST", post, { name: "Mara", kind: "character", color: "red" }, "Color must be a hex color like #a1b2c3"],
      ["POST", post, { name: "Mara", kind: "character", color: "#abc" }, "Color must be a hex color like #a1b2c3"],
      ["PATCH", patch, {}, "Nothing to update"],
      ["PATCH", patch, { name: "" }, "Name is required"],
      ["PATCH", patch, { kind: "person" }, "Kind must be character, place or thing"],
      ["PATCH", patch, { color: "#12345g" }, "Color must be a hex color like #a1b2c3"],
    ];
    for (const [method, path, body, error] of cases) {
      const res = await call(method, path, { token: owner.token, body });
      expect(res.status, `${method} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect(res.json, `${method} ${JSON.stringify(body).slice(0, 60)}`).toEqual({ error });
    }
    // Boundaries are accepted.
    const max = await call("POST", post, {
      token: owner.token,
      body: {
        name: "x".repeat(100),
        kind: "thing",
        aliases: Array.from({ length: 20 }, () => "y".repeat(100)),
        description: "d".repeat(10_000),
      },
    });
    expect(max.status).toBe(201);
    for (const path of [post, patch]) {
      const res = await call(path === post ? "POST" : "PATCH", path, { token: owner.token, rawBody: "{oops" });
      expect(res.json).toEqual({ error: "Invalid JSON in request body" });
    }
    await call("DELETE", `/api/entities/${max.json.id}`, { token: owner.token });
    expect(await snapshot(tl.id)).toBe(before);
  });
});

const DAY = 24 * 3600_000;

describe("links", () => {
  it("events carry entityIds, povEntityId and story fields in every event JSON", async () => {
    const tl = await createTimeline(owner.token);
    const code = `code-${tl.id}-links`;
    await env.DB.prepare("UPDATE timelines SET share_code = ?, share_role = 'viewer' WHERE id = ?").bind(code, tl.id).run();
    const a = await createEntity(owner.token, tl.id, { name: "A" });
    const b = await createEntity(owner.token, tl.id, { name: "B" });
    const plain = await createEvent(owner.token, tl.id, { title: "Plain" });
    expect(plain).toMatchObject({ entityIds: [], povEntityId: null, storyStart: null, storyEnd: null, storyLabel: null });
    expect(Object.keys(plain).sort()).toEqual([
      "after",
      "assigneeIds",
      "attachments",
      "chapterId",
      "content",
      "createdAt",
      "entityIds",
      "forReaders",
      "id",
      "notes",
      "plotlineIds",
      "position",
      "povEntityId",
      "status",
      "storyEnd",
      "storyEndDisplay",
      "storyLabel",
      "storyStart",
      "storyStartDisplay",
      "synopsis",
      "timelineId",
      "title",
      "updatedAt",
      "version",
      "wordCount",
    ]);

    const made = await createEvent(owner.token, tl.id, {
      title: "Linked",
      entityIds: [b.id, a.id, b.id],
      povEntityId: b.id,
      storyStart: "2024-03",
      storyEnd: "2024-04-02",
      storyLabel: " Spring ",
    });
    const expected = { entityIds: [a.id, b.id], povEntityId: b.id, storyStart: "2024-03", storyEnd: "2024-04-02", storyLabel: "Spring" };
    expect(made).toMatchObject(expected);

    const list = await call("GET", `/api/timelines/${tl.id}/events`, { token: owner.token });
    expect(list.json[1]).toMatchObject({ id: made.id, ...expected });
    const shared = await call("GET", `/api/timelines/shared/${code}`, { token: linkGuest.token });
    expect(shared.status).toBe(200);
    expect(shared.json.events[1]).toMatchObject({ id: made.id, ...expected });

    const patched = await call("PATCH", `/api/events/${made.id}`, { token: owner.token, body: { title: "Renamed" } });
    expect(patched.json).toMatchObject({ title: "Renamed", version: 2, ...expected });
    const moved = await call("PATCH", `/api/events/${made.id}`, { token: owner.token, body: { position: 0 } });
    expect(moved.json).toMatchObject({ position: 0, ...expected });
    const stale = await call("PATCH", `/api/events/${made.id}`, {
      token: owner.token,
      body: { title: "Stale", baseVersion: 1, entityIds: [] },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.current).toMatchObject({ title: "Renamed", version: 2, ...expected });
  });

  it("PATCH entityIds replaces the links; links only within the timeline; the POV among them", async () => {
    const fx = await fixture();
    const foreign = await fixture();
    const path = `/api/events/${fx.eventId}`;
    const set = await call("PATCH", path, {
      token: collaborator.token,
      body: { entityIds: [fx.otherEntityId, fx.entityId], povEntityId: fx.otherEntityId },
    });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({
      entityIds: [fx.entityId, fx.otherEntityId].sort((x, y) => x - y),
      povEntityId: fx.otherEntityId,
      version: 1,
    });

    const before = await snapshot(fx.timelineId);
    const refused: Array<[unknown, string]> = [
      [{ entityIds: [foreign.entityId] }, FOREIGN],
      [{ entityIds: [fx.entityId, foreign.otherEntityId] }, FOREIGN],
      [{ entityIds: [99999999] }, FOREIGN],
      [{ entityIds: [fx.entityId], povEntityId: fx.otherEntityId }, POV],
      [{ povEntityId: foreign.entityId }, POV],
      [{ entityIds: "all" }, "Linked entities must be a list of entity ids"],
      [{ entityIds: [1.5] }, "Linked entities must be a list of entity ids"],
      [{ povEntityId: "Mara" }, "Point of view must be an entity id or null"],
      [{ entityIds: Array.from({ length: 101 }, (_, i) => i + 1) }, "An event can link at most 100 entities"],
    ];
    for (const [body, error] of refused) {
      const res = await call("PATCH", path, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json, JSON.stringify(body)).toEqual({ error });
    }
    const create = await call("POST", `/api/timelines/${fx.timelineId}/events`, {
      token: owner.token,
      body: { title: "X", content: "Y", entityIds: [foreign.entityId] },
    });
    expect(create.json).toEqual({ error: FOREIGN });
    const povAlone = await call("POST", `/api/timelines/${fx.timelineId}/events`, {
      token: owner.token,
      body: { title: "X", content: "Y", povEntityId: fx.entityId },
    });
    expect(povAlone.json).toEqual({ error: POV });
    expect(await snapshot(fx.timelineId)).toBe(before);

    // Unlinking the POV entity clears the POV; an empty list removes every link.
    const unlinked = await call("PATCH", path, { token: owner.token, body: { entityIds: [fx.entityId] } });
    expect(unlinked.json).toMatchObject({ entityIds: [fx.entityId], povEntityId: null });
    const pov = await call("PATCH", path, { token: owner.token, body: { povEntityId: fx.entityId } });
    expect(pov.json).toMatchObject({ entityIds: [fx.entityId], povEntityId: fx.entityId });
    const cleared = await call("PATCH", path, { token: owner.token, body: { entityIds: [] } });
    expect(cleared.json).toMatchObject({ entityIds: [], povEntityId: null });
  });

  it("links the maximum of 100 entities at once (one bound parameter for the list, D1 allows 100)", async () => {
    const fx = await fixture();
    const stmt = env.DB.prepare("INSERT INTO entities (timeline_id, kind, name, color) VALUES (?, 'thing', ?, '#000000') RETURNING id");
    const rows = await env.DB.batch(Array.from({ length: 98 }, (_, i) => stmt.bind(fx.timelineId, `Thing ${i}`)));
    const ids = [fx.entityId, fx.otherEntityId, ...rows.map((r) => (r.results[0] as { id: number }).id)].sort((a, b) => a - b);
    const res = await call("PATCH", `/api/events/${fx.eventId}`, {
      token: owner.token,
      body: { entityIds: ids, povEntityId: ids[99], baseVersion: 1, title: "Crowd" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ entityIds: ids, povEntityId: ids[99], title: "Crowd", version: 2 });
    const made = await call("POST", `/api/timelines/${fx.timelineId}/events`, {
      token: owner.token,
      body: { title: "All", content: "of them", entityIds: ids },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.json.entityIds).toEqual(ids);
  });

  it("concurrent link replacements never mix: the links end as exactly one request's set", async () => {
    const fx = await fixture();
    const extra = [];
    for (const name of ["C", "D", "E"]) extra.push((await createEntity(owner.token, fx.timelineId, { name })).id as number);
    const all = [fx.entityId, fx.otherEntityId, ...extra];
    const sets = [all.slice(0, 2), all.slice(2), [all[0], all[4]], [], [all[1], all[2], all[3]]].map((x) => [...x].sort((a, b) => a - b));
    const results = await Promise.all(
      sets.map((entityIds) => call("PATCH", `/api/events/${fx.eventId}`, { token: owner.token, body: { entityIds } })),
    );
    for (const [i, r] of results.entries()) expect(r.json.entityIds).toEqual(sets[i]);
    const stored = await env.DB.prepare("SELECT entity_id FROM event_entities WHERE event_id = ? ORDER BY 1")
      .bind(fx.eventId)
      .all<{ entity_id: number }>();
    expect(sets).toContainEqual(stored.results.map((r) => r.entity_id));
  });

  it("deleting an entity removes its links and clears a POV on it; other links stay", async () => {
    const fx = await fixture();
    await call("PATCH", `/api/events/${fx.eventId}`, {
      token: owner.token,
      body: { entityIds: [fx.entityId, fx.otherEntityId], povEntityId: fx.entityId },
    });
    const res = await call("DELETE", `/api/entities/${fx.entityId}`, { token: owner.token });
    expect(res.status).toBe(200);
    const events = (await call("GET", `/api/timelines/${fx.timelineId}/events`, { token: owner.token })).json;
    expect(events[0]).toMatchObject({ id: fx.eventId, entityIds: [fx.otherEntityId], povEntityId: null });
    const n = await env.DB.prepare("SELECT count(*) AS n FROM event_entities WHERE entity_id = ?").bind(fx.entityId).first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("an event purged from Trash loses its links; a purged timeline loses its codex and links", async () => {
    const fx = await fixture();
    const keep = await fixture();
    const links = (sql: string, id: number) =>
      env.DB.prepare(sql)
        .bind(id)
        .first<{ n: number }>()
        .then((r) => r!.n);
    expect((await call("DELETE", `/api/events/${fx.eventId}`, { token: owner.token })).status).toBe(200);
    // In Trash the links wait for a restore; the purge after 30 days takes them.
    expect(await links("SELECT count(*) AS n FROM event_entities WHERE event_id = ?", fx.eventId)).toBe(1);
    await purgeTrash(createDb(env.DB), { files: env.FILES }, Date.now() + 31 * DAY);
    expect(await links("SELECT count(*) AS n FROM event_entities WHERE event_id = ?", fx.eventId)).toBe(0);
    expect(await links("SELECT count(*) AS n FROM entities WHERE timeline_id = ?", fx.timelineId)).toBe(2);

    const ev = await createEvent(owner.token, fx.timelineId, { entityIds: [fx.entityId, fx.otherEntityId] });
    expect((await call("DELETE", `/api/timelines/${fx.timelineId}`, { token: owner.token })).status).toBe(200);
    await purgeTrash(createDb(env.DB), { files: env.FILES }, Date.now() + 31 * DAY);
    expect(await links("SELECT count(*) AS n FROM entities WHERE timeline_id = ?", fx.timelineId)).toBe(0);
    expect(await links("SELECT count(*) AS n FROM event_entities WHERE event_id = ?", ev.id)).toBe(0);
    expect(await links("SELECT count(*) AS n FROM event_entities WHERE event_id = ?", keep.eventId)).toBe(1);
    expect(await links("SELECT count(*) AS n FROM entities WHERE timeline_id = ?", keep.timelineId)).toBe(2);
  });
});

describe("story time", () => {
  it("validates dates and ranges with clear messages, changing nothing", async () => {
    const fx = await fixture();
    const path = `/api/events/${fx.eventId}`;
    await call("PATCH", path, { token: owner.token, body: { storyStart: "2024-03-15", storyEnd: "2024-03-20" } });
    const before = await snapshot(fx.timelineId);
    const cases: Array<[unknown, string]> = [
      [{ storyStart: "Smarch 2024" }, "Story start must be a date like 13 October 2031, 9:00"],
      [{ storyStart: "1234567" }, "Story start must be a date like 13 October 2031, 9:00"],
      [{ storyStart: 2024 }, "Story start must be a date written as text"],
      [{ storyStart: "2024-13" }, "Start has a month outside 01-12"],
      [{ storyStart: "2023-02-29" }, "Start has a day that month does not have"],
      [{ storyStart: "2024-01-01T24:00" }, "Start has an hour outside 00-23"],
      [{ storyEnd: "2024-01-01T10:60" }, "End has a minute outside 00-59"],
      [{ storyEnd: "2024-04-31" }, "End has a day that month does not have"],
      [{ storyStart: "2024-03-15", storyEnd: "2024-03-14" }, END],
      [{ storyEnd: "2024-02" }, END], // against the stored start
      [{ storyStart: "2024-03-21" }, END], // against the stored end
      [{ storyStart: "-449", storyEnd: "-450" }, END],
      [{ storyStart: null }, "An end needs a start"],
      [{ storyLabel: "x".repeat(101) }, "Story label must be 100 characters or less"],
    ];
    for (const [body, error] of cases) {
      const res = await call("PATCH", path, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json, JSON.stringify(body)).toEqual({ error });
    }
    const create = await call("POST", `/api/timelines/${fx.timelineId}/events`, {
      token: owner.token,
      body: { title: "X", content: "Y", storyEnd: "2024" },
    });
    expect(create.json).toEqual({ error: "An end needs a start" });
    expect(await snapshot(fx.timelineId)).toBe(before);

    // A less precise end may close a range; empty strings and null clear.
    const ok = await call("PATCH", path, { token: owner.token, body: { storyEnd: "2024-03", storyLabel: "Ides" } });
    expect(ok.json).toMatchObject({ storyStart: "2024-03-15", storyEnd: "2024-03", storyLabel: "Ides", version: 1 });
    const clear = await call("PATCH", path, { token: owner.token, body: { storyStart: "", storyEnd: null, storyLabel: "" } });
    expect(clear.json).toMatchObject({ storyStart: null, storyEnd: null, storyLabel: null });
  });

  it("?order=chronological sorts true story time, undated last, then position; default stays by position", async () => {
    const tl = await createTimeline(owner.token);
    const starts = [
      "2024-03-15",
      null,
      "10231-01-02T06:30",
      "-450",
      "2024-03",
      "-9",
      null,
      "9999-12-31",
      "100000",
      "2024-03-15",
      "-450-06-01T12:00",
      "2024",
    ];
    const made = [];
    for (const [i, storyStart] of starts.entries()) {
      made.push(await createEvent(owner.token, tl.id, { title: `E${i}`, ...(storyStart && { storyStart }) }));
    }
    // A move changes the tie order of the two 2024-03-15 events and of the undated ones.
    await call("PATCH", `/api/events/${made[9].id}`, { token: owner.token, body: { position: 0 } });
    await call("PATCH", `/api/events/${made[6].id}`, { token: owner.token, body: { position: 1 } });
    const chrono = await call("GET", `/api/timelines/${tl.id}/events?order=chronological`, { token: owner.token });
    expect(chrono.status).toBe(200);
    expect(chrono.json.map((e: { title: string }) => e.title)).toEqual([
      "E3",
      "E10",
      "E5",
      "E11",
      "E4",
      "E9",
      "E0",
      "E7",
      "E2",
      "E8",
      "E6",
      "E1",
    ]);
    const byPosition = await call("GET", `/api/timelines/${tl.id}/events?order=position`, { token: owner.token });
    // The browser's rule (its lists sort what they hold) gives the database's order.
    expect(sortChronologically(byPosition.json as EventView[]).map((e) => e.title)).toEqual(
      chrono.json.map((e: { title: string }) => e.title),
    );
    const plain = await call("GET", `/api/timelines/${tl.id}/events`, { token: owner.token });
    expect(plain.json).toEqual(byPosition.json);
    expect(plain.json.map((e: { position: number }) => e.position)).toEqual(starts.map((_, i) => i));
    // Changing a date reorders.
    await call("PATCH", `/api/events/${made[8].id}`, { token: owner.token, body: { storyStart: "-100000" } });
    const again = await call("GET", `/api/timelines/${tl.id}/events?order=chronological`, { token: owner.token });
    expect(again.json[0].title).toBe("E8");
    const bad = await call("GET", `/api/timelines/${tl.id}/events?order=story`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "Order must be position or chronological" });
  });
});

type Msg = { type: string; [k: string]: any };

/** Opens a room socket (as tests/integration/room.test.ts does) and records every server message. */
async function connect(timelineId: number, token: string) {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}/ws/${timelineId}`, { headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` } });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const messages: Msg[] = [];
  ws.addEventListener("message", (e) => messages.push(JSON.parse(String(e.data))));
  ws.accept();
  const waitFor = async (pred: (m: Msg) => boolean, label: string) => {
    const start = Date.now();
    while (Date.now() - start < 3000) {
      const hit = messages.find(pred);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`timed out waiting for ${label}; got ${JSON.stringify(messages)}`);
  };
  return { ws, messages, waitFor, clear: () => messages.splice(0) };
}

describe("live: codex writes and link/date changes tell the room once", () => {
  it("sync + one notification to others for entity add, edit, delete and an event's links and dates", async () => {
    const fx = await fixture();
    const o = await connect(fx.timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence", "presence");
    const c = await connect(fx.timelineId, collaborator.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2, "both present");
    await new Promise((r) => setTimeout(r, 50));

    const steps: Array<[string, string, string, unknown, string]> = [
      [
        "POST",
        `/api/timelines/${fx.timelineId}/entities`,
        "entity-added",
        { kind: "place", name: "Lighthouse" },
        'Cora added "Lighthouse" to the codex',
      ],
      ["PATCH", `/api/entities/${fx.otherEntityId}`, "entity-edited", { name: "Old Harbor" }, 'Cora edited "Old Harbor" in the codex'],
      ["PATCH", `/api/events/${fx.eventId}`, "edited", { entityIds: [fx.entityId, fx.otherEntityId] }, 'Cora edited "Arrival"'],
      ["PATCH", `/api/events/${fx.eventId}`, "edited", { storyStart: "-450", storyEnd: "-449" }, 'Cora edited "Arrival"'],
    ];
    for (const [method, path, type, body, message] of steps) {
      o.clear();
      c.clear();
      const res = await call(method, path, { token: collaborator.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      const n = await o.waitFor((m) => m.type === "notification" && m.notification.type === type, type);
      expect(n.notification.message).toBe(message);
      await o.waitFor((m) => m.type === "sync", `sync after ${type}`);
      await c.waitFor((m) => m.type === "sync", `sync to the actor's socket after ${type}`);
      await new Promise((r) => setTimeout(r, 50));
      expect(o.messages.filter((m) => m.type === "sync")).toHaveLength(1);
      expect(o.messages.filter((m) => m.type === "notification")).toHaveLength(1);
      expect(c.messages.some((m) => m.type === "notification")).toBe(false);
    }

    o.clear();
    c.clear();
    expect((await call("DELETE", `/api/entities/${fx.entityId}`, { token: owner.token })).status).toBe(200);
    const n = await c.waitFor((m) => m.type === "notification", "entity-deleted");
    expect(n.notification).toMatchObject({
      type: "entity-deleted",
      title: "Codex updated",
      message: 'Olive removed "Mara" from the codex',
    });
    await c.waitFor((m) => m.type === "sync", "sync after delete");

    // A refused write tells nobody.
    o.clear();
    c.clear();
    expect(
      (await call("POST", `/api/timelines/${fx.timelineId}/entities`, { token: viewer.token, body: { kind: "thing", name: "Nope" } }))
        .status,
    ).toBe(403);
    await new Promise((r) => setTimeout(r, 100));
    expect([...o.messages, ...c.messages].filter((m) => m.type !== "presence")).toEqual([]);
    o.ws.close();
    c.ws.close();
  });
});
