import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { purgeExpired } from "../../worker/services/purge";
import { versionStatements } from "../../worker/services/versions";
import { call, createEvent, createTimeline, makePremium, premiumOwnerWithTimeline, registerUser, shareByEmail, shareWith } from "./helpers";
import { type Msg, connect, sleep } from "./room-helpers";

const DAY = 24 * 60 * 60 * 1000;

async function freeOwnerWithEvent(overrides: Record<string, unknown> = {}) {
  const owner = await registerUser({ name: "Fay Free" });
  const timeline = await createTimeline(owner.token, { title: "History" });
  const event = await createEvent(owner.token, timeline.id, { title: "First", content: "One", ...overrides });
  return { owner, timelineId: timeline.id as number, event };
}

const list = (eventId: number, token?: string, share = "") => call("GET", `/api/events/${eventId}/versions${share}`, { token });

/** An old version row, as if it had been recorded `daysAgo` days ago. */
async function insertOldVersion(event: { id: number; timelineId: number }, authorId: number, daysAgo: number, title = "Ancient") {
  const createdAt = new Date(Date.now() - daysAgo * DAY).toISOString();
  const row = await env.DB.prepare(
    "INSERT INTO event_versions (event_id, timeline_id, author_id, author_name, title, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(event.id, event.timelineId, authorId, "Old Hand", title, "Long ago", createdAt)
    .first<{ id: number }>();
  return row!.id;
}

describe("recording versions", () => {
  it("creating records the first version; each text save records one; position, story fields and no-op saves record none", async () => {
    const { owner, timelineId, event } = await freeOwnerWithEvent();
    let res = await list(event.id, owner.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        id: expect.any(Number),
        createdAt: expect.any(String),
        authorId: owner.user.id,
        authorName: "Fay Free",
        title: "First",
        contentPreview: "One",
        name: null,
        wordCount: 1,
        wordDelta: null,
        titleChanged: false,
        restoredFrom: null,
      },
    ]);

    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { content: "Two" } })).status).toBe(200);
    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { title: "Second" } })).status).toBe(200);
    // Nothing of the text changes: no version.
    await createEvent(owner.token, timelineId, { title: "Other" });
    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { position: 1 } })).status).toBe(200);
    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { storyLabel: "Dawn" } })).status).toBe(200);
    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { title: "Second", content: "Two" } })).status).toBe(
      200,
    );
    // A refused (409) save records nothing either.
    const stale = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { content: "Lost", baseVersion: 1 } });
    expect(stale.status).toBe(409);

    res = await list(event.id, owner.token);
    expect(res.json.map((v: any) => [v.title, v.contentPreview])).toEqual([
      ["Second", "Two"],
      ["First", "Two"],
      ["First", "One"],
    ]);
    // Newest first.
    const times = res.json.map((v: any) => v.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("the preview shows no Markdown marks, collapses whitespace and stops near 140 characters; the full version has everything", async () => {
    const long = `## Line *one*\n\n   line   two ${"word ".repeat(60)}`;
    const { owner, event } = await freeOwnerWithEvent({ content: long });
    const [v] = (await list(event.id, owner.token)).json;
    expect(v.contentPreview.startsWith("Line one line two word")).toBe(true);
    expect(v.contentPreview.length).toBeLessThanOrEqual(140);
    const full = await call("GET", `/api/event-versions/${v.id}`, { token: owner.token });
    expect(full.status).toBe(200);
    expect(full.json).toEqual({
      id: v.id,
      eventId: event.id,
      createdAt: v.createdAt,
      authorId: owner.user.id,
      authorName: "Fay Free",
      title: "First",
      content: long.trim(),
      name: null,
    });
  });

  it("an import records each event's first version", async () => {
    const owner = await registerUser({ name: "Ivo Import" });
    const doc = {
      format: "storyweave-timeline",
      version: 1,
      timeline: { title: "Imported", description: "" },
      entities: [],
      events: [{ title: "Arrival", content: "They came", entities: [], pov: null, storyStart: null, storyEnd: null, storyLabel: null }],
    };
    const imported = await call("POST", "/api/timelines/import", { token: owner.token, body: doc });
    if (imported.status !== 201) return expect.soft(imported.status, imported.text).toBe(201);
    const events = await call("GET", `/api/timelines/${imported.json.id}/events`, { token: owner.token });
    const versions = (await list(events.json[0].id, owner.token)).json;
    expect(versions).toEqual([expect.objectContaining({ title: "Arrival", contentPreview: "They came", authorName: "Ivo Import" })]);
  });

  it("coalesceWithinMs merges the same author's saves within the window, not other authors' nor later ones", async () => {
    const { owner, event } = await freeOwnerWithEvent();
    const other = await registerUser({ name: "Otto Other" });
    const db = createDb(env.DB);
    // Well after the event's own first version (same author), so that one stays apart.
    const t0 = Date.now() + 10 * 60_000;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const record = async (author: any, content: string, ms: number) => {
      const [first, ...rest] = versionStatements(db, { eventId: event.id, author, content, coalesceWithinMs: 5 * 60_000, now: at(ms) });
      await db.batch([first, ...rest]);
    };
    await record(owner.user, "Live 1", 0);
    await record(owner.user, "Live 2", 60_000); // merged into Live 1's version
    await record(other.user, "Otto 1", 90_000); // another author: new version
    await record(other.user, "Otto 2", 120_000); // merged
    await record(owner.user, "Live 3", 150_000); // newest is Otto's: new version
    await record(owner.user, "Live 4", 150_000 + 5 * 60_000 + 1); // window passed: new version
    const rows = (await list(event.id, owner.token)).json.map((v: any) => [v.authorName, v.contentPreview, v.createdAt]);
    expect(rows).toEqual([
      ["Fay Free", "Live 4", at(150_000 + 5 * 60_000 + 1)],
      ["Fay Free", "Live 3", at(150_000)],
      ["Otto Other", "Otto 2", at(90_000)],
      ["Fay Free", "Live 2", at(0)],
      ["Fay Free", "One", expect.any(String)],
    ]);
    // Without the option, every call is its own version.
    const [first] = versionStatements(db, { eventId: event.id, author: owner.user, content: "Plain", now: at(150_000 + 5 * 60_000 + 2) });
    await db.batch([first]);
    expect((await list(event.id, owner.token)).json).toHaveLength(6);
  });
});

