import { type SQL, and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Scene, moveChapter, moveToChapter } from "../../db/domain/chapter-order";
import { type CreateChapter, type UpdateChapter, chapterMessages } from "../../db/domain/validation-chapters";
import { type User, chapters, events } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, loadWithAccess, requireTimelineAccess } from "./access";
import { fillWordCounts, loadStructure, rewriteOrder } from "./chapter-structure";
import { type Deps, authorOf } from "./deps";
import { type ReservedKey, keyAnswerStatements, runWithKey } from "./idempotency-keys";

export type ChapterView = {
  id: number;
  timelineId: number;
  title: string;
  position: number;
  targetWords: number | null;
  /** The sum of its scenes' word counts. */
  wordCount: number;
};

const chapterColumns = {
  id: chapters.id,
  timelineId: chapters.timelineId,
  title: chapters.title,
  position: chapters.position,
  targetWords: chapters.targetWords,
  wordCount:
    sql<number>`(SELECT coalesce(sum(e.word_count), 0) FROM events e WHERE e.chapter_id = "chapters"."id" AND e.deleted_at IS NULL)`.mapWith(
      Number,
    ),
};

async function chapterView(db: Db, chapterId: number): Promise<ChapterView> {
  const row = await db.select(chapterColumns).from(chapters).where(eq(chapters.id, chapterId)).get();
  if (!row) throw notFound(chapterMessages.notFound);
  return row;
}

/** The timeline's chapters in order, each with its word count. Read access, as the events list. */
export async function listChapters(db: Db, user: User, timelineId: number, shareCode?: string | null): Promise<ChapterView[]> {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return listChaptersOf(db, timelineId);
}

export async function listChaptersOf(db: Db, timelineId: number): Promise<ChapterView[]> {
  await fillWordCounts(db, timelineId);
  return db
    .select(chapterColumns)
    .from(chapters)
    .where(eq(chapters.timelineId, timelineId))
    .orderBy(asc(chapters.position), asc(chapters.id));
}

/** The chapters' ids, titles and targets in order (no counts), for exports. */
export const listChapterRows = (db: Db, timelineId: number) =>
  db
    .select({ id: chapters.id, title: chapters.title, targetWords: chapters.targetWords })
    .from(chapters)
    .where(eq(chapters.timelineId, timelineId))
    .orderBy(asc(chapters.position), asc(chapters.id));

/** The row of a new chapter, last in the timeline's chapters' order (its position counted in the insert itself). */
export const newChapterRow = (timelineId: number, input: { title: string; targetWords?: number | null }, now: string) => ({
  timelineId,
  title: input.title,
  targetWords: input.targetWords ?? null,
  position: sql<number>`(SELECT count(*) FROM chapters WHERE timeline_id = ${timelineId})`,
  createdAt: now,
  updatedAt: now,
});

/** The JSON a chapter is answered with, read inside a batch from `chapterId` (an id or a subquery): a key's answer. */
export const chapterAnswerSql = (chapterId: SQL | number) =>
  sql<string>`(SELECT json_object('id', c.id, 'timelineId', c.timeline_id, 'title', c.title, 'position', c.position,
    'targetWords', c.target_words, 'wordCount', (SELECT coalesce(sum(e.word_count), 0) FROM events e
    WHERE e.chapter_id = c.id AND e.deleted_at IS NULL)) FROM chapters c WHERE c.id = ${chapterId})`;

/**
 * A new chapter, last in the chapters' order; `eventIds` move into it (in story order), as moves into a chapter do.
 * With an Idempotency-Key (`reserved`), a chapter made without scenes writes its key's answer in the same batch as
 * its row; one that moves scenes in leaves it to the key's middleware, after the moves (its answer counts their words).
 */
