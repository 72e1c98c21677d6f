import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Scene, moveToChapter } from "../../db/domain/chapter-order";
import { LEASE_MS, idempotencyMessages } from "../../worker/api/idempotency";
import { eq, sql } from "drizzle-orm";
import { createDb } from "../../db/client";
import { users } from "../../db/schema";
import { placeNewSceneStatement } from "../../worker/services/chapter-structure";
import { createEvent } from "../../worker/services/events";
import { call, createTimeline, registerUser } from "./helpers";

// Issue 46, server side: a lone keyed create writes the thing and its key's answer in one D1 batch, and a scene
// created in a chapter is placed there in that batch. A server that dies while recording the answer (simulated by a
// trigger that refuses the answer's write, as a kill between the two writes would leave it) leaves nothing made, so
// the repeat after the lease makes it once; before, the row was made, its key left without an answer, and the
// repeat (after LEASE_MS) made it again.

const key = (prefix = "k") => `${prefix}-${crypto.randomUUID()}`;
const count = async (table: "events" | "chapters" | "plotlines", timelineId: number) =>
  (
    await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE timeline_id = ? AND ${table === "events" ? "deleted_at IS NULL" : "1"}`)
      .bind(timelineId)
      .first<{ n: number }>()
  )?.n;
const scenes = async (timelineId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, title, position, chapter_id AS chapterId FROM events WHERE timeline_id = ? AND deleted_at IS NULL ORDER BY position, id",
    )
      .bind(timelineId)
      .all<{ id: number; title: string; position: number; chapterId: number | null }>()
  ).results;

/** Runs `body` while writing a key's answer fails (only for keys starting with `prefix`: other files share the database). */
async function answerWriteFails<T>(prefix: string, body: () => Promise<T>) {
  const name = `lost_answer_${prefix.replace(/\W/g, "_")}`;
  const when = `NEW.key LIKE '${prefix}-%' AND NEW.status IS NOT NULL`;
  await env.DB.batch([
    env.DB.prepare(`CREATE TRIGGER ${name}_u BEFORE UPDATE ON idempotency_keys WHEN ${when} BEGIN SELECT RAISE(ABORT, 'killed'); END`),
    env.DB.prepare(`CREATE TRIGGER ${name}_i BEFORE INSERT ON idempotency_keys WHEN ${when} BEGIN SELECT RAISE(ABORT, 'killed'); END`),
  ]);
  try {
    return await body();
  } finally {
    await env.DB.batch([env.DB.prepare(`DROP TRIGGER ${name}_u`), env.DB.prepare(`DROP TRIGGER ${name}_i`)]);
  }
}

/** As if LEASE_MS had passed since the first request reserved its key (the server stopped under it). */
const leasePassed = (userId: number, k: string) =>
  env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ? AND status IS NULL")
    .bind(new Date(Date.now() - LEASE_MS - 1_000).toISOString(), userId, k)
    .run();

const routes = [
  { table: "events" as const, path: (id: number) => `/api/timelines/${id}/events`, body: { title: "The tunnel", content: "Dark." } },
  { table: "chapters" as const, path: (id: number) => `/api/timelines/${id}/chapters`, body: { title: "Part One", targetWords: 5000 } },
  { table: "plotlines" as const, path: (id: number) => `/api/timelines/${id}/plotlines`, body: { title: "Smugglers" } },
];

describe("a lone keyed create: the row and its key's answer in one transaction", () => {
  for (const route of routes) {
    it(`${route.table}: the answer's write failing (the server killed) makes nothing; the repeat after the lease makes it once`, async () => {
      const writer = await registerUser();
      const timeline = await createTimeline(writer.token);
      const prefix = `lost${route.table}`;
      const k = key(prefix);
      const send = () =>
        call("POST", route.path(timeline.id), { token: writer.token, body: route.body, headers: { "Idempotency-Key": k } });
      const dying = await answerWriteFails(prefix, send);
      expect(dying.status).toBe(500);
      expect(await count(route.table, timeline.id)).toBe(0);
      await leasePassed(writer.user.id, k);
      const repeat = await send();
      expect(repeat.status, repeat.text).toBe(201);
      const again = await send();
      expect(again.status).toBe(201);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(again.json).toEqual(repeat.json);
      expect(await count(route.table, timeline.id)).toBe(1);
    });

    it(`${route.table}: the replay is the first answer, field for field, with the same status; without a key as before`, async () => {
      const writer = await registerUser();
      const timeline = await createTimeline(writer.token);
      const k = key();
      const send = (headers: Record<string, string>) =>
        call("POST", route.path(timeline.id), { token: writer.token, body: route.body, headers });
      const first = await send({ "Idempotency-Key": k });
      expect(first.status).toBe(201);
      expect(first.headers.get("Idempotent-Replayed")).toBeNull();
      const replay = await send({ "Idempotency-Key": k });
      expect(replay.status).toBe(201);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect(replay.json).toEqual(first.json);
      const row = await env.DB.prepare("SELECT status, body FROM idempotency_keys WHERE user_id = ? AND key = ?")
        .bind(writer.user.id, k)
        .first<{ status: number; body: string }>();
      expect(row?.status).toBe(201);
      expect(JSON.parse(row?.body ?? "null")).toEqual(first.json);
      // No key: made each time, nothing kept.
      const plain = await send({});
      expect(plain.status).toBe(201);
      expect(Object.keys(plain.json).sort()).toEqual(Object.keys(first.json).sort());
      expect(await count(route.table, timeline.id)).toBe(2);
    });
  }

  it("a scene in a chapter: its answer (first and replayed) carries its chapter and its place in it", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const chapter = await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title: "One" } });
    await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body: { title: "In one", content: "Text", chapterId: chapter.json.id },
    });
    await call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body: { title: "Loose", content: "Text" } });
    const k = key();
    const body = { title: "Also in one", content: "Later", chapterId: chapter.json.id };
    const first = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(first.status).toBe(201);
    expect(first.json.chapterId).toBe(chapter.json.id);
    expect(first.json.position).toBe(1);
    const replay = await call("POST", `/api/timelines/${timeline.id}/events`, {
      token: writer.token,
      body,
      headers: { "Idempotency-Key": k },
    });
    expect(replay.json).toEqual(first.json);
    expect((await scenes(timeline.id)).map((s) => s.title)).toEqual(["In one", "Also in one", "Loose"]);
  });

  it("a key reused for another body is the existing 409 and makes nothing; another account's same key is its own", async () => {
    const writer = await registerUser();
    const stranger = await registerUser();
    const timeline = await createTimeline(writer.token);
    const theirs = await createTimeline(stranger.token);
    const k = key();
    const path = `/api/timelines/${timeline.id}/events`;
    const first = await call("POST", path, {
      token: writer.token,
      body: { title: "A", content: "Text" },
      headers: { "Idempotency-Key": k },
    });
    expect(first.status).toBe(201);
    const reused = await call("POST", path, {
      token: writer.token,
      body: { title: "B", content: "Text" },
      headers: { "Idempotency-Key": k },
    });
    expect(reused.status).toBe(409);
    expect(reused.json.error).toBe(idempotencyMessages.reused);
    expect(await count("events", timeline.id)).toBe(1);
    // The stranger sending the writer's key to the writer's timeline: no replay of the writer's scene, refused as a stranger.
    const foreign = await call("POST", path, {
      token: stranger.token,
      body: { title: "A", content: "Text" },
      headers: { "Idempotency-Key": k },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("Idempotent-Replayed")).toBeNull();
    expect(JSON.stringify(foreign.json)).not.toContain(String(first.json.id));
    // On their own timeline the same key makes their own scene.
    const own = await call("POST", `/api/timelines/${theirs.id}/events`, {
      token: stranger.token,
      body: { title: "A", content: "Text" },
      headers: { "Idempotency-Key": k },
    });
    expect(own.status).toBe(201);
    expect(own.json.id).not.toBe(first.json.id);
    expect(own.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await count("events", timeline.id)).toBe(1);
  });
});