describe("restore", () => {
  it("brings back the version's text, bumps the event's version, records a new version and tells the room once", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser({ name: "Cora" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const event = await createEvent(owner.token, timelineId, { title: "Storm", content: "Rain" });
    const edited = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { title: "Calm", content: "Sun" } });
    expect(edited.json.version).toBe(2);
    const oldest = (await list(event.id, owner.token)).json.at(-1);

    const watcher = await connect(timelineId, owner.token);
    await watcher.waitFor((m) => m.type === "presence");
    await sleep(100);
    watcher.clear();

    const res = await call("POST", `/api/event-versions/${oldest.id}/restore`, { token: collab.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: event.id, timelineId, title: "Storm", content: "Rain", version: 3, entityIds: [] });
    // The same shape as PATCH answers.
    const patched = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { position: 0 } });
    expect(Object.keys(res.json).sort()).toEqual(Object.keys(patched.json).sort());

    const versions = (await list(event.id, owner.token)).json;
    expect(versions).toHaveLength(3);
    expect(versions[0]).toMatchObject({ authorName: "Cora", authorId: collab.user.id, title: "Storm", contentPreview: "Rain" });

    await watcher.waitFor((m) => m.type === "sync", "sync after restore");
    await sleep(300);
    const syncs = watcher.messages.filter((m: Msg) => m.type === "sync");
    expect(syncs).toHaveLength(1);
    watcher.ws.close();

    // A deliberate overwrite: a stale client's baseVersion does not matter (there is none to send).
    const again = await call("POST", `/api/event-versions/${versions[1].id}/restore`, { token: owner.token });
    expect(again.json).toMatchObject({ title: "Calm", content: "Sun", version: 4 });
  });
});

describe("what changed", () => {
  it("each row counts its words (CJK per character) against the next older one, notes a new title and a restore", async () => {
    const { owner, event } = await freeOwnerWithEvent();
    const patch = (body: Record<string, unknown>) => call("PATCH", `/api/events/${event.id}`, { token: owner.token, body });
    expect((await patch({ content: "One **two** three, four.\n\n---\n\nfive" })).status).toBe(200);
    expect((await patch({ title: "Renamed" })).status).toBe(200);
    expect((await patch({ content: "东京は晴れ today" })).status).toBe(200);
    let rows = (await list(event.id, owner.token)).json;
    expect(rows.map((v: any) => [v.wordCount, v.wordDelta, v.titleChanged, v.restoredFrom])).toEqual([
      [6, 1, false, null],
      [5, 0, true, null],
      [5, 4, false, null],
      [1, null, false, null],
    ]);
    // Counted once and kept; a live save merged into a version is counted again.
    const stored = await env.DB.prepare("SELECT word_count FROM event_versions WHERE event_id = ? ORDER BY id").bind(event.id).all();
    expect(stored.results.map((r) => r.word_count)).toEqual([1, 5, 5, 6]);
    const db = createDb(env.DB);
    const [first, ...rest] = versionStatements(db, {
      eventId: event.id,
      author: owner.user,
      content: "Just two",
      coalesceWithinMs: 60_000,
    });
    await db.batch([first, ...rest]);
    rows = (await list(event.id, owner.token)).json;
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({ contentPreview: "Just two", wordCount: 2, wordDelta: -3 });

    const restored = await call("POST", `/api/event-versions/${rows.at(-1).id}/restore`, { token: owner.token });
    expect(restored.status, restored.text).toBe(200);
    rows = (await list(event.id, owner.token)).json;
    expect(rows[0]).toMatchObject({
      title: "First",
      contentPreview: "One",
      wordDelta: -1,
      titleChanged: true,
      restoredFrom: rows.at(-1).id,
    });
  });
});

