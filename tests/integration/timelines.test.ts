import { env } from "cloudflare:workers";
import { createDb } from "../../db/client";
import { purgeTrash } from "../../worker/services/trash";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith, type User } from "./helpers";

type Role = "owner" | "collaborator" | "viewer" | "stranger" | "anonymous";
const ROLES: Role[] = ["owner", "collaborator", "viewer", "stranger", "anonymous"];

const OWNER_ONLY = "Only the owner of this timeline can do that";
const VIEW_ONLY = "You have view-only access to this timeline";
const FREE_LIMIT = "Free plan is limited to 3 timelines. Upgrade to Premium for unlimited timelines.";
const CONFLICT = "This event was changed by someone else since you started editing.";

/** A simple seeded PRNG (mulberry32), so a failing run can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const count = async (table: string, timelineId: number) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE timeline_id = ?`).bind(timelineId).first<{ n: number }>())!.n;

/** Everything a request could change about one timeline, to prove refused writes change nothing. */
async function snapshot(timelineId: number) {
  const tl = await env.DB.prepare("SELECT title, description, deleted_at FROM timelines WHERE id = ?").bind(timelineId).first();
  const evs = await env.DB.prepare("SELECT id, title, content, position, version, deleted_at FROM events WHERE timeline_id = ? ORDER BY id")
    .bind(timelineId)
    .all();
  return JSON.stringify({ tl, evs: evs.results });
}

async function eventIds(token: string, timelineId: number) {
  const res = await call("GET", `/api/timelines/${timelineId}/events`, { token });
  expect(res.status).toBe(200);
  return res.json as Array<{ id: number; position: number; title: string }>;
}

let owner: User, collaborator: User, viewer: User, stranger: User;
const tokenOf = (role: Role) => ({ owner, collaborator, viewer, stranger, anonymous: undefined })[role]?.token;

beforeAll(async () => {
  [owner, collaborator, viewer, stranger] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()]);
  await makePremium(owner.user.id); // the matrix creates one timeline per case
});

/** A fresh timeline with two events, shared with the collaborator and the viewer. */
async function fixture() {
  const tl = await createTimeline(owner.token, { title: "Matrix" });
  const first = await createEvent(owner.token, tl.id, { title: "First" });
  const second = await createEvent(owner.token, tl.id, { title: "Second" });
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  return { timelineId: tl.id as number, eventId: first.id as number, otherEventId: second.id as number };
}

type Fx = Awaited<ReturnType<typeof fixture>>;
type Endpoint = {
  name: string;
  req: (fx: Fx) => { method: string; path: string; body?: unknown };
  expect: Record<Role, number>;
  need: "viewer" | "collaborator" | "owner";
  missing: string;
};
const statuses = (owner: number, collaborator: number, viewer: number): Record<Role, number> => ({
  owner,
  collaborator,
  viewer,
  stranger: 404,
  anonymous: 401,
});
const T = "Timeline not found";
const E = "Event not found";
const ENDPOINTS: Endpoint[] = [
  {
    name: "GET timeline",
    req: (f) => ({ method: "GET", path: `/api/timelines/${f.timelineId}` }),
    expect: statuses(200, 200, 200),
    need: "viewer",
    missing: T,
  },
  {
    name: "PATCH timeline",
    req: (f) => ({ method: "PATCH", path: `/api/timelines/${f.timelineId}`, body: { title: "Renamed" } }),
    expect: statuses(200, 403, 403),
    need: "owner",
    missing: T,
  },
  {
    name: "DELETE timeline",
    req: (f) => ({ method: "DELETE", path: `/api/timelines/${f.timelineId}` }),
    expect: statuses(200, 403, 403),
    need: "owner",
    missing: T,
  },
  {
    name: "GET events",
    req: (f) => ({ method: "GET", path: `/api/timelines/${f.timelineId}/events` }),
    expect: statuses(200, 200, 200),
    need: "viewer",
    missing: T,
  },
  {
    name: "POST event",
    req: (f) => ({ method: "POST", path: `/api/timelines/${f.timelineId}/events`, body: { title: "New", content: "Body" } }),
    expect: statuses(201, 201, 403),
    need: "collaborator",
    missing: T,
  },
  {
    name: "PATCH event title",
    req: (f) => ({ method: "PATCH", path: `/api/events/${f.eventId}`, body: { title: "Edited" } }),
    expect: statuses(200, 200, 403),
    need: "collaborator",
    missing: E,
  },
  {
    name: "PATCH event content",
    req: (f) => ({ method: "PATCH", path: `/api/events/${f.eventId}`, body: { content: "Edited body" } }),
    expect: statuses(200, 200, 403),
    need: "collaborator",
    missing: E,
  },
  {
    name: "PATCH event position",
    req: (f) => ({ method: "PATCH", path: `/api/events/${f.eventId}`, body: { position: 1 } }),
    expect: statuses(200, 200, 403),
    need: "collaborator",
    missing: E,
  },
  {
    name: "DELETE event",
    req: (f) => ({ method: "DELETE", path: `/api/events/${f.eventId}` }),
    expect: statuses(200, 403, 403),
    need: "owner",
    missing: E,
  },
];

