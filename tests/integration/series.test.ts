import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { purgeExpired } from "../../worker/services/purge";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith } from "./helpers";

// Series: books sharing one codex; what a writer may read is still decided per book.

async function entity(token: string, timelineId: number, body: Record<string, unknown>) {
  const res = await call("POST", `/api/timelines/${timelineId}/entities`, { token, body: { kind: "character", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number; name: string };
}

const names = async (token: string, timelineId: number) => {
  const res = await call("GET", `/api/timelines/${timelineId}/entities`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.json as { name: string }[]).map((e) => e.name);
};

/** A premium writer with two books: 'Mara' in book 1, 'mara' (merged by name) and 'Oslo' in book 2, each linked. */
async function twoBooks() {
  const owner = await registerUser({ name: "Sia Series" });
  await makePremium(owner.user.id);
  const one = await createTimeline(owner.token, { title: "The First" });
  const two = await createTimeline(owner.token, { title: "The Second" });
  const mara = await entity(owner.token, one.id, { name: "Mara", description: "" });
  const mara2 = await entity(owner.token, two.id, { name: "mara", description: "A pilot.", aliases: ["M"] });
  const oslo = await entity(owner.token, two.id, { kind: "place", name: "Oslo" });
  const e1 = await createEvent(owner.token, one.id, { title: "Arrival", content: "one two three", entityIds: [mara.id] });
  const e2 = await createEvent(owner.token, two.id, {
    title: "Return",
    content: "four five",
    entityIds: [mara2.id, oslo.id],
    povEntityId: mara2.id,
  });
  return { owner, one, two, mara, mara2, oslo, e1, e2 };
}

/** A scene as the timeline's events list shows it (id 0: its first). */
async function sceneOf(token: string, timelineId: number, eventId: number) {
  const res = await call("GET", `/api/timelines/${timelineId}/events`, { token });
  expect(res.status, res.text).toBe(200);
  const list = (Array.isArray(res.json) ? res.json : res.json.events) as { id: number; entityIds: number[]; povEntityId: number | null }[];
  const scene = eventId ? list.find((e) => e.id === eventId) : list[0];
  if (!scene) throw new Error(`no scene ${eventId} in ${res.text}`);
  return scene;
}

async function createSeries(token: string, title: string, timelineIds: number[]) {
  const res = await call("POST", "/api/series", { token, body: { title, timelineIds } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number; title: string; timelines: { id: number; title: string; position: number; wordCount: number }[] };
}

describe("series", () => {
  it("creates a series whose codex every book lists; a same-named entry merges and its links move, nothing lost", async () => {
    const { owner, one, two, mara, mara2, oslo, e2 } = await twoBooks();
    const series = await createSeries(owner.token, "  The Saga  ", [one.id, two.id]);
    expect(series).toEqual({
      id: expect.any(Number),
      title: "The Saga",
      timelines: [
        { id: one.id, title: "The First", position: 1, wordCount: 3 },
        { id: two.id, title: "The Second", position: 2, wordCount: 2 },
      ],
    });
    expect((await call("GET", `/api/series/${series.id}`, { token: owner.token })).json).toEqual(series);

    expect(await names(owner.token, one.id)).toEqual(["Mara", "Oslo"]);
    expect(await names(owner.token, two.id)).toEqual(["Mara", "Oslo"]);
    const list = (await call("GET", `/api/timelines/${two.id}/entities`, { token: owner.token })).json;
    const merged = list.find((e: { name: string }) => e.name === "Mara");
    expect(merged).toMatchObject({ id: mara.id, description: "A pilot.", aliases: ["M", "mara"] });
    expect((await call("PATCH", `/api/entities/${mara2.id}`, { token: owner.token, body: { name: "x" } })).status).toBe(404);

    const scene = await sceneOf(owner.token, two.id, e2.id);
    expect(scene.entityIds.sort()).toEqual([mara.id, oslo.id].sort());
    expect(scene.povEntityId).toBe(mara.id);

    // A character created in book 1 is in book 2: listed, linkable from its scenes, on its map.
    const kit = await entity(owner.token, one.id, { name: "Kit" });
    expect(await names(owner.token, two.id)).toEqual(["Kit", "Mara", "Oslo"]);
    const linked = await call("PATCH", `/api/events/${e2.id}`, { token: owner.token, body: { entityIds: [kit.id], povEntityId: kit.id } });
    expect(linked.status, linked.text).toBe(200);
    expect(linked.json).toMatchObject({ entityIds: [kit.id], povEntityId: kit.id });
    const map = (await call("GET", `/api/timelines/${two.id}/map`, { token: owner.token })).json;
    expect(JSON.stringify(map)).toContain('"Kit"');
    // Edited from book 2, it changes for book 1.
    expect((await call("PATCH", `/api/entities/${kit.id}`, { token: owner.token, body: { description: "A thief." } })).status).toBe(200);
    const inOne = (await call("GET", `/api/timelines/${one.id}/entities`, { token: owner.token })).json;
    expect(inOne.find((e: { id: number }) => e.id === kit.id).description).toBe("A thief.");

    // Another timeline outside the series cannot link a series entry.
    const other = await createTimeline(owner.token, { title: "Standalone" });
    const outside = await call("POST", `/api/timelines/${other.id}/events`, {
      token: owner.token,
      body: { title: "X", entityIds: [kit.id] },
    });
    expect(outside.status).toBe(400);
  });

  it("access stays per book: a collaborator of book 1 sees book 1 only; a removed collaborator and strangers get 404", async () => {
    const { owner, one, two, mara } = await twoBooks();
    const series = await createSeries(owner.token, "Shared", [one.id, two.id]);
    const collab = await registerUser({ name: "Cole Collab" });
    const stranger = await registerUser({ name: "Stan Stranger" });
    await shareWith(one.id, owner.user.id, collab.user.id, "collaborator");

    const seen = await call("GET", `/api/series/${series.id}`, { token: collab.token });
    expect(seen.status).toBe(200);
    expect(seen.json.timelines.map((b: { id: number }) => b.id)).toEqual([one.id]);
    // Oslo is book 2's alone (created and linked there): not for a reader of book 1.
    expect(await names(collab.token, one.id)).toEqual(["Mara"]);
    expect((await call("GET", `/api/timelines/${two.id}/entities`, { token: collab.token })).status).toBe(404);
    expect((await call("GET", `/api/timelines/${two.id}/events`, { token: collab.token })).status).toBe(404);
    expect((await call("PATCH", `/api/entities/${mara.id}`, { token: collab.token, body: { description: "Edited" } })).status).toBe(200);
    expect((await call("DELETE", `/api/entities/${mara.id}`, { token: collab.token })).status).toBe(403);
    expect((await call("PATCH", `/api/series/${series.id}`, { token: collab.token, body: { title: "Mine" } })).status).toBe(403);

    for (const token of [stranger.token]) {
      expect(await call("GET", `/api/series/${series.id}`, { token })).toMatchObject({ status: 404, json: { error: "Series not found" } });
      expect((await call("PATCH", `/api/entities/${mara.id}`, { token, body: { name: "Hacked" } })).status).toBe(404);
      expect((await call("PATCH", `/api/series/${series.id}`, { token, body: { title: "Hacked" } })).status).toBe(404);
    }

    const removed = await call("DELETE", `/api/timelines/${one.id}/shares/${collab.user.id}`, { token: owner.token });
    expect(removed.status, removed.text).toBe(200);
    expect(await call("GET", `/api/series/${series.id}`, { token: collab.token })).toMatchObject({
      status: 404,
      json: { error: "Series not found" },
    });
    expect((await call("GET", `/api/timelines/${one.id}/entities`, { token: collab.token })).status).toBe(404);
    expect((await call("PATCH", `/api/entities/${mara.id}`, { token: collab.token, body: { name: "Gone" } })).status).toBe(404);
    expect((await call("GET", "/api/series/1", {})).status).toBe(401);
  });

  it("refuses another writer's timeline, forged ids, a book of another series and bad bodies: 4xx, never 500", async () => {
    const { owner, one, two } = await twoBooks();
    const other = await registerUser({ name: "Oda Other" });
    const theirs = await createTimeline(other.token, { title: "Theirs" });
    const post = (body: unknown, token = owner.token) => call("POST", "/api/series", { token, body });

    expect(await post({ title: "S", timelineIds: [one.id, theirs.id] })).toMatchObject({
      status: 404,
      json: { error: "Timeline not found" },
    });
    expect(await post({ title: "S", timelineIds: [999999999] })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    await shareWith(theirs.id, other.user.id, owner.user.id, "collaborator");
    expect((await post({ title: "S", timelineIds: [theirs.id] })).status).toBe(404);

    const bad: [unknown, string][] = [
      [{}, "Please enter a series title"],
      [{ title: "   ", timelineIds: [one.id] }, "Please enter a series title"],
      [{ title: "x".repeat(201), timelineIds: [one.id] }, "Series titles can be at most 200 characters"],
      [{ title: "S" }, "Choose between 1 and 50 of your timelines"],
      [{ title: "S", timelineIds: [] }, "Choose between 1 and 50 of your timelines"],
      [{ title: "S", timelineIds: "1" }, "Choose between 1 and 50 of your timelines"],
      [{ title: "S", timelineIds: [1.5] }, "Choose one of your timelines"],
      [{ title: "S", timelineIds: [-3] }, "Choose one of your timelines"],
      [{ title: 7, timelineIds: [one.id] }, "Please enter a series title"],
    ];
    for (const [body, error] of bad) expect(await post(body), JSON.stringify(body)).toMatchObject({ status: 400, json: { error } });
    const notJson = await call("POST", "/api/series", {
      token: owner.token,
      rawBody: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect((await post([1, 2])).status).toBe(400);

    const series = await createSeries(owner.token, "First", [one.id]);
    expect(await post({ title: "Second", timelineIds: [two.id, one.id] })).toMatchObject({
      status: 400,
      json: { error: '"The First" is already in another series: remove it from that one first' },
    });
    for (const path of ["/api/series/abc", "/api/series/0", "/api/series/99999999999", "/api/series/1e3"]) {
      expect((await call("GET", path, { token: owner.token })).status, path).toBe(404);
    }
    expect((await call("GET", `/api/series/${series.id}`, { token: other.token })).status).toBe(404);
    expect((await call("POST", `/api/series/${series.id}/books`, { token: other.token, body: { timelineId: theirs.id } })).status).toBe(
      404,
    );
    expect((await call("POST", `/api/series/${series.id}/books`, { token: owner.token, body: { timelineId: theirs.id } })).status).toBe(
      404,
    );
    expect((await call("POST", `/api/series/${series.id}/books`, { token: owner.token, body: { timelineId: "x" } })).status).toBe(400);
    expect((await call("PATCH", `/api/series/${series.id}`, { token: owner.token, body: {} })).status).toBe(400);
    expect((await call("PATCH", `/api/series/${series.id}`, { token: owner.token, body: { timelineIds: [two.id] } })).status).toBe(400);
  });

  it("adds a book, reorders, renames and lists the writer's series", async () => {
    const { owner, one, two } = await twoBooks();
    const series = await createSeries(owner.token, "Saga", [one.id]);
    const added = await call("POST", `/api/series/${series.id}/books`, { token: owner.token, body: { timelineId: two.id } });
    expect(added.status, added.text).toBe(200);
    expect(added.json.timelines.map((b: { id: number; position: number }) => [b.id, b.position])).toEqual([
      [one.id, 1],
      [two.id, 2],
    ]);
    expect(await names(owner.token, one.id)).toEqual(["Mara", "Oslo"]);
    expect((await call("POST", `/api/series/${series.id}/books`, { token: owner.token, body: { timelineId: two.id } })).json).toEqual({
      error: '"The Second" is already in this series',
    });
    const patched = await call("PATCH", `/api/series/${series.id}`, {
      token: owner.token,
      body: { title: "Saga II", timelineIds: [two.id, one.id] },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({
      title: "Saga II",
      timelines: [
        { id: two.id, position: 1 },
        { id: one.id, position: 2 },
      ],
    });
    const mine = (await call("GET", "/api/series", { token: owner.token })).json;
    expect(mine).toEqual([patched.json]);
  });

  it("an import joins a series the writer owns, its codex merged by name; another writer's series is 404 and creates nothing", async () => {
    const { owner, one, two, mara } = await twoBooks();
    const series = await createSeries(owner.token, "Saga", [one.id, two.id]);
    const exported = await call("GET", `/api/timelines/${two.id}/export?format=json`, { token: owner.token });
    expect(exported.status).toBe(200);
    const doc = JSON.parse(exported.text);
    doc.timeline.title = "The Third";
    doc.entities.push({ ...doc.entities[0], name: "Nell", aliases: [] });
    const imported = await call("POST", `/api/timelines/import?seriesId=${series.id}`, {
      token: owner.token,
      rawBody: JSON.stringify(doc),
      headers: { "Content-Type": "application/json" },
    });
    expect(imported.status, imported.text).toBe(201);
    const got = (await call("GET", `/api/series/${series.id}`, { token: owner.token })).json;
    expect(got.timelines.map((b: { title: string; position: number }) => [b.title, b.position])).toEqual([
      ["The First", 1],
      ["The Second", 2],
      ["The Third", 3],
    ]);
    expect(await names(owner.token, imported.json.id)).toEqual(["Mara", "Nell", "Oslo"]);
    expect(await names(owner.token, one.id)).toEqual(["Mara", "Nell", "Oslo"]);
    const scene = await sceneOf(owner.token, imported.json.id, 0);
    expect(scene.entityIds).toContain(mara.id);

    const other = await registerUser({ name: "Ike Importer" });
    const before = await env.DB.prepare("SELECT count(*) AS n FROM timelines WHERE user_id = ?").bind(other.user.id).first<{ n: number }>();
    for (const query of [`?seriesId=${series.id}`, "?seriesId=abc", "?seriesId=99999999"]) {
      const refused = await call("POST", `/api/timelines/import${query}`, {
        token: other.token,
        rawBody: JSON.stringify(doc),
        headers: { "Content-Type": "application/json" },
      });
      expect(refused, query).toMatchObject({ status: 404, json: { error: "Series not found" } });
    }
    const after = await env.DB.prepare("SELECT count(*) AS n FROM timelines WHERE user_id = ?").bind(other.user.id).first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("a purged book leaves the series' codex whole: entries created in it move to a book that is left", async () => {
    const { owner, one, two, mara } = await twoBooks();
    const series = await createSeries(owner.token, "Saga", [one.id, two.id]);
    expect((await call("DELETE", `/api/timelines/${one.id}`, { token: owner.token })).status).toBe(200);
    const trashed = (await call("GET", `/api/series/${series.id}`, { token: owner.token })).json;
    expect(trashed.timelines.map((b: { id: number }) => b.id)).toEqual([two.id]);
    await purgeExpired(createDb(env.DB), Date.now() + 31 * 24 * 3600_000, { files: env.FILES });
    expect(await env.DB.prepare("SELECT id FROM timelines WHERE id = ?").bind(one.id).first()).toBeNull();
    // The purge a month on also ended the session: sign in again.
    const login = await call("POST", "/api/auth/login", { body: { email: owner.email, password: owner.password } });
    expect(login.status, login.text).toBe(200);
    const token = login.json.token as string;
    expect(await names(token, two.id)).toEqual(["Mara", "Oslo"]);
    const scene = await sceneOf(token, two.id, 0);
    expect(scene.povEntityId).toBe(mara.id);
  });
});
