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
