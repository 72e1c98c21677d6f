// A timeline's story order with chapters, read and written as a whole: the rules are the pure functions of
// db/domain/chapter-order.ts; this file loads the order, applies them and writes what changed in one batch.
import { type SQL, and, asc, eq, isNull, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { type Scene, chapterAfterMove, moveToChapter } from "../../db/domain/chapter-order";
import { chapterMessages } from "../../db/domain/validation-chapters";
import { countWords } from "../../db/domain/word-count";
import { chapters, events } from "../../db/schema";
import { badRequest } from "../lib/errors";

type Placed = Scene & { position: number };

/** The timeline's scenes in story order and its chapters' ids in order. */
export async function loadStructure(db: Db, timelineId: number) {
  const [seq, order] = await Promise.all([
    db
      .select({ id: events.id, chapterId: events.chapterId, position: events.position })
      .from(events)
      .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
      .orderBy(asc(events.position), asc(events.id)),
    db
      .select({ id: chapters.id })
      .from(chapters)
      .where(eq(chapters.timelineId, timelineId))
      .orderBy(asc(chapters.position), asc(chapters.id)),
  ]);
  return { seq: seq as Placed[], order: order.map((c) => c.id) };
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
export async function placeInChapter(db: Db, timelineId: number, eventId: number, chapterId: number | null, position?: number) {
  const { seq, order } = await loadStructure(db, timelineId);
  await runAll(db, orderStatements(timelineId, seq, moveToChapter(seq, order, eventId, chapterId, position)));
}

/** After a scene was dragged in story order: the chapter it now belongs to (see `chapterAfterMove`). */
export async function settleChapterAfterMove(db: Db, timelineId: number, eventId: number) {
  const { seq, order } = await loadStructure(db, timelineId);
  if (order.length === 0) return;
  const at = seq.find((s) => s.id === eventId);
  const chapterId = chapterAfterMove(seq, order, eventId);
  if (!at || at.chapterId === chapterId) return;
  await db.update(events).set({ chapterId }).where(eq(events.id, eventId));
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
