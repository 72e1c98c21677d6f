import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { countWords } from "../../db/domain/word-count";
import { type User, chapters, events, timelines, users } from "../../db/schema";
import { notFound } from "../lib/errors";
import { TIMELINE_NOT_FOUND, requireTimelineAccess } from "./access";
import { bylineOf } from "./timelines";

// The book as a reader gets it: the scenes' text in story order, grouped by chapter, with nothing of the
// planning (scene titles, story dates, codex, attachments). Both the manuscript .docx and the EPUB are
// written from this.

/** A run of scenes: a chapter's (with its title), or scenes outside any chapter (title null). */
export type ManuscriptPart = { title: string | null; scenes: string[] };

export type Manuscript = {
  title: string;
  /** `name` is the byline (title pages, running heads, EPUB creator); `legalName` the owner's own name (contact block). */
  author: { name: string; legalName: string; email: string };
  /** Stable for the timeline, so an e-reader sees a new export as the same book. */
  bookKey: string;
  wordCount: number;
  parts: ManuscriptPart[];
};

type SceneRow = { content: string; chapterId: number | null };
type ChapterRow = { id: number; title: string; position: number };

/**
 * Scenes in story order make the parts: a chapter's scenes are contiguous in it, so a chapter starts where its
 * first scene is (all its scenes go there, should any have strayed); scenes outside chapters between them form
 * untitled parts. A chapter without scenes keeps its place among the chapters. Empty scenes are left out.
 */
export function manuscriptParts(scenes: SceneRow[], chapterRows: ChapterRow[]): ManuscriptPart[] {
  const byChapter = new Map<number, string[]>();
  for (const scene of scenes) {
    if (scene.chapterId === null || scene.content.trim() === "") continue;
    byChapter.set(scene.chapterId, [...(byChapter.get(scene.chapterId) ?? []), scene.content]);
  }
  const chapterById = new Map(chapterRows.map((c) => [c.id, c]));
  const parts: (ManuscriptPart & { position: number | null })[] = [];
  const placed = new Set<number>();
  for (const scene of scenes) {
    const chapter = scene.chapterId === null ? undefined : chapterById.get(scene.chapterId);
    if (chapter) {
      if (placed.has(chapter.id)) continue;
      placed.add(chapter.id);
      parts.push({ title: chapter.title, scenes: byChapter.get(chapter.id) ?? [], position: chapter.position });
      continue;
    }
    if (scene.content.trim() === "") continue;
    const last = parts.at(-1);
    if (last && last.title === null) last.scenes.push(scene.content);
    else parts.push({ title: null, scenes: [scene.content], position: null });
  }
  for (const chapter of [...chapterRows].sort((a, b) => a.position - b.position)) {
    if (placed.has(chapter.id)) continue;
    const next = parts.findIndex((p) => p.position !== null && p.position > chapter.position);
    const part = { title: chapter.title, scenes: [], position: chapter.position };
    if (next === -1) parts.push(part);
    else parts.splice(next, 0, part);
  }
  return parts.map(({ title, scenes: text }) => ({ title, scenes: text }));
}

/** The author's surname as a manuscript header shows it: the last word of the name. */
export const surnameOf = (name: string) => name.trim().split(/\s+/).at(-1) ?? name;

/** 'about 81,000 words': to the nearest thousand (the nearest hundred for a short text). */
export function roundedWordCount(words: number) {
  if (words === 0) return "0 words";
  const rounded = words < 1000 ? Math.max(100, Math.round(words / 100) * 100) : Math.round(words / 1000) * 1000;
  return `about ${rounded.toLocaleString("en-US")} words`;
}

/**
 * The one read of a book's text: its chapters in order and its scenes in story order (trashed scenes left out).
 * The manuscript page and the exports are both built from it. No access check: callers make theirs first.
 */
export async function loadBookRows(db: Db, timelineId: number) {
  const [chapterRows, scenes] = await Promise.all([
    db
      .select({ id: chapters.id, title: chapters.title, position: chapters.position })
      .from(chapters)
      .where(eq(chapters.timelineId, timelineId))
      .orderBy(asc(chapters.position), asc(chapters.id)),
    db
      .select({ id: events.id, title: events.title, content: events.content, chapterId: events.chapterId })
      .from(events)
      .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
      .orderBy(asc(events.position), asc(events.id)),
  ]);
  return { chapters: chapterRows, scenes };
}

/** The timeline's book for anyone who may read it (share links included); trashed scenes never appear. */
export async function loadManuscript(db: Db, user: User, timelineId: number, shareCode?: string | null): Promise<Manuscript> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  if (timeline.deletedAt) throw notFound(TIMELINE_NOT_FOUND);
  const [owner, { scenes, chapters: chapterRows }] = await Promise.all([
    db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, timeline.userId)).get(),
    loadBookRows(db, timelineId),
  ]);
  const email = owner?.email ?? "";
  // The byline (DESIGN §12) when the owner set one, else the owner's name.
  const name = bylineOf(timeline.byline, owner);
  // The contact block's name: the writer's own, whatever the byline says.
  const legalName = bylineOf(null, owner);
  const parts = manuscriptParts(scenes, chapterRows);
  const wordCount = parts.reduce((sum, part) => sum + part.scenes.reduce((n, scene) => n + countWords(scene), 0), 0);
  return {
    title: timeline.title,
    author: { name, legalName, email },
    bookKey: `${timeline.id}:${timeline.createdAt}`,
    wordCount,
    parts,
  };
}

/** The name a title page shows for a timeline the caller may already read: its byline, else the owner's name. */
export async function bookByline(db: Db, timelineId: number) {
  const row = await db
    .select({ byline: timelines.byline, name: users.name, email: users.email })
    .from(timelines)
    .innerJoin(users, eq(users.id, timelines.userId))
    .where(eq(timelines.id, timelineId))
    .get();
  return bylineOf(row?.byline, row);
}