describe("access matrix: endpoint × role", () => {
  const cases = ENDPOINTS.flatMap((ep) => ROLES.map((role) => ({ ep, role, status: ep.expect[role] })));
  it.each(cases)("$ep.name as $role → $status", async ({ ep, role, status }) => {
    const fx = await fixture();
    const before = await snapshot(fx.timelineId);
    const { method, path, body } = ep.req(fx);
    const res = await call(method, path, { token: tokenOf(role), body });
    expect(res.status, res.text).toBe(status);
    if (status === 401) expect(res.json).toEqual({ error: "Not authenticated" });
    if (status === 404) expect(res.json).toEqual({ error: ep.missing });
    if (status === 403) expect(res.json).toEqual({ error: ep.need === "owner" ? OWNER_ONLY : VIEW_ONLY });
    // Reads and refused writes leave the timeline untouched; allowed writes change it.
    const changed = (await snapshot(fx.timelineId)) !== before;
    expect(changed).toBe(method !== "GET" && status < 300);
  });

  it("GET/POST /api/timelines: any signed-in user 200/201, anonymous 401", async () => {
    for (const role of ROLES) {
      const list = await call("GET", "/api/timelines", { token: tokenOf(role) });
      const made = await call("POST", "/api/timelines", { token: tokenOf(role), body: { title: `By ${role}` } });
      expect([list.status, made.status], role).toEqual(role === "anonymous" ? [401, 401] : [200, 201]);
      if (role === "anonymous") expect(made.json).toEqual({ error: "Not authenticated" });
      else expect(made.json).toMatchObject({ title: `By ${role}`, isOwner: true, accessLevel: "owner", isShared: false });
    }
  });

  it("non-numeric, zero, negative and unknown ids are 404", async () => {
    const paths: Array<[string, string, string, unknown?]> = [
      ["GET", "/api/timelines/abc", T],
      ["GET", "/api/timelines/1.5", T],
      ["GET", "/api/timelines/0", T],
      ["GET", "/api/timelines/-3", T],
      ["GET", "/api/timelines/99999999", T],
      ["GET", "/api/timelines/1e3/events", T],
      ["PATCH", "/api/timelines/abc", T, { title: "x" }],
      ["DELETE", "/api/timelines/abc", T],
      ["POST", "/api/timelines/abc/events", T, { title: "x", content: "y" }],
      ["PATCH", "/api/events/abc", E, { title: "x" }],
      ["DELETE", "/api/events/x1", E],
      ["DELETE", "/api/events/99999999", E],
    ];
    for (const [method, path, error, body] of paths) {
      const res = await call(method, path, { token: owner.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json, `${method} ${path}`).toEqual({ error });
    }
  });
});

describe("GET /api/timelines listing", () => {
  it("lists own + shared-with-me with isShared / isOwner / accessLevel; shareCode only for owners", async () => {
    const [a, b, c, d] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()]);
    const shared = await createTimeline(a.token, { title: "Shared one" });
    const solo = await createTimeline(a.token, { title: "Solo" });
    const bOwn = await createTimeline(b.token, { title: "B's own" });
    await shareWith(shared.id, a.user.id, b.user.id, "collaborator");
    await shareWith(shared.id, a.user.id, c.user.id, "viewer");

    const byId = async (u: User) =>
      new Map(((await call("GET", "/api/timelines", { token: u.token })).json as any[]).map((t) => [t.id, t]));
    const asA = await byId(a);
    expect([...asA.keys()].sort()).toEqual([shared.id, solo.id].sort());
    expect(asA.get(shared.id)).toMatchObject({ isOwner: true, isShared: true, accessLevel: "owner", userId: a.user.id });
    expect(asA.get(solo.id)).toMatchObject({ isOwner: true, isShared: false, accessLevel: "owner" });
    expect(asA.get(shared.id)).toHaveProperty("shareCode");

    const asB = await byId(b);
    expect([...asB.keys()].sort()).toEqual([shared.id, bOwn.id].sort());
    expect(asB.get(shared.id)).toMatchObject({ isOwner: false, isShared: true, accessLevel: "collaborator", title: "Shared one" });
    expect(asB.get(shared.id)).not.toHaveProperty("shareCode");
    expect(asB.get(bOwn.id)).toMatchObject({ isOwner: true, isShared: false, accessLevel: "owner" });

    const asC = await byId(c);
    expect([...asC.keys()]).toEqual([shared.id]);
    expect(asC.get(shared.id)).toMatchObject({ isOwner: false, isShared: true, accessLevel: "viewer" });
    expect(asC.get(shared.id)).not.toHaveProperty("shareCode");
    expect((await byId(d)).size).toBe(0);

    // The single-timeline endpoint agrees.
    const one = await call("GET", `/api/timelines/${shared.id}`, { token: c.token });
    expect(one.json).toMatchObject({ accessLevel: "viewer", isOwner: false, isShared: true });
    expect(one.json).not.toHaveProperty("shareCode");
    const mine = await call("GET", `/api/timelines/${shared.id}`, { token: a.token });
    expect(mine.json).toMatchObject({ accessLevel: "owner", isOwner: true, isShared: true });
    expect(mine.json).toHaveProperty("shareCode");
  });
});

