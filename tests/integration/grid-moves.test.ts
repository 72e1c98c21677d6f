import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith } from "./helpers";
import { type Msg, connect, sleep } from "./room-helpers";

import type { EventView as Ev } from "../../worker/services/event-list";

/**
 * The database as the Worker sees it, recording every write it runs: alone (`single`) or in a batch. The
 * Worker opens a D1 session per request, so the session's statements are recorded too.
 */
function recordingDb(log: { kind: "single" | "batch"; sql: string[] }[]) {
  const text = new WeakMap<object, string>();
  const real = new WeakMap<object, D1PreparedStatement>();
  const isWrite = (sql: string) => /^\s*(insert|update|delete|replace)\b/i.test(sql);
  const wrapStatement = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        if (key === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args), sql);
        if (["run", "all", "first", "raw"].includes(String(key))) {
          return (...args: unknown[]) => {
            if (isWrite(sql)) log.push({ kind: "single", sql: [sql] });
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    text.set(wrapped, sql);
    real.set(wrapped, statement);
    return wrapped;
  };
  const wrapDb = <T extends object>(db: T): T =>
    new Proxy(db, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        if (key === "prepare") return (sql: string) => wrapStatement(value.call(target, sql), sql);
        if (key === "withSession") return (...args: unknown[]) => wrapDb(value.apply(target, args));
        if (key === "batch") {
          return (statements: D1PreparedStatement[]) => {
            const sqls = statements.map((s) => text.get(s) ?? "?");
            if (sqls.some(isWrite)) log.push({ kind: "batch", sql: sqls.filter(isWrite) });
            return value.call(
              target,
              statements.map((s) => real.get(s) ?? s),
            );
          };
        }
        return value.bind(target);
      },
    });
  return wrapDb(env.DB);
}