/** Fails any write that puts a scene titled `title` in a chapter (only that title: other files share the database). */
async function placementFails<T>(title: string, body: () => Promise<T>) {
  const name = `no_place_${title.replace(/\W/g, "_")}`;
  await env.DB.prepare(
    `CREATE TRIGGER ${name} BEFORE UPDATE OF chapter_id ON events WHEN NEW.title = '${title}' AND NEW.chapter_id IS NOT NULL BEGIN SELECT RAISE(ABORT, 'killed'); END`,
  ).run();
  try {
    return await body();
  } finally {
    await env.DB.prepare(`DROP TRIGGER ${name}`).run();
  }
}

describe("a first request that outlived its lease", () => {
  it("makes nothing once a repeat took its key over: the repeat's scene is the only one, and it is told 'still being made'", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const db = createDb(env.DB);
    const user = await db.select().from(users).where(eq(users.id, writer.user.id)).get();
    if (!user) throw new Error("no user");
    const k = key();
    // The first request reserved the key 16 s ago and is only now writing; a repeat took the key over meanwhile
    // (its reservation is newer) and is making the scene itself.
    const firstReservedAt = new Date(Date.now() - LEASE_MS - 1_000).toISOString();
    await env.DB.prepare("INSERT INTO idempotency_keys (user_id, key, request) VALUES (?, ?, 'POST x')").bind(user.id, k).run();
    const slow = createEvent({ db, room: async () => {} }, user, timeline.id, { title: "Twice?", content: "Text" }, null, {
      userId: user.id,
      key: k,
      createdAt: firstReservedAt,
      recorded: false,
    });
    await expect(slow).rejects.toMatchObject({ status: 409, message: idempotencyMessages.inProgress });
    expect(await count("events", timeline.id)).toBe(0);
    const row = await env.DB.prepare("SELECT status FROM idempotency_keys WHERE user_id = ? AND key = ?")
      .bind(user.id, k)
      .first<{ status: number | null }>();
    expect(row?.status).toBeNull();
  });
});