describe("validation", () => {
  it("answers 400 {error} with SPEC wording", async () => {
    const tl = await createTimeline(owner.token);
    const ev = await createEvent(owner.token, tl.id);
    const long = "x".repeat(201);
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/api/timelines", {}, "Please enter a timeline title"],
      ["POST", "/api/timelines", { title: "   " }, "Please enter a timeline title"],
      ["POST", "/api/timelines", { title: long }, "Title must be at most 200 characters"],
      ["PATCH", `/api/timelines/${tl.id}`, { title: "" }, "Please enter a timeline title"],
      ["PATCH", `/api/timelines/${tl.id}`, { title: long }, "Title must be at most 200 characters"],
      ["POST", `/api/timelines/${tl.id}/events`, {}, "Please fill in both title and content"],
      ["POST", `/api/timelines/${tl.id}/events`, { title: " ", content: "body" }, "Please fill in both title and content"],
      ["POST", `/api/timelines/${tl.id}/events`, { title: "Title", content: "  " }, "Please fill in both title and content"],
      ["POST", `/api/timelines/${tl.id}/events`, { title: long, content: "body" }, "Title must be at most 200 characters"],
      ["PATCH", `/api/events/${ev.id}`, { title: "" }, "Please fill in both title and content"],
      ["PATCH", `/api/events/${ev.id}`, { content: " " }, "Please fill in both title and content"],
      ["PATCH", `/api/events/${ev.id}`, { title: long }, "Title must be at most 200 characters"],
      ["PATCH", `/api/events/${ev.id}`, { position: -1 }, "Position must be a whole number"],
      ["PATCH", `/api/events/${ev.id}`, { position: 1.5 }, "Position must be a whole number"],
      ["PATCH", `/api/events/${ev.id}`, {}, "Nothing to update"],
    ];
    for (const [method, path, body, error] of cases) {
      const res = await call(method, path, { token: owner.token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect(res.json).toEqual({ error });
    }
  });

  it("malformed JSON is a 400", async () => {
    const tl = await createTimeline(owner.token);
    const ev = await createEvent(owner.token, tl.id);
    for (const [method, path] of [
      ["POST", "/api/timelines"],
      ["PATCH", `/api/timelines/${tl.id}`],
      ["POST", `/api/timelines/${tl.id}/events`],
      ["PATCH", `/api/events/${ev.id}`],
    ]) {
      const res = await call(method, path, { token: owner.token, rawBody: "{oops" });
      expect(res.status, path).toBe(400);
      expect(res.json).toEqual({ error: "Invalid JSON in request body" });
    }
  });
});

describe("free plan limit", () => {
  it("refuses the 4th owned timeline with 403", async () => {
    const u = await registerUser();
    for (let i = 0; i < 3; i++) await createTimeline(u.token, { title: `T${i}` });
    const res = await call("POST", "/api/timelines", { token: u.token, body: { title: "Fourth" } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: FREE_LIMIT });
  });

  it("timelines shared with the user do not count", async () => {
    const [u, other] = await Promise.all([registerUser(), registerUser()]);
    for (let i = 0; i < 3; i++)
      await shareWith((await createTimeline(other.token)).id, other.user.id, u.user.id, i ? "viewer" : "collaborator");
    for (let i = 0; i < 3; i++) await createTimeline(u.token);
    expect((await call("POST", "/api/timelines", { token: u.token, body: { title: "Fourth" } })).status).toBe(403);
    expect((await call("GET", "/api/timelines", { token: u.token })).json).toHaveLength(6);
  });

  it("premium (no end date, or a future one) can create 5+; an expired premium counts as free", async () => {
    const [open, future, expired] = await Promise.all([registerUser(), registerUser(), registerUser()]);
    await makePremium(open.user.id, null);
    await makePremium(future.user.id, new Date(Date.now() + 7 * 86_400_000).toISOString());
    await makePremium(expired.user.id, new Date(Date.now() - 60_000).toISOString());
    for (const u of [open, future]) {
      for (let i = 0; i < 5; i++)
        expect((await call("POST", "/api/timelines", { token: u.token, body: { title: `P${i}` } })).status).toBe(201);
    }
    for (let i = 0; i < 3; i++) await createTimeline(expired.token);
    const res = await call("POST", "/api/timelines", { token: expired.token, body: { title: "Fourth" } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: FREE_LIMIT });
  });

  it("5 concurrent creates by a fresh free user: exactly 3 succeed", async () => {
    const u = await registerUser();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => call("POST", "/api/timelines", { token: u.token, body: { title: `Race ${i}` } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403]);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM timelines WHERE user_id = ?").bind(u.user.id).first<{ n: number }>();
    expect(n!.n).toBe(3);
  });
});

describe("event positions", () => {
  it("a new event gets position = current count, even when added concurrently", async () => {
    const tl = await createTimeline(owner.token);
    for (let i = 0; i < 3; i++) expect((await createEvent(owner.token, tl.id, { position: 42 })).position).toBe(i);
    await Promise.all(Array.from({ length: 5 }, (_, i) => createEvent(owner.token, tl.id, { title: `C${i}` })));
    expect((await eventIds(owner.token, tl.id)).map((e) => e.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("moving the last event to position 0 shifts the others down by one", async () => {
    const tl = await createTimeline(owner.token);
    const evs = [];
    for (const t of ["A", "B", "C", "D"]) evs.push(await createEvent(owner.token, tl.id, { title: t }));
    const res = await call("PATCH", `/api/events/${evs[3].id}`, { token: owner.token, body: { position: 0 } });
    expect(res.status).toBe(200);
    expect(res.json.position).toBe(0);
    const after = await eventIds(owner.token, tl.id);
    expect(after.map((e) => [e.title, e.position])).toEqual([
      ["D", 0],
      ["A", 1],
      ["B", 2],
      ["C", 3],
    ]);
  });

  it("stay 0..n-1 and match a model through 60 random create / move / delete operations", async () => {
    const rand = prng(20240607);
    const pick = (n: number) => Math.floor(rand() * n);
    const tl = await createTimeline(owner.token, { title: "Property" });
    const model: number[] = [];
    const log: string[] = [];
    for (let step = 0; step < 60; step++) {
      const r = model.length === 0 ? 0 : rand();
      if (r < 0.4) {
        const ev = await createEvent(owner.token, tl.id, { title: `E${step}` });
        expect(ev.position).toBe(model.length);
        model.push(ev.id);
        log.push(`create ${ev.id}`);
      } else if (r < 0.8) {
        const from = pick(model.length);
        const id = model[from];
        const to = rand() < 0.25 ? model.length + pick(1000) : pick(model.length);
        log.push(`move ${id} ${from}->${to}`);
        const res = await call("PATCH", `/api/events/${id}`, { token: owner.token, body: { position: to } });
        expect(res.status, log.join("; ")).toBe(200);
        const clamped = Math.min(to, model.length - 1);
        model.splice(from, 1);
        model.splice(clamped, 0, id);
        expect(res.json.position, log.join("; ")).toBe(clamped);
      } else {
        const [id] = model.splice(pick(model.length), 1);
        log.push(`delete ${id}`);
        expect((await call("DELETE", `/api/events/${id}`, { token: owner.token })).status).toBe(200);
      }
      const got = await eventIds(owner.token, tl.id);
      expect(
        got.map((e) => e.position),
        log.join("; "),
      ).toEqual(model.map((_, i) => i));
      expect(
        got.map((e) => e.id),
        log.join("; "),
      ).toEqual(model);
    }
  });
});

describe("deleting a timeline", () => {
  it("moves it to Trash; the purge then cascades to events, timeline_shares and notifications, and leaves other timelines alone", async () => {
    const tl = await createTimeline(owner.token, { title: "Doomed" });
    const keep = await createTimeline(owner.token, { title: "Keeper" });
    for (const t of [tl, keep]) {
      await createEvent(owner.token, t.id);
      await createEvent(owner.token, t.id);
      await shareWith(t.id, owner.user.id, collaborator.user.id, "collaborator");
      await env.DB.prepare(
        "INSERT INTO notifications (user_id, type, title, message, timeline_id) VALUES (?, 'share', 'Shared', 'A timeline was shared', ?)",
      )
        .bind(collaborator.user.id, t.id)
        .run();
    }
    const tables = ["events", "timeline_shares", "notifications"];
    for (const table of tables) expect(await count(table, tl.id), table).toBeGreaterThan(0);

    const res = await call("DELETE", `/api/timelines/${tl.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect((await call("GET", `/api/timelines/${tl.id}`, { token: owner.token })).status).toBe(404);
    await purgeTrash(createDb(env.DB), { files: env.FILES }, Date.now() + 31 * 24 * 3600_000);
    expect(await env.DB.prepare("SELECT id FROM timelines WHERE id = ?").bind(tl.id).first()).toBeNull();
    for (const table of tables) expect(await count(table, tl.id), table).toBe(0);
    expect([await count("events", keep.id), await count("timeline_shares", keep.id), await count("notifications", keep.id)]).toEqual([
      2, 1, 1,
    ]);
    expect((await call("GET", `/api/timelines/${tl.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe("edit conflicts (baseVersion)", () => {
  it("accepts the current version, bumps it, and refuses a stale one with 409 + current", async () => {
    const tl = await createTimeline(owner.token);
    await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
    const ev = await createEvent(owner.token, tl.id, { title: "Original" });
    expect(ev.version).toBe(1);

    const first = await call("PATCH", `/api/events/${ev.id}`, { token: collaborator.token, body: { title: "Newer", baseVersion: 1 } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ title: "Newer", version: 2 });

    const stale = await call("PATCH", `/api/events/${ev.id}`, { token: owner.token, body: { title: "Stale", baseVersion: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toBe(CONFLICT);
    expect(stale.json.current).toMatchObject({
      id: ev.id,
      timelineId: tl.id,
      title: "Newer",
      content: ev.content,
      version: 2,
      position: 0,
    });

    const blind = await call("PATCH", `/api/events/${ev.id}`, { token: owner.token, body: { content: "Overwritten" } });
    expect(blind.status).toBe(200);
    expect(blind.json).toMatchObject({ title: "Newer", content: "Overwritten", version: 3 });
    const again = await call("PATCH", `/api/events/${ev.id}`, { token: owner.token, body: { title: "Last word" } });
    expect(again.json).toMatchObject({ title: "Last word", version: 4 });
  });
});

describe("createdAt", () => {
  it("keeps a client ISO createdAt within a day and replaces garbage or far-off values with server time", async () => {
    const u = await registerUser();
    await makePremium(u.user.id);
    const recent = new Date(Date.now() - 6 * 3600_000).toISOString();
    expect((await createTimeline(u.token, { createdAt: recent })).createdAt).toBe(recent);
    for (const createdAt of ["not a date", "2001-01-01T00:00:00.000Z", new Date(Date.now() + 3 * 86_400_000).toISOString()]) {
      const before = Date.now();
      const tl = await createTimeline(u.token, { createdAt });
      const t = Date.parse(tl.createdAt);
      expect(t, createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(t, createdAt).toBeLessThanOrEqual(Date.now() + 1000);
      expect(tl.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });
});