describe("naming a version", () => {
  const name = (id: number | string, body: unknown, token?: string, q = "") =>
    call("PATCH", `/api/event-versions/${id}${q}`, { token, body: body as Record<string, unknown> });

  it("editors name and rename a version, an empty name clears it; the list and the version show it", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser({ name: "Cora" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const event = await createEvent(owner.token, timelineId, { title: "Storm", content: "Rain" });
    const [v] = (await list(event.id, owner.token)).json;

    let res = await name(v.id, { name: "  First draft  " }, owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ id: v.id, name: "First draft" });
    expect((await list(event.id, collab.token)).json[0].name).toBe("First draft");
    expect((await call("GET", `/api/event-versions/${v.id}`, { token: collab.token })).json.name).toBe("First draft");

    res = await name(v.id, { name: "Sent to editor" }, collab.token);
    expect(res.json).toEqual({ id: v.id, name: "Sent to editor" });
    const longest = "x".repeat(100);
    expect((await name(v.id, { name: longest }, owner.token)).json).toEqual({ id: v.id, name: longest });
    for (const empty of ["", "   ", null]) {
      expect((await name(v.id, { name: "Kept" }, owner.token)).status).toBe(200);
      res = await name(v.id, { name: empty }, owner.token);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ id: v.id, name: null });
    }
    expect((await list(event.id, owner.token)).json[0].name).toBeNull();
  });

  it("refuses a long or non-text name (400), viewers and link readers (403), strangers and forged ids (404), anonymous (401)", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId);
    const [v] = (await list(event.id, owner.token)).json;
    const viewer = await registerUser({ name: "Vic" });
    const linkReader = await registerUser({ name: "Lin" });
    const stranger = await registerUser({ name: "Stan" });
    await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } });

    expect((await name(v.id, { name: "Named" }, owner.token)).status).toBe(200);
    let res = await name(v.id, { name: "x".repeat(101) }, owner.token);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: "Version name must be 100 characters or less" });
    for (const body of [{ name: 7 }, {}, { name: ["a"] }]) {
      res = await name(v.id, body, owner.token);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: "Version name must be text" });
    }
    res = await name(v.id, { name: "Mine now" }, viewer.token);
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: "You have view-only access to this timeline" });
    expect((await name(v.id, { name: "Mine now" }, linkReader.token, `?share=${link.json.shareCode}`)).status).toBe(403);
    res = await name(v.id, { name: "Mine now" }, stranger.token);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: "Version not found" });
    for (const bad of ["abc", "0", "-1", "999999999999"]) expect((await name(bad, { name: "x" }, owner.token)).status).toBe(404);
    expect((await name(v.id, { name: "x" })).status).toBe(401);
    // Nothing above changed the name.
    expect((await list(event.id, owner.token)).json[0].name).toBe("Named");

    // A free owner's version past the window cannot be named either.
    const free = await freeOwnerWithEvent();
    const old = await insertOldVersion(free.event, free.owner.user.id, 31);
    expect((await name(old, { name: "Old" }, free.owner.token)).status).toBe(404);
  });
});