describe("a scene created in a chapter is placed in it in the create's own transaction", () => {
  it("single create: a placement that fails (the server killed) leaves no scene outside its chapter; the repeat places it", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const chapter = await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title: "One" } });
    const k = key();
    const title = `Placed ${crypto.randomUUID().slice(0, 8)}`;
    const body = { title, content: "Text", chapterId: chapter.json.id };
    const send = () =>
      call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body, headers: { "Idempotency-Key": k } });
    const dying = await placementFails(title, send);
    expect(dying.status).toBe(500);
    expect(await scenes(timeline.id)).toEqual([]);
    await leasePassed(writer.user.id, k);
    const repeat = await send();
    expect(repeat.status, repeat.text).toBe(201);
    expect(repeat.json.chapterId).toBe(chapter.json.id);
    expect((await scenes(timeline.id)).map((s) => [s.title, s.chapterId])).toEqual([[title, chapter.json.id]]);
  });

  it("events batch: a placement that fails leaves none of the batch; sent again, each scene is in its chapter once", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const chapter = await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title: "One" } });
    const title = `Batched ${crypto.randomUUID().slice(0, 8)}`;
    const items = [
      { title: "Loose first", content: "Text", key: key() },
      { title, content: "Text", chapterId: chapter.json.id, key: key() },
    ];
    const send = () => call("POST", `/api/timelines/${timeline.id}/events/batch`, { token: writer.token, body: { events: items } });
    const dying = await placementFails(title, send);
    // The trigger's abort reads as a constraint to the batch (409, sent again later) or a failure: nothing made.
    expect([409, 500]).toContain(dying.status);
    expect(await scenes(timeline.id)).toEqual([]);
    const again = await send();
    expect(again.status, again.text).toBe(201);
    expect(again.json.events[1].chapterId).toBe(chapter.json.id);
    // The chapter had no scenes and no other chapter has any: its block starts at the end of the story.
    expect((await scenes(timeline.id)).map((s) => [s.title, s.chapterId])).toEqual([
      ["Loose first", null],
      [title, chapter.json.id],
    ]);
    const replay = await send();
    expect(replay.json.events).toEqual(again.json.events);
    expect(await count("events", timeline.id)).toBe(2);
  });

  it("lands where moveToChapter puts it: after its chapter's scenes, or an empty chapter's block between its neighbours", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const add = async (title: string) =>
      (await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title } })).json.id as number;
    const [a, b, c, d] = [await add("A"), await add("B"), await add("C"), await add("D")];
    // D first in the chapters' order: empty, before every chapter with scenes.
    await call("PATCH", `/api/chapters/${d}`, { token: writer.token, body: { position: 0 } });
    const create = (title: string, chapterId?: number) =>
      call("POST", `/api/timelines/${timeline.id}/events`, {
        token: writer.token,
        body: { title, content: "Text", ...(chapterId ? { chapterId } : {}) },
        headers: { "Idempotency-Key": key() },
      });
    await create("a1", a);
    await create("loose1");
    await create("c1", c);
    await create("loose2");
    const order = [d, a, b, c];
    for (const [title, chapterId] of [
      ["a2", a],
      ["b1", b],
      ["d1", d],
      ["c2", c],
      ["b2", b],
    ] as const) {
      const before = await scenes(timeline.id);
      const seq: Scene[] = [...before.map((s) => ({ id: s.id, chapterId: s.chapterId })), { id: -1, chapterId: null }];
      const expected = moveToChapter(seq, order, -1, chapterId).map((s) =>
        s.id === -1 ? title : before.find((x) => x.id === s.id)?.title,
      );
      const made = await create(title, chapterId);
      expect(made.status).toBe(201);
      const after = await scenes(timeline.id);
      expect(after.map((s) => s.title)).toEqual(expected);
      expect(after.map((s) => s.position)).toEqual(after.map((_, i) => i));
      expect(made.json.position).toBe(after.findIndex((s) => s.title === title));
    }
  });
});

