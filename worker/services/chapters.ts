import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { moveChapter, moveToChapter } from "../../db/domain/chapter-order";
import { type CreateChapter, type UpdateChapter, chapterMessages } from "../../db/domain/validation-chapters";
import { type User, chapters, events, timelineShares, timelines } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, accessColumns, callerShare, requireRowAccess, requireTimelineAccess } from "./access";
import { chapterOrderStatement, fillWordCounts, loadStructure, orderStatements, runAll } from "./chapter-structure";
import { type Deps, authorOf } from "./deps";

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

/** A new chapter, last in the chapters' order; `eventIds` move into it (in story order), as moves into a chapter do. */
export async function createChapter(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: CreateChapter,
  shareCode?: string | null,
): Promise<ChapterView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const eventIds = input.eventIds ?? [];
  const before = eventIds.length > 0 ? await loadStructure(db, timelineId) : null;
  if (before && !eventIds.every((id) => before.seq.some((s) => s.id === id))) throw badRequest(chapterMessages.foreignEvent);
  const now = nowIso();
  const [row] = await db
    .insert(chapters)
    .values({
      timelineId,
      title: input.title,
      targetWords: input.targetWords ?? null,
      position: sql`(SELECT count(*) FROM chapters WHERE timeline_id = ${timelineId})`,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: chapters.id });
  if (before) {
    const order = [...before.order, row.id];
    const moving = before.seq.filter((s) => eventIds.includes(s.id));
    let seq = before.seq.map((s) => ({ id: s.id, chapterId: s.chapterId }));
    for (const scene of moving) seq = moveToChapter(seq, order, scene.id, row.id);
    await runAll(db, orderStatements(timelineId, before.seq, seq));
  }
  room(timelineId, { action: "chapter-added", by: authorOf(user), subject: input.title });
  return chapterView(db, row.id);
}

async function loadChapterWithAccess(db: Db, user: User, chapterId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  const row = await db
    .select({ chapter: chapters, ...accessColumns(user) })
    .from(chapters)
    .innerJoin(timelines, eq(timelines.id, chapters.timelineId))
    .leftJoin(timelineShares, callerShare(user, chapters.timelineId))
    .where(eq(chapters.id, chapterId))
    .get();
  return requireRowAccess(row, user, need, shareCode, chapterMessages.notFound).row.chapter;
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
    const before = await loadStructure(db, chapter.timelineId);
    const moved = moveChapter(before.seq, before.order, chapterId, input.position);
    await runAll(db, [
      chapterOrderStatement(chapter.timelineId, moved.order),
      ...orderStatements(chapter.timelineId, before.seq, moved.seq),
    ]);
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
    db
      .update(chapters)
      .set({ position: sql`${chapters.position} - 1` })
      .where(and(eq(chapters.timelineId, chapter.timelineId), gt(chapters.position, chapter.position))),
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
