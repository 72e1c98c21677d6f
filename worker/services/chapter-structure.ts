// A timeline's story order with chapters, read and written as a whole: the rules are the pure functions of
// db/domain/chapter-order.ts; this file loads the order, applies them and writes what changed in one batch.
import { type SQL, and, asc, eq, isNull, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { type Scene, chapterAfterMove, moveToChapter } from "../../db/domain/chapter-order";
import { chapterMessages } from "../../db/domain/validation-chapters";
import { countWords } from "../../db/domain/word-count";
import { chapters, events } from "../../db/schema";
import { HttpError, badRequest } from "../lib/errors";

type Placed = Scene & { position: number };

/** The timeline's scenes in story order, its chapters' ids in order, and a stamp of both as read. */
export async function loadStructure(db: Db, timelineId: number) {
  const [seq, chapterRows] = await Promise.all([
    db
      .select({ id: events.id, chapterId: events.chapterId, position: events.position })
      .from(events)
      .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
      .orderBy(asc(events.position), asc(events.id)),
    db
      .select({ id: chapters.id, position: chapters.position })
      .from(chapters)
      .where(eq(chapters.timelineId, timelineId))
      .orderBy(asc(chapters.position), asc(chapters.id)),
  ]);
  const stamp = `${seq.map((s) => `${s.id}:${s.position}:${s.chapterId ?? ""}`).join(",")}|${chapterRows.map((c) => `${c.id}:${c.position}`).join(",")}`;
  return { seq: seq as Placed[], order: chapterRows.map((c) => c.id), stamp };
}

type Structure = Awaited<ReturnType<typeof loadStructure>>;

/**
 * A statement that fails (so its whole batch rolls back) unless the story order is still `stamp`: the same
 * stamp as `loadStructure`'s, built in SQL.
 */
const unchangedSince = (timelineId: number, stamp: string) => sql`
  SELECT CASE WHEN
    (SELECT ifnull(group_concat(f, ','), '') FROM (SELECT id || ':' || position || ':' || ifnull(chapter_id, '') AS f
      FROM events WHERE timeline_id = ${timelineId} AND deleted_at IS NULL ORDER BY position, id))
    || '|' ||
    (SELECT ifnull(group_concat(f, ','), '') FROM (SELECT id || ':' || position AS f
      FROM chapters WHERE timeline_id = ${timelineId} ORDER BY position, id))
    = ${stamp} THEN 1 ELSE json('story order changed') END`;

const REWRITE_ATTEMPTS = 12;
export const ORDER_BUSY = "The story order is changing right now. Please try again.";

/**
 * Rewrites the story order atomically: loads it, applies `change` (null: nothing to do) and writes the result in
 * one batch that first checks the order is still the one read. When another write landed in between, it starts
 * again from the new order, so concurrent moves never interleave.
 */
export async function rewriteOrder(
  db: Db,
  timelineId: number,
  change: (current: Structure) => { seq: readonly Scene[]; order?: readonly number[] } | null,
  alongside: SQL[] = [],
) {
  for (let attempt = 0; attempt < REWRITE_ATTEMPTS; attempt++) {
    const current = await loadStructure(db, timelineId);
    const next = change(current);
    if (!next && alongside.length === 0) return;
    const writes = [
      ...(next?.order ? [chapterOrderStatement(timelineId, next.order)] : []),
      ...(next ? orderStatements(timelineId, current.seq, next.seq) : []),
      ...alongside,
    ];
    if (writes.length === 0) return;
    try {
      await runAll(db, [unchangedSince(timelineId, current.stamp), ...writes]);
      return;
    } catch (error) {
      // Only a changed order is worth another try; anything else is a real failure.
      if ((await loadStructure(db, timelineId)).stamp === current.stamp) throw error;
      // A moment's pause, longer each time, so moves made at once do not keep colliding.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * (attempt + 1)));
    }
  }
  throw new HttpError(409, ORDER_BUSY);
}

/** The statements that write a new story order (only the scenes whose place or chapter changed). */
export function orderStatements(timelineId: number, before: readonly Placed[], after: readonly Scene[]): SQL[] {
  const old = new Map(before.map((s) => [s.id, s]));
  const changed = after
    .map((s, position) => ({ i: s.id, p: position, c: s.chapterId }))
    .filter((s) => old.get(s.i)?.position !== s.p || old.get(s.i)?.chapterId !== s.c);
  if (changed.length === 0) return [];
  return [
    sql`UPDATE events SET position = json_extract(j.value, '$.p'), chapter_id = json_extract(j.value, '$.c')
        FROM json_each(${JSON.stringify(changed)}) j
        WHERE events.id = json_extract(j.value, '$.i') AND events.timeline_id = ${timelineId}`,
  ];
}

/** The statement that writes the chapters' order. */
export const chapterOrderStatement = (timelineId: number, order: readonly number[]) =>
  sql`UPDATE chapters SET position = j.key FROM json_each(${JSON.stringify(order)}) j
      WHERE chapters.id = j.value AND chapters.timeline_id = ${timelineId} AND chapters.position IS NOT j.key`;

const dialect = new SQLiteAsyncDialect();

/** Raw statements in one transaction (D1's own batch: Drizzle's cannot take raw SQL with parameters). */
export async function runAll(db: Db, statements: SQL[]) {
  if (statements.length === 0) return;
  await db.$client.batch(
    statements.map((s) => {
      const { sql: text, params } = dialect.sqlToQuery(s);
      return db.$client.prepare(text).bind(...params);
    }),
  );
}

/** 400 unless the chapter is one of this timeline's (another timeline's and a missing one alike). */
export async function requireTimelineChapter(db: Db, timelineId: number, chapterId: number | null) {
  if (chapterId === null) return;
  const found = await db
    .select({ id: chapters.id })
    .from(chapters)
    .where(and(eq(chapters.id, chapterId), eq(chapters.timelineId, timelineId)))
    .get();
  if (!found) throw badRequest(chapterMessages.foreignChapter);
}

/** Puts a scene in a chapter (or in none), contiguous with the chapter's scenes; `position` within its range. */
export async function placeInChapter(
  db: Db,
  timelineId: number,
  eventId: number,
  chapterId: number | null,
  position?: number,
  /** Written in the same batch as the move, even when the scene's place does not change (its plotlines). */
  alongside: SQL[] = [],
) {
  await rewriteOrder(db, timelineId, ({ seq, order }) => ({ seq: moveToChapter(seq, order, eventId, chapterId, position) }), alongside);
}

/**
 * A new scene (`eventId`: an id or a subquery, run in the create's own batch right after its insert) put in its
 * chapter as `placeInChapter` puts it, in one statement: `moveToChapter`'s rule (db/domain/chapter-order.ts) in SQL.
 * The other live scenes in story order (position, id) are numbered 0..n-1; the new one goes right after the
 * chapter's last scene; a chapter without scenes yet goes where `blockIndex` puts it (after the nearest earlier
 * chapter with scenes, else before the nearest later one, else at the end). The scenes from there on move one down.
 * Read and written inside the transaction, so concurrent writes cannot come between. A second statement of one rule,
 * kept because the create must be placed in its own batch: tests/integration/idempotency-atomic.test.ts holds it to
 * `moveToChapter` on random story orders.
 */
export function placeNewSceneStatement(db: Db, timelineId: number, eventId: SQL, chapterId: number) {
  const placed = sql`(WITH
      seq AS (SELECT id, chapter_id AS c, ROW_NUMBER() OVER (ORDER BY position, id) - 1 AS i
        FROM events WHERE timeline_id = ${timelineId} AND deleted_at IS NULL AND id <> ${eventId}),
      ch AS (SELECT id, ROW_NUMBER() OVER (ORDER BY position, id) - 1 AS r FROM chapters WHERE timeline_id = ${timelineId}),
      sr AS (SELECT seq.i AS i, ch.r AS r FROM seq JOIN ch ON ch.id = seq.c),
      own AS (SELECT r FROM ch WHERE id = ${chapterId}),
      target AS (SELECT coalesce(
        (SELECT max(i) + 1 FROM seq WHERE c = ${chapterId}),
        (SELECT max(i) + 1 FROM sr WHERE r = (SELECT max(r) FROM sr WHERE r < (SELECT r FROM own))),
        (SELECT min(i) FROM sr WHERE r = (SELECT min(r) FROM sr WHERE r > (SELECT r FROM own))),
        (SELECT count(*) FROM seq)) AS t)
    SELECT seq.id AS id, CASE WHEN seq.i >= target.t THEN seq.i + 1 ELSE seq.i END AS p, seq.c AS c FROM seq, target
    UNION ALL SELECT ${eventId}, target.t, ${chapterId} FROM target) AS placed`;
  return db
    .update(events)
    .set({ position: sql`placed.p`, chapterId: sql`placed.c` })
    .from(placed)
    .where(sql`${events.id} = placed.id AND (${events.position} IS NOT placed.p OR ${events.chapterId} IS NOT placed.c)`);
}

/** After a scene was dragged in story order: the chapter it now belongs to (see `chapterAfterMove`). */
export async function settleChapterAfterMove(db: Db, timelineId: number, eventId: number) {
  await rewriteOrder(db, timelineId, ({ seq, order }) => {
    const at = seq.find((s) => s.id === eventId);
    if (order.length === 0 || !at) return null;
    const chapterId = chapterAfterMove(seq, order, eventId);
    if (at.chapterId === chapterId) return null;
    return { seq: seq.map((s) => (s.id === eventId ? { id: s.id, chapterId } : s)) };
  });
}

/** Counts the words of scenes written before counts were kept (null), so sums are whole. */
export async function fillWordCounts(db: Db, timelineId: number) {
  const rows = await db
    .select({ id: events.id, content: events.content })
    .from(events)
    .where(and(eq(events.timelineId, timelineId), isNull(events.wordCount)))
    .limit(500);
  if (rows.length === 0) return;
  const counted = rows.map((r) => ({ i: r.id, w: countWords(r.content) }));
  await db.run(sql`UPDATE events SET word_count = json_extract(j.value, '$.w') FROM json_each(${JSON.stringify(counted)}) j
    WHERE events.id = json_extract(j.value, '$.i') AND events.word_count IS NULL`);
}