describe("the new scene's placement: the SQL copy of moveToChapter's rule", () => {
  // `placeNewSceneStatement` states `moveToChapter`'s rule in SQL so a create is placed inside its own transaction.
  // Two copies of one rule: this holds them to the same answer on random story orders (chapter blocks in the
  // chapters' order, loose scenes between them, empty chapters, gaps and ties in positions, deleted scenes).
  it("agrees with moveToChapter on 120 random story orders", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    const db = createDb(env.DB);
    const chapterIds: number[] = [];
    for (const title of ["A", "B", "C", "D", "E"])
      chapterIds.push((await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: writer.token, body: { title } })).json.id);
    const eventIds: number[] = [];
    for (let i = 0; i < 9; i++)
      eventIds.push(
        (await call("POST", `/api/timelines/${timeline.id}/events`, { token: writer.token, body: { title: `S${i}`, content: "Text" } }))
          .json.id,
      );
    let seed = 20261129;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    for (let trial = 0; trial < 120; trial++) {
      // The chapters' order (positions with gaps and ties: ordered by position, then id).
      const chapterPositions = chapterIds.map((id) => ({ id, position: Math.floor(random() * 4) }));
      const order = [...chapterPositions].sort((a, b) => a.position - b.position || a.id - b.id).map((c) => c.id);
      // A valid story: each chapter's scenes one block, the blocks in the chapters' order, loose scenes anywhere
      // between blocks. The newest scene is the one being created: last, in no chapter yet.
      const [fresh, ...older] = [eventIds.at(-1)!, ...eventIds.slice(0, -1)];
      const used = order.filter(() => random() < 0.6);
      const groups = new Map(used.map((c) => [c, [] as number[]]));
      const loose: number[] = [];
      const deleted = new Set<number>();
      for (const id of older) {
        if (random() < 0.1) deleted.add(id);
        else if (used.length > 0 && random() < 0.7) groups.get(pick(used))!.push(id);
        else loose.push(id);
      }
      const blocks: Scene[][] = used
        .filter((c) => groups.get(c)!.length > 0)
        .map((c) => groups.get(c)!.map((id) => ({ id, chapterId: c })));
      for (const id of loose) blocks.splice(Math.floor(random() * (blocks.length + 1)), 0, [{ id, chapterId: null }]);
      const live = blocks.flat();
      let at = Math.floor(random() * 3);
      const statements = [
        ...chapterPositions.map((c) => env.DB.prepare("UPDATE chapters SET position = ? WHERE id = ?").bind(c.position, c.id)),
        ...live.map((s) => {
          // Gaps, and now and then a tie (kept in order by id only when the ids are in order).
          const tie = random() < 0.2;
          const earlier = live[live.indexOf(s) - 1];
          if (!(tie && earlier && earlier.id < s.id)) at += 1 + Math.floor(random() * 3);
          return env.DB.prepare("UPDATE events SET position = ?, chapter_id = ?, deleted_at = NULL WHERE id = ?").bind(
            at,
            s.chapterId,
            s.id,
          );
        }),
        ...[...deleted].map((id) =>
          env.DB.prepare("UPDATE events SET position = ?, chapter_id = NULL, deleted_at = ? WHERE id = ?").bind(
            Math.floor(random() * 20),
            new Date().toISOString(),
            id,
          ),
        ),
        env.DB.prepare("UPDATE events SET position = ?, chapter_id = NULL, deleted_at = NULL WHERE id = ?").bind(at + 1, fresh),
      ];
      await env.DB.batch(statements);
      const chapterId = pick(chapterIds);
      const expected = moveToChapter([...live, { id: fresh, chapterId: null }], order, fresh, chapterId);
      await db.run(placeNewSceneStatement(db, timeline.id, sql`${fresh}`, chapterId));
      const after = await scenes(timeline.id);
      const context = JSON.stringify({ trial, order, live, chapterId });
      expect(
        after.map((s) => [s.id, s.chapterId]),
        context,
      ).toEqual(expected.map((s) => [s.id, s.chapterId]));
      expect(
        after.map((s) => s.position),
        context,
      ).toEqual(after.map((_, i) => i));
    }
  });
});