export async function createChapter(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: CreateChapter,
  shareCode?: string | null,
  reserved?: ReservedKey | null,
): Promise<ChapterView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const eventIds = input.eventIds ?? [];
  const before = eventIds.length > 0 ? await loadStructure(db, timelineId) : null;
  if (before && !eventIds.every((id) => before.seq.some((s) => s.id === id))) throw badRequest(chapterMessages.foreignEvent);
  const insert = db
    .insert(chapters)
    .values(newChapterRow(timelineId, input, nowIso()))
    .returning({ id: chapters.id });
  const answer =
    reserved && !before
      ? keyAnswerStatements(db, reserved, 201, chapterAnswerSql(sql`(SELECT max(id) FROM chapters WHERE timeline_id = ${timelineId})`))
      : [];
  const [inserted] = await runWithKey(db, answer.length > 0 ? reserved : null, () =>
    db.batch([insert, ...answer] as unknown as [typeof insert]),
  );
  const row = inserted[0];
  if (before) {
    await rewriteOrder(db, timelineId, ({ seq: current, order }) => {
      let seq: Scene[] = current.map((s) => ({ id: s.id, chapterId: s.chapterId }));
      for (const scene of current.filter((s) => eventIds.includes(s.id))) seq = moveToChapter(seq, order, scene.id, row.id);
      return { seq };
    });
  }
  room(timelineId, { action: "chapter-added", by: authorOf(user), subject: input.title });
  return chapterView(db, row.id);
}

async function loadChapterWithAccess(db: Db, user: User, chapterId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  return (await loadWithAccess(db, user, { table: chapters, id: chapterId, missing: chapterMessages.notFound }, need, shareCode)).row.row;
}

/** Rename, set its target, or move it in the chapters' order (its scenes move with it). */
export async function updateChapter(
  { db, room }: Deps,
  user: User,
  chapterId: number,
  input: UpdateChapter,
  shareCode?: string | null,
): Promise<ChapterView> {
  const chapter = await loadChapterWithAccess(db, user, chapterId, "collaborator", shareCode);
  if (input.title !== undefined || input.targetWords !== undefined) {
    await db
      .update(chapters)
      .set({
        ...(input.title !== undefined && { title: input.title }),
        ...(input.targetWords !== undefined && { targetWords: input.targetWords }),
        updatedAt: nowIso(),
      })
      .where(eq(chapters.id, chapterId));
  }
  if (input.position !== undefined) {
    const position = input.position;
    await rewriteOrder(db, chapter.timelineId, ({ seq, order }) => moveChapter(seq, order, chapterId, position));
  }
  room(chapter.timelineId, { action: "chapter-edited", by: authorOf(user), subject: input.title ?? chapter.title });
  return chapterView(db, chapterId);
}

/** Owners only. Its scenes stay where they are in the story, in no chapter; the chapters after it close the gap. */
export async function deleteChapter({ db, room }: Deps, user: User, chapterId: number, shareCode?: string | null) {
  const chapter = await loadChapterWithAccess(db, user, chapterId, "owner", shareCode);
  await db.batch([
    db.update(events).set({ chapterId: null }).where(eq(events.chapterId, chapterId)),
    db.delete(chapters).where(eq(chapters.id, chapterId)),
    // The rest numbered 0..n-1 in their order as it is now (a move may have landed since it was read).
    db
      .update(chapters)
      .set({
        position: sql`(SELECT count(*) FROM chapters c WHERE c.timeline_id = chapters.timeline_id
          AND (c.position < chapters.position OR (c.position = chapters.position AND c.id < chapters.id)))`,
      })
      .where(eq(chapters.timelineId, chapter.timelineId)),
  ]);
  room(chapter.timelineId, { action: "chapter-deleted", by: authorOf(user), subject: chapter.title });
  return { success: true };
}

/** The timeline's word count: the sum of its scenes' (trashed scenes left out). */
export async function timelineWordCount(db: Db, timelineId: number) {
  await fillWordCounts(db, timelineId);
  const row = await db
    .select({ n: sql<number>`coalesce(sum(${events.wordCount}), 0)`.mapWith(Number) })
    .from(events)
    .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
    .get();
  return row?.n ?? 0;
}