describe("access", () => {
  it("owner, collaborator, viewer and share-link readers read; editors restore; viewers 403; strangers 404; anonymous 401", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId);
    const [v] = (await list(event.id, owner.token)).json;
    const collab = await registerUser({ name: "Cora" });
    const viewer = await registerUser({ name: "Vic" });
    const linkReader = await registerUser({ name: "Lin" });
    const stranger = await registerUser({ name: "Stan" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } });
    const share = `?share=${link.json.shareCode}`;

    for (const [who, q] of [
      [owner, ""],
      [collab, ""],
      [viewer, ""],
      [linkReader, share],
    ] as const) {
      expect((await list(event.id, who.token, q)).status).toBe(200);
      expect((await call("GET", `/api/event-versions/${v.id}${q}`, { token: who.token })).status).toBe(200);
    }
    for (const who of [viewer]) {
      const res = await call("POST", `/api/event-versions/${v.id}/restore`, { token: who.token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: "You have view-only access to this timeline" });
    }
    expect((await call("POST", `/api/event-versions/${v.id}/restore${share}`, { token: linkReader.token })).status).toBe(403);
    expect((await list(event.id, stranger.token)).json).toEqual({ error: "Event not found" });
    expect((await list(event.id, stranger.token)).status).toBe(404);
    expect((await call("GET", `/api/event-versions/${v.id}`, { token: stranger.token })).status).toBe(404);
    expect((await call("POST", `/api/event-versions/${v.id}/restore`, { token: stranger.token })).status).toBe(404);
    expect((await call("GET", `/api/event-versions/${v.id}?share=wrong`, { token: stranger.token })).status).toBe(404);
    expect((await list(event.id)).status).toBe(401);
    expect((await call("GET", `/api/event-versions/${v.id}`)).status).toBe(401);
    expect((await call("POST", `/api/event-versions/${v.id}/restore`)).status).toBe(401);
    for (const bad of ["abc", "0", "-1", "999999999999"]) {
      expect((await call("GET", `/api/event-versions/${bad}`, { token: owner.token })).status).toBe(404);
      expect((await list(bad as unknown as number, owner.token)).status).toBe(404);
    }
    expect((await call("POST", `/api/event-versions/${v.id}/restore`, { token: collab.token })).status).toBe(200);
  });
});

describe("plans", () => {
  it("a free owner's history shows 30 days (older: not listed, 404, not restorable); Premium shows all", async () => {
    const { owner, event } = await freeOwnerWithEvent();
    const old = await insertOldVersion(event, owner.user.id, 31);
    const recent = await insertOldVersion(event, owner.user.id, 29, "Recent");
    let titles = (await list(event.id, owner.token)).json.map((v: any) => v.title);
    expect(titles).toEqual(["First", "Recent"]);
    expect((await call("GET", `/api/event-versions/${old}`, { token: owner.token })).status).toBe(404);
    expect((await call("POST", `/api/event-versions/${old}/restore`, { token: owner.token })).status).toBe(404);
    expect((await call("GET", `/api/event-versions/${recent}`, { token: owner.token })).status).toBe(200);

    await makePremium(owner.user.id);
    titles = (await list(event.id, owner.token)).json.map((v: any) => v.title);
    expect(titles).toEqual(["First", "Recent", "Ancient"]);
    expect((await call("GET", `/api/event-versions/${old}`, { token: owner.token })).status).toBe(200);
    // A lapsed Premium is Free again: hidden.
    await makePremium(owner.user.id, new Date(Date.now() - DAY).toISOString());
    expect((await call("GET", `/api/event-versions/${old}`, { token: owner.token })).status).toBe(404);
  });

  it("the plan is the timeline owner's, not the reader's", async () => {
    const { owner, event } = await freeOwnerWithEvent();
    const old = await insertOldVersion(event, owner.user.id, 40);
    const reader = await registerUser({ name: "Pat Premium" });
    await makePremium(reader.user.id);
    await shareWith(event.timelineId, owner.user.id, reader.user.id, "viewer");
    expect((await call("GET", `/api/events/${event.id}/versions`, { token: reader.token })).status).toBe(200);
    expect((await call("GET", `/api/event-versions/${old}`, { token: reader.token })).status).toBe(404);
  });

  it("the purge deletes free owners' versions past 30 days and keeps Premium owners' and recent ones", async () => {
    const free = await freeOwnerWithEvent();
    const freeOld = await insertOldVersion(free.event, free.owner.user.id, 31);
    const freeRecent = await insertOldVersion(free.event, free.owner.user.id, 29);
    const { owner: premium, timelineId } = await premiumOwnerWithTimeline();
    const premiumEvent = await createEvent(premium.token, timelineId);
    const premiumOld = await insertOldVersion(premiumEvent, premium.user.id, 400);

    const purged = await purgeExpired(createDb(env.DB));
    expect(purged.eventVersions).toBeGreaterThanOrEqual(1);
    const ids = async () =>
      (
        await env.DB.prepare("SELECT id FROM event_versions WHERE id IN (?, ?, ?)")
          .bind(freeOld, freeRecent, premiumOld)
          .all<{ id: number }>()
      ).results.map((r) => r.id);
    expect((await ids()).sort()).toEqual([freeRecent, premiumOld].sort());
  });
});