describe("scene creates are rate limited like chapter writes", () => {
  it("past RATE_SCENE_CREATES_PER_ACCOUNT_PER_HOUR: 429 with Retry-After and the product's message; batch items count; another writer unaffected", async () => {
    const limited = { ...env, RATE_SCENE_CREATES_PER_ACCOUNT_PER_HOUR: "4" };
    const writer = await registerUser();
    const other = await registerUser();
    const timeline = await createTimeline(writer.token);
    const theirs = await createTimeline(other.token);
    const single = (token: string, id: number, title: string) =>
      call("POST", `/api/timelines/${id}/events`, { token, body: { title, content: "Text" }, env: limited });
    expect((await single(writer.token, timeline.id, "One")).status).toBe(201);
    const batch = (items: string[]) =>
      call("POST", `/api/timelines/${timeline.id}/events/batch`, {
        token: writer.token,
        body: { events: items.map((title) => ({ title, content: "Text", key: key() })) },
        env: limited,
      });
    expect((await batch(["Two", "Three"])).status).toBe(201);
    const refusedBatch = await batch(["Four", "Five"]);
    expect(refusedBatch.status).toBe(429);
    expect(refusedBatch.json.error).toMatch(/^Too many new scenes\. Please try again in \d+ minutes?\.$/);
    expect(Number(refusedBatch.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refusedBatch.json.retryAfter).toBeGreaterThan(0);
    const refused = await single(writer.token, timeline.id, "Six");
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatch(/^Too many new scenes\. Please try again in \d+ minutes?\.$/);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await scenes(timeline.id)).map((s) => s.title)).toEqual(["One", "Two", "Three"]);
    expect((await single(other.token, theirs.id, "Mine")).status).toBe(201);
  });

  it("a 200-scene offline reconnect in runs of 20 is never refused by the default limit", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token);
    for (let run = 0; run < 10; run++) {
      const items = Array.from({ length: 20 }, (_, i) => ({ title: `Scene ${run * 20 + i + 1}`, content: "Text", key: key() }));
      const res = await call("POST", `/api/timelines/${timeline.id}/events/batch`, { token: writer.token, body: { events: items } });
      expect(res.status, res.text).toBe(201);
    }
    expect(await count("events", timeline.id)).toBe(200);
  });
});
