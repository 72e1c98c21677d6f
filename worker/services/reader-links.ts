import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, chapters, comments, events, readerLinks, readers, timelines, users } from "../../db/schema";
import * as Y from "yjs";
import { randomToken, sha256Hex } from "../lib/crypto";
import { badRequest, notFound } from "../lib/errors";
import { TIMELINE_NOT_FOUND, canEdit, requireTimelineAccess } from "./access";
import { type QuoteContext, anchorOfQuote } from "./import/comment-anchors";
import { loadBookRows } from "./manuscript";

// Reader links (DESIGN §12 'Readers'): a link whose holder reads the book without an account and comments on it
// after giving a name once. Ending a link deletes it: its code then reads as any forged one, 'not found'.

export const READER_LINK_NOT_FOUND = "This reader link was not found. It may have ended; ask the author for a new one.";

export type ReaderLinkView = {
  id: number;
  code: string;
  label: string;
  url: string;
  createdAt: string;
  /** `place`: where the reader stopped in words ('Chapter 7: The Storm'), null before their first scene. */
  readers: { name: string; eventId: number | null; at: string | null; place: string | null }[];
};

const linkUrl = (origin: string, code: string) => `${origin}/read/${code}`;

export async function createReaderLink(db: Db, user: User, timelineId: number, label: string, origin: string) {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "owner");
  if (timeline.deletedAt) throw notFound(TIMELINE_NOT_FOUND);
  const row = await db
    .insert(readerLinks)
    .values({ timelineId, label, code: randomToken(18) })
    .returning()
    .get();
  return { id: row.id, code: row.code, label: row.label, url: linkUrl(origin, row.code), createdAt: row.createdAt };
}

export async function listReaderLinks(db: Db, user: User, timelineId: number, origin: string): Promise<ReaderLinkView[]> {
  await requireTimelineAccess(db, user, timelineId, "owner");
  const links = await db
    .select()
    .from(readerLinks)
    .where(eq(readerLinks.timelineId, timelineId))
    .orderBy(desc(readerLinks.createdAt), desc(readerLinks.id));
  const rows = links.length
    ? await db
        .select({
          linkId: readers.linkId,
          name: readers.name,
          eventId: readers.eventId,
          at: readers.at,
          scene: events.title,
          chapter: chapters.title,
        })
        .from(readers)
        .leftJoin(events, and(eq(events.id, readers.eventId), eq(events.timelineId, timelineId)))
        .leftJoin(chapters, eq(chapters.id, events.chapterId))
        .where(
          inArray(
            readers.linkId,
            links.map((l) => l.id),
          ),
        )
        .orderBy(asc(readers.id))
    : [];
  return links.map((l) => ({
    id: l.id,
    code: l.code,
    label: l.label,
    url: linkUrl(origin, l.code),
    createdAt: l.createdAt,
    readers: rows
      .filter((r) => r.linkId === l.id)
      .map(({ name, eventId, at, scene, chapter }) => ({
        name,
        eventId,
        at,
        place: scene === null ? null : chapter ? `${chapter}: ${scene}` : scene,
      })),
  }));
}

/** Ends a link at once (owner only); its readers' comments stay in the book's Comments. */
export async function endReaderLink(db: Db, user: User, linkId: number) {
  const link = await db.select().from(readerLinks).where(eq(readerLinks.id, linkId)).get();
  if (!link) throw notFound("Reader link not found");
  await requireTimelineAccess(db, user, link.timelineId, "owner").catch(() => {
    throw notFound("Reader link not found");
  });
  await db.delete(readerLinks).where(eq(readerLinks.id, linkId));
}

/** The live link for a code, or 404 (ended, forged, or its book in Trash). */
export async function linkByCode(db: Db, code: string) {
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(code)) throw notFound(READER_LINK_NOT_FOUND);
  const row = await db
    .select({ link: readerLinks, timeline: timelines })
    .from(readerLinks)
    .innerJoin(timelines, eq(timelines.id, readerLinks.timelineId))
    .where(and(eq(readerLinks.code, code), isNull(timelines.deletedAt)))
    .get();
  if (!row) throw notFound(READER_LINK_NOT_FOUND);
  return row;
}

export type ReaderBook = {
  timeline: { title: string; author: string };
  chapters: { title: string | null; scenes: { id: number; title: string; content: string }[] }[];
};

/**
 * The book as a link's reader gets it: chapters in order, each with its scenes in story order; scenes marked
 * 'Not for readers', trashed or empty are left out, and nothing of the planning (notes, codex, dates) is sent.
 * Scenes outside any chapter form untitled chapters where they stand.
 */