async function gridTimeline() {
  const owner = await registerUser({ name: "Olive Owner" });
  await makePremium(owner.user.id);
  const timeline = await createTimeline(owner.token, { title: "The Grid" });
  const timelineId = timeline.id as number;
  const collab = await registerUser({ name: "Cara" });
  const viewer = await registerUser({ name: "Vic" });
  const stranger = await registerUser({ name: "Otto" });
  await shareWith(timelineId, owner.user.id, collab.user.id, "collaborator");
  await shareWith(timelineId, owner.user.id, viewer.user.id, "viewer");
  const add = async (kind: "chapters" | "plotlines", title: string) => {
    const res = await call("POST", `/api/timelines/${timelineId}/${kind}`, { token: owner.token, body: { title } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as number;
  };
  const one = await add("chapters", "Chapter 1");
  const two = await add("chapters", "Chapter 2");
  const main = await add("plotlines", "Main plot");
  const romance = await add("plotlines", "Romance");
  const scene = (await createEvent(owner.token, timelineId, { title: "Storm", chapterId: one })) as Ev;
  await createEvent(owner.token, timelineId, { title: "Calm", chapterId: two });
  const linked = await call("PATCH", `/api/events/${scene.id}`, { token: owner.token, body: { plotlineIds: [main] } });
  expect(linked.status).toBe(200);
  return { owner, collab, viewer, stranger, timelineId, chapters: { one, two }, plotlines: { main, romance }, scene };
}

/** The writes a move ran, past its rate counter (one UPSERT first, spent before the move starts: no part of it). */
function moveWrites(log: { kind: "single" | "batch"; sql: string[] }[]) {
  expect(log[0]?.sql.some((s) => /rate_limits/.test(s))).toBe(true);
  return log.slice(1);
}

describe("grid moves", () => {
  it("a move sets chapter and plotlines in one batch and tells the room once", async () => {
    const { owner, collab, timelineId, chapters, plotlines, scene } = await gridTimeline();
    const watcher = await connect(timelineId, collab.token);
    await sleep(100);
    watcher.clear();

    const log: { kind: "single" | "batch"; sql: string[] }[] = [];
    const res = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { chapterId: chapters.two, plotlineIds: [plotlines.romance] },
      env: { DB: recordingDb(log) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: scene.id, chapterId: chapters.two, plotlineIds: [plotlines.romance] });
    // Every write of the move (its place in the story order, its plotlines) in one transaction.
    expect(moveWrites(log).map((l) => l.kind)).toEqual(["batch"]);
    expect(moveWrites(log)[0].sql.some((s) => /event_plotlines/.test(s))).toBe(true);
    expect(moveWrites(log)[0].sql.some((s) => /chapter_id/.test(s))).toBe(true);

    await watcher.waitFor((m) => m.type === "sync", "sync after the move");
    await sleep(300);
    const mine = (m: Msg) => m.type === "sync" || m.type === "notification";
    expect(watcher.messages.filter(mine).map((m) => m.type)).toEqual(["sync", "notification"]);
    expect(watcher.messages.find((m) => m.type === "notification")?.notification.message).toBe('Olive Owner edited "Storm"');

    const listed = (await call("GET", `/api/timelines/${timelineId}/events`, { token: collab.token })).json as Ev[];
    expect(listed.map((e) => [e.title, e.chapterId, e.plotlineIds])).toEqual([
      ["Calm", chapters.two, []],
      ["Storm", chapters.two, [plotlines.romance]],
    ]);

    // To 'No chapter' and 'No plotline': both cleared, still one batch.
    log.length = 0;
    const out = await call("PATCH", `/api/events/${scene.id}`, {
      token: collab.token,
      body: { chapterId: null, plotlineIds: [] },
      env: { DB: recordingDb(log) },
    });
    expect(out.status, out.text).toBe(200);
    expect(out.json).toMatchObject({ chapterId: null, plotlineIds: [] });
    expect(moveWrites(log).map((l) => l.kind)).toEqual(["batch"]);
    watcher.ws.close();
  });

  it("a move within the same chapter (another plotline only) is still written and synced", async () => {
    const { owner, timelineId, chapters, plotlines, scene } = await gridTimeline();
    const res = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { chapterId: chapters.one, plotlineIds: [plotlines.romance] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ chapterId: chapters.one, plotlineIds: [plotlines.romance] });
    const listed = (await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token })).json as Ev[];
    expect(listed.find((e) => e.id === scene.id)?.plotlineIds).toEqual([plotlines.romance]);
  });

  it("refuses viewers (403), another timeline's chapter or plotline (400) and strangers (404), changing nothing", async () => {
    const { owner, viewer, stranger, chapters, plotlines, scene, timelineId } = await gridTimeline();
    const move = { chapterId: chapters.two, plotlineIds: [plotlines.romance] };
    expect((await call("PATCH", `/api/events/${scene.id}`, { token: viewer.token, body: move })).status).toBe(403);
    expect(await call("PATCH", `/api/events/${scene.id}`, { token: stranger.token, body: move })).toMatchObject({
      status: 404,
      json: { error: "Event not found" },
    });

    const other = await createTimeline(owner.token, { title: "Elsewhere" });
    const foreignChapter = (await call("POST", `/api/timelines/${other.id}/chapters`, { token: owner.token, body: { title: "X" } })).json
      .id;
    const foreignPlotline = (await call("POST", `/api/timelines/${other.id}/plotlines`, { token: owner.token, body: { title: "Y" } })).json
      .id;
    const badChapter = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { chapterId: foreignChapter, plotlineIds: [plotlines.romance] },
    });
    expect(badChapter.status).toBe(400);
    expect(badChapter.json.error).toMatch(/chapter/i);
    const badPlotline = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { chapterId: chapters.two, plotlineIds: [foreignPlotline] },
    });
    expect(badPlotline.status).toBe(400);
    expect(badPlotline.json.error).toMatch(/plotline/i);

    const listed = (await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token })).json as Ev[];
    expect(listed.find((e) => e.id === scene.id)).toMatchObject({ chapterId: chapters.one, plotlineIds: [plotlines.main] });
  });
});