export async function readBook(db: Db, code: string): Promise<ReaderBook> {
  const { timeline } = await linkByCode(db, code);
  const [owner, book, hidden] = await Promise.all([
    db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, timeline.userId)).get(),
    loadBookRows(db, timeline.id),
    db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.timelineId, timeline.id), eq(events.forReaders, false))),
  ]);
  const hiddenIds = new Set(hidden.map((h) => h.id));
  const chapterById = new Map(book.chapters.map((c) => [c.id, c]));
  const out: ReaderBook["chapters"] = [];
  const byChapter = new Map<number, ReaderBook["chapters"][number]>();
  for (const scene of book.scenes) {
    if (hiddenIds.has(scene.id) || scene.content.trim() === "") continue;
    const view = { id: scene.id, title: scene.title, content: scene.content };
    const chapter = scene.chapterId === null ? undefined : chapterById.get(scene.chapterId);
    if (chapter) {
      const part = byChapter.get(chapter.id);
      if (part) part.scenes.push(view);
      else {
        const fresh = { title: chapter.title, scenes: [view] };
        byChapter.set(chapter.id, fresh);
        out.push(fresh);
      }
      continue;
    }
    const last = out.at(-1);
    if (last && last.title === null) last.scenes.push(view);
    else out.push({ title: null, scenes: [view] });
  }
  const author = owner?.name?.trim() || owner?.email.split("@")[0] || "Anonymous";
  return { timeline: { title: timeline.title, author }, chapters: out };
}

/** The reader a token names on this link (null: none, or another link's). */
export async function readerOf(db: Db, linkId: number, token: string | null) {
  if (!token || token.length > 100) return null;
  const row = await db
    .select()
    .from(readers)
    .where(eq(readers.tokenHash, await sha256Hex(token)))
    .get();
  return row && row.linkId === linkId ? row : null;
}

/** The caller's reader on this link, made from `name` when they have none yet (a fresh token is then returned). */
export async function ensureReader(db: Db, linkId: number, token: string | null, name: string | undefined) {
  const found = await readerOf(db, linkId, token);
  if (found) return { reader: found, token: null };
  if (!name) throw badRequest("Give your name first");
  const fresh = randomToken(24);
  const reader = await db
    .insert(readers)
    .values({ linkId, name, tokenHash: await sha256Hex(fresh) })
    .returning()
    .get();
  return { reader, token: fresh };
}

/** A scene a link's reader may see: in the book, not trashed, not 'Not for readers'. */
async function readableScene(db: Db, timelineId: number, eventId: number) {
  const scene = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.timelineId, timelineId), isNull(events.deletedAt), eq(events.forReaders, true)))
    .get();
  if (!scene) throw notFound("Scene not found");
  return scene;
}

export async function saveProgress(db: Db, timelineId: number, readerId: number, eventId: number) {
  await readableScene(db, timelineId, eventId);
  const at = new Date().toISOString();
  await db.update(readers).set({ eventId, at }).where(eq(readers.id, readerId));
  return { eventId, at };
}

export type ReaderCommentView = { id: number; eventId: number; body: string; quote: string | null; createdAt: string };

/** A scene's shared doc as one Yjs update (`readDocState`), null when it cannot be had. */
export type DocStateReader = (eventId: number) => Promise<Uint8Array | null>;

/**
 * The reader's quote as the editor's anchor in the scene's shared doc (Yjs relative positions, as a writer's
 * comment gets), the occurrence picked by the words around it; null when the text no longer holds it (or the doc
 * cannot be reached): the comment then stays on the scene with its quote.
 */
async function anchorInScene(readDoc: DocStateReader, eventId: number, quote: string, context: QuoteContext) {
  try {
    const state = await readDoc(eventId);
    if (!state) return null;
    const doc = new Y.Doc();
    try {
      Y.applyUpdate(doc, state);
      return anchorOfQuote(doc, quote, context);
    } finally {
      doc.destroy();
    }
  } catch (error) {
    console.error("[readers] comment anchor failed:", String(error));
    return null;
  }
}

export async function addReaderComment(
  db: Db,
  readDoc: DocStateReader,
  timelineId: number,
  reader: { id: number; name: string },
  input: { eventId: number; body: string; quote: string | null; context?: QuoteContext },
): Promise<ReaderCommentView> {
  await readableScene(db, timelineId, input.eventId);
  const anchor = input.quote ? await anchorInScene(readDoc, input.eventId, input.quote, input.context ?? {}) : null;
  const row = await db
    .insert(comments)
    .values({
      eventId: input.eventId,
      authorId: null,
      authorName: `Reader: ${reader.name}`,
      body: input.body,
      anchorFrom: anchor?.from ?? null,
      anchorTo: anchor?.to ?? null,
      quote: input.quote,
      readerId: reader.id,
    })
    .returning()
    .get();
  return { id: row.id, eventId: row.eventId, body: row.body, quote: row.quote, createdAt: row.createdAt };
}

/** A reader's own comments (never another reader's, nor the writers'). */
export async function readerComments(db: Db, readerId: number): Promise<ReaderCommentView[]> {
  return db
    .select({ id: comments.id, eventId: comments.eventId, body: comments.body, quote: comments.quote, createdAt: comments.createdAt })
    .from(comments)
    .where(eq(comments.readerId, readerId))
    .orderBy(asc(comments.id));
}

/** 'Not for readers' (editors): PATCH /api/events/{id} {forReaders}. */
export async function setForReaders(db: Db, user: User, eventId: number, forReaders: boolean) {
  const event = await db
    .select({ timelineId: events.timelineId })
    .from(events)
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
    .get();
  if (!event) throw notFound("Event not found");
  const { access } = await requireTimelineAccess(db, user, event.timelineId, "collaborator");
  if (!canEdit(access)) throw notFound("Event not found");
  await db.update(events).set({ forReaders }).where(eq(events.id, eventId));
  return { id: eventId, forReaders };
}
