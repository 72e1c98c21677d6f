import { countWords } from "../../db/domain/word-count";
import { type SQL, eq, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { FREE_TIMELINE_LIMIT } from "../../db/domain/rules";
import { type Timeline, type User, timelines } from "../../db/schema";
import { type Calendar, GREGORIAN, seasonInWords, storedCalendar, storySort } from "../../db/domain/calendar";
import {
  type DocxStyle,
  type ExportFormat,
  type TimelineDocument,
  type TransferAttachment,
  TRANSFER_FORMAT,
  TRANSFER_VERSION,
  exportFormats,
  exportSlug,
  type TransferEntity,
  type TransferEvent,
  renderMarkdown,
} from "../../db/domain/timeline-transfer";
import { type CopiedField, copiedEventFields } from "../../db/domain/validation";
import { forbidden } from "../lib/errors";
import { nowIso } from "../lib/time";
import { requireTimelineAccess } from "./access";
import { authorOf } from "./deps";
import { type ChapterView, listChapterRows } from "./chapters";
import { type EntityView, listEntitiesForTimeline } from "./entities";
import { type EventView, listEventsForTimeline } from "./events";
import { type PlotlineView, listPlotlinesOf } from "./plotlines";
import { isPremium } from "./plans";
import { FREE_LIMIT_MESSAGE, type TimelineView, toTimelineView } from "./timelines";
import { renderManuscriptDocx } from "./docx/manuscript";
import { renderEpub } from "./epub";
import { bookByline, loadManuscript } from "./manuscript";
import { renderDocx } from "./transfer-docx";
import { addProgressionsToDocument, progressionInserts } from "./transfer-progressions";
import { addRelationshipsToDocument, relationshipInserts } from "./transfer-relationships";

// Export and import: a timeline as one document (db/domain/timeline-transfer.ts) and back.
// Export needs read access (viewers and share links included); import creates a timeline, so it
// counts against the free plan's limit exactly like a create.

/** Attachment metadata as the export lists it (the bytes stay behind their access-checked URL). */
function attachmentsOf(list: unknown[]): TransferAttachment[] {
  return list.flatMap((a) => {
    if (typeof a !== "object" || a === null) return [];
    const { filename, contentType, size } = a as Record<string, unknown>;
    return typeof filename === "string" ? [{ filename, contentType: String(contentType ?? ""), size: Number(size) || 0 }] : [];
  });
}

/** A date shown as a season travels with those words, so print, Word and an import read it as the season again. */
function asSeason(cal: Calendar, field: "storyStartText" | "storyEndText", stored: string | null, display: string | null) {
  return display && seasonInWords(cal, display)?.stored === stored ? { [field]: display } : {};
}

export function toTimelineDocument(
  timeline: Pick<Timeline, "title" | "description"> & { calendar?: string | null; targetWords?: number | null; byline?: string | null },
  events: EventView[],
  entities: EntityView[],
  chapters: Pick<ChapterView, "id" | "title" | "targetWords">[] = [],
  plotlines: Pick<PlotlineView, "id" | "title" | "color">[] = [],
): TimelineDocument {
  const plotlineIndex = new Map(plotlines.map((p, i) => [p.id, i]));
  const byId = new Map(entities.map((e) => [e.id, e]));
  const order = new Map(entities.map((e, i) => [e.id, i]));
  const chapterIndex = new Map(chapters.map((c, i) => [c.id, i]));
  const eventIndex = new Map(events.map((e, i) => [e.id, i]));
  const calendar = storedCalendar(timeline.calendar);
  // A timeline without chapters exports exactly as before they existed.
  const withChapters = chapters.length > 0;
  return {
    format: TRANSFER_FORMAT,
    version: TRANSFER_VERSION,
    timeline: {
      title: timeline.title,
      description: timeline.description ?? null,
      ...(timeline.targetWords && { targetWords: timeline.targetWords }),
      ...(timeline.byline && { byline: timeline.byline }),
    },
    entities: entities.map((e) => ({
      kind: e.kind,
      name: e.name,
      aliases: e.aliases,
      description: e.description,
      color: e.color,
      ...(e.born && { born: e.born }),
      ...(e.died && { died: e.died }),
    })),
    // Story order is the order the writers dragged: listEventsForTimeline's position order.
    events: events.map((event) => {
      const linked = event.entityIds.filter((id) => byId.has(id)).sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
      return {
        ...(Object.fromEntries(
          copiedEventFields.filter(({ name }) => !deskFields.has(name)).map(({ name }) => [name, event[name]]),
        ) as Omit<Pick<EventView, CopiedField>, "synopsis" | "notes">),
        // The writer's desk travels when there is something on it (a file from before it reads the same).
        ...(event.synopsis && { synopsis: event.synopsis }),
        ...(event.notes && { notes: event.notes }),
        ...asSeason(calendar, "storyStartText", event.storyStart, event.storyStartDisplay),
        ...asSeason(calendar, "storyEndText", event.storyEnd, event.storyEndDisplay),
        entities: linked.map((id) => byId.get(id)!.name),
        pov: event.povEntityId !== null ? (byId.get(event.povEntityId)?.name ?? null) : null,
        attachments: attachmentsOf(event.attachments),
        ...(withChapters && { chapter: event.chapterId === null ? null : (chapterIndex.get(event.chapterId) ?? null) }),
        ...(event.plotlineIds.length > 0 && {
          plotlines: event.plotlineIds.flatMap((id) => plotlineIndex.get(id) ?? []).sort((a, b) => a - b),
        }),
        ...(event.after.length > 0 && { after: event.after.flatMap((id) => eventIndex.get(id) ?? []).sort((a, b) => a - b) }),
      };
    }),
    ...(withChapters && { chapters: chapters.map((c) => ({ title: c.title, targetWords: c.targetWords })) }),
    ...(plotlines.length > 0 && { plotlines: plotlines.map((p) => ({ title: p.title, color: p.color })) }),
    ...(timeline.calendar && { calendar: storedCalendar(timeline.calendar) }),
  };
}

/** The timeline as a document, for anyone who may read it. One query for access, one each for events and codex. */
export async function exportTimeline(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const [events, entities, chapters, plotlines] = await Promise.all([
    listEventsForTimeline(db, timelineId),
    listEntitiesForTimeline(db, timelineId, user),
    listChapterRows(db, timelineId),
    listPlotlinesOf(db, timelineId),
  ]);
  const doc = await addProgressionsToDocument(db, toTimelineDocument(timeline, events, entities, chapters, plotlines), entities, events);
  return addRelationshipsToDocument(db, doc, timelineId, entities, events);
}

export type ExportFile = { body: string | ArrayBuffer; contentType: string; filename: string };

/**
 * What to export: the format, a .docx's style, whether the outline carries its planning notes, and the writer's
 * locale for the outline's story dates in words.
 */
export type ExportOptions = { format: ExportFormat; style?: DocxStyle; notes?: boolean; locale?: string };

export async function exportTimelineFile(
  db: Db,
  user: User,
  timelineId: number,
  { format, style = "outline", notes = true, locale }: ExportOptions,
  shareCode?: string | null,
): Promise<ExportFile> {
  const { ext, contentType } = exportFormats[format];
  // The book (manuscript and EPUB): the scenes' text by chapter, without the planning.
  if (format === "epub" || (format === "docx" && style === "manuscript")) {
    const book = await loadManuscript(db, user, timelineId, shareCode);
    const slug = exportSlug(book.title);
    if (format === "epub") return { body: await renderEpub(book), contentType, filename: `${slug}.epub` };
    return { body: await renderManuscriptDocx(book), contentType, filename: `${slug}-manuscript.docx` };
  }
  const doc = await exportTimeline(db, user, timelineId, shareCode);
  const filename = `${exportSlug(doc.timeline.title)}.${ext}`;
  if (format === "docx") {
    const byline = await bookByline(db, timelineId);
    return { body: await renderDocx(doc, { notes, locale, byline }), contentType, filename };
  }
  return { body: renderTextExport(doc, format), contentType, filename };
}

/** The JSON and Markdown files exactly as the export gives them (the account's zip holds the same). */
export function renderTextExport(doc: TimelineDocument, format: "json" | "md") {
  return format === "json" ? `${JSON.stringify(doc, null, 2)}\n` : renderMarkdown(doc);
}

/** A scene's synopsis and notes: exported only when not empty. */
const deskFields = new Set<string>(["synopsis", "notes"]);

// Drizzle's D1 batch cannot take raw SQL with parameters, so these statements go to D1's own batch.
const dialect = new SQLiteAsyncDialect();

/** A raw statement for D1's own batch. */
/**
 * An imported event's columns as one JSON row: the fields the event table (`copiedEventFields`) copies as they
 * are, and what is computed from them. `importedEventColumns` and `importedEventValues` are the INSERT's column
 * list and its reads of such a row (`j`), in the same order; an import (new timeline or append) adds the rest.
 */
export function importedEventRow(e: TransferEvent, calendar: Calendar) {
  return {
    ...Object.fromEntries(copiedEventFields.map(({ name }) => [name, e[name]])),
    synopsis: e.synopsis ?? "",
    notes: e.notes ?? "",
    wordCount: countWords(e.content),
    storyStartText: e.storyStartText ?? null,
    storyEndText: e.storyEndText ?? null,
    storySort: storySort(calendar, e.storyStart),
  };
}
/** An imported codex entry's columns (its born and died dates also as sort keys in the timeline's calendar). */
export const importedEntityRow = (e: TransferEntity, calendar: Calendar) => ({
  kind: e.kind,
  name: e.name,
  aliases: e.aliases,
  description: e.description,
  color: e.color,
  born: e.born ?? null,
  died: e.died ?? null,
  bornSort: storySort(calendar, e.born),
  diedSort: storySort(calendar, e.died),
});

const computedColumns = {
  wordCount: "word_count",
  storyStartText: "story_start_text",
  storyEndText: "story_end_text",
  storySort: "story_sort",
};
const importedColumns = [...copiedEventFields.map(({ name, column }) => [name, column] as const), ...Object.entries(computedColumns)];
export const importedEventColumns = sql.raw(importedColumns.map(([, column]) => column).join(", "));
export const importedEventValues = sql.raw(importedColumns.map(([name]) => `json_extract(j.value, '$.${name}')`).join(", "));

export function rawStatement(db: Db, query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
}

/** Rows travel as one bound JSON parameter per statement (D1 binds at most 100 values); big imports in chunks. */
const CHUNK_CHARS = 400_000;

export function chunks<T>(rows: T[]) {
  const out: string[] = [];
  let current: T[] = [];
  let size = 0;
  for (const row of rows) {
    const length = JSON.stringify(row).length;
    if (current.length > 0 && size + length > CHUNK_CHARS) {
      out.push(JSON.stringify(current));
      current = [];
      size = 0;
    }
    current.push(row);
    size += length + 1;
  }
  if (current.length > 0) out.push(JSON.stringify(current));
  return out;
}

/**
 * Creates the timeline, its codex, its events and their links in one D1 batch (one transaction):
 * an import lands whole or not at all. The new timeline is found by a one-off marker in its
 * share_code (cleared by the batch's last statement), so every statement can reach it without a
 * round trip; when the free limit refuses the first INSERT, the others find no timeline and write
 * nothing.
 */
/**
 * A comment the imported file carried (a Word comment) on its `event`-th scene, written as the importer's: `replies`
 * the bodies of its thread's replies, in order; `resolved` when the file marked it done.
 */
export type ImportedComment = { event: number; body: string; quote: string | null; replies?: string[]; resolved?: boolean };

/**
 * The new timeline, and `skipped` (only when something was): what of the file could not be placed, as sentences
 * (a relationship naming an entry the file's codex does not have).
 */
export async function importTimeline(
  db: Db,
  user: User,
  doc: TimelineDocument,
  comments: ImportedComment[] = [],
): Promise<TimelineView & { skipped?: string[] }> {
  const raw = (query: SQL) => rawStatement(db, query);
  const marker = `import-${crypto.randomUUID()}`;
  const now = nowIso();
  const premium = isPremium(user) ? 1 : 0;
  const calendar = doc.calendar ?? GREGORIAN;
  const entityIndex = new Map<string, number>();
  doc.entities.forEach((e, i) => {
    if (!entityIndex.has(e.name)) entityIndex.set(e.name, i);
  });
  const entityRows = doc.entities.map((e) => importedEntityRow(e, calendar));
  const eventRows = doc.events.map((e, position) => ({
    ...importedEventRow(e, calendar),
    position,
    pov: e.pov !== null ? (entityIndex.get(e.pov) ?? null) : null,
    chapter: e.chapter ?? null,
  }));
  const chapterRows = (doc.chapters ?? []).map((c) => ({ title: c.title, targetWords: c.targetWords }));
  const plotlineRows = (doc.plotlines ?? []).map((p) => ({ title: p.title, color: p.color }));
  const inPlotlines = doc.events.flatMap((e, position) => (e.plotlines ?? []).map((i) => [position, i]));
  const dependencies = doc.events.flatMap((e, position) => (e.after ?? []).map((i) => [position, i]));
  const links = doc.events.flatMap((e, position) =>
    [...new Set(e.entities.map((name) => entityIndex.get(name)).filter((i): i is number => i !== undefined))].map((i) => [position, i]),
  );

  const threadRows = comments.map((c) => ({ event: c.event, body: c.body, quote: c.quote, resolved: c.resolved ? 1 : 0 }));
  const replyRows = comments.flatMap((c, thread) => (c.replies ?? []).map((body) => ({ thread, body })));
  const newTimeline = sql`(SELECT id FROM timelines WHERE share_code = ${marker})`;
  // The codex in file order: the n-th entry of the new timeline is the file's entry n.
  const related = relationshipInserts(doc, marker, now, chunks);
  const codex = sql`codex AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY id) - 1 AS idx FROM entities WHERE timeline_id = ${newTimeline})`;

  const statements = [
    raw(sql`
      INSERT INTO timelines (user_id, title, description, share_code, calendar, target_words, byline, created_at, updated_at)
      SELECT ${user.id}, ${doc.timeline.title}, ${doc.timeline.description}, ${marker}, ${doc.calendar ? JSON.stringify(doc.calendar) : null},
             ${doc.timeline.targetWords ?? null}, ${doc.timeline.byline ?? null}, ${now}, ${now}
      WHERE ${premium} = 1 OR (SELECT count(*) FROM timelines WHERE user_id = ${user.id} AND deleted_at IS NULL) < ${FREE_TIMELINE_LIMIT}`),
    ...chunks(entityRows).map((json) =>
      raw(sql`
        INSERT INTO entities (timeline_id, kind, name, aliases, description, color, born, died, born_sort, died_sort, created_at, updated_at)
        SELECT t.id, json_extract(j.value, '$.kind'), json_extract(j.value, '$.name'), json_extract(j.value, '$.aliases'),
               json_extract(j.value, '$.description'), json_extract(j.value, '$.color'), json_extract(j.value, '$.born'),
               json_extract(j.value, '$.died'), json_extract(j.value, '$.bornSort'), json_extract(j.value, '$.diedSort'), ${now}, ${now}
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}
        ORDER BY j.key`),
    ),
    // The chapters in file order: the n-th chapter of the new timeline (position n) is the file's chapter n.
    ...chunks(chapterRows).map((json) =>
      raw(sql`
        INSERT INTO chapters (timeline_id, title, position, target_words, created_at, updated_at)
        SELECT t.id, json_extract(j.value, '$.title'), j.key, json_extract(j.value, '$.targetWords'), ${now}, ${now}
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}
        ORDER BY j.key`),
    ),
    // The plotlines in file order: the n-th plotline of the new timeline (position n) is the file's plotline n.
    ...chunks(plotlineRows).map((json) =>
      raw(sql`
        INSERT INTO plotlines (timeline_id, title, color, position, created_at, updated_at)
        SELECT t.id, json_extract(j.value, '$.title'), json_extract(j.value, '$.color'), j.key, ${now}, ${now}
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}
        ORDER BY j.key`),
    ),
    ...chunks(eventRows).map((json) =>
      raw(sql`
        WITH ${codex}
        INSERT INTO events (timeline_id, ${importedEventColumns}, position, attachments, version, pov_entity_id, chapter_id, created_at, updated_at)
        SELECT t.id, ${importedEventValues}, json_extract(j.value, '$.position'), '[]', 1,
               (SELECT id FROM codex WHERE idx = json_extract(j.value, '$.pov')),
               (SELECT c.id FROM chapters c WHERE c.timeline_id = t.id AND c.position = json_extract(j.value, '$.chapter')),
               ${now}, ${now}
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}
        ORDER BY j.key`),
    ),
    ...chunks(links).map((json) =>
      raw(sql`
        WITH ${codex}
        INSERT INTO event_entities (event_id, entity_id)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$[0]')),
               (SELECT id FROM codex WHERE idx = json_extract(j.value, '$[1]'))
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}`),
    ),
    ...chunks(inPlotlines).map((json) =>
      raw(sql`
        INSERT INTO event_plotlines (event_id, plotline_id)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$[0]')),
               (SELECT p.id FROM plotlines p WHERE p.timeline_id = t.id AND p.position = json_extract(j.value, '$[1]'))
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}`),
    ),
    ...chunks(dependencies).map((json) =>
      raw(sql`
        INSERT OR IGNORE INTO event_dependencies (event_id, after_event_id)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$[0]')),
               (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$[1]'))
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}`),
    ),
    ...chunks(threadRows).map((json) =>
      raw(sql`
        INSERT INTO comments (event_id, author_id, author_name, body, quote, resolved, created_at, updated_at)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$.event')),
               ${user.id}, ${authorOf(user).userName}, json_extract(j.value, '$.body'), json_extract(j.value, '$.quote'),
               json_extract(j.value, '$.resolved'), ${now}, ${now}
        FROM timelines t, json_each(${json}) j
        WHERE t.share_code = ${marker}
        ORDER BY j.key`),
    ),
    // Replies after every thread's first comment: the n-th first comment of the new timeline is the file's thread n.
    ...chunks(replyRows).map((json) =>
      raw(sql`
        WITH threads AS MATERIALIZED (
          SELECT c.id, c.event_id, row_number() OVER (ORDER BY c.id) - 1 AS idx
          FROM comments c JOIN events e ON e.id = c.event_id
          WHERE e.timeline_id = ${newTimeline} AND c.thread_id IS NULL)
        INSERT INTO comments (event_id, thread_id, author_id, author_name, body, created_at, updated_at)
        SELECT th.event_id, th.id, ${user.id}, ${authorOf(user).userName}, json_extract(j.value, '$.body'), ${now}, ${now}
        FROM json_each(${json}) j JOIN threads th ON th.idx = json_extract(j.value, '$.thread')
        ORDER BY j.key`),
    ),
    ...progressionInserts(doc, marker, now, chunks).map(raw),
    ...related.statements.map(raw),
    // Each event's first version, by the importer.
    raw(sql`
      INSERT INTO event_versions (event_id, timeline_id, author_id, author_name, title, content, created_at)
      SELECT e.id, e.timeline_id, ${user.id}, ${authorOf(user).userName}, e.title, e.content, ${now}
      FROM events e JOIN timelines t ON t.id = e.timeline_id
      WHERE t.share_code = ${marker}
      ORDER BY e.position`),
    raw(sql`UPDATE timelines SET share_code = NULL WHERE share_code = ${marker} RETURNING id`),
  ];
  const results = await db.$client.batch<{ id: number }>(statements);
  const id = results.at(-1)?.results[0]?.id;
  if (!id) throw forbidden(FREE_LIMIT_MESSAGE);
  const created = await db.select().from(timelines).where(eq(timelines.id, id)).get();
  const view = toTimelineView(created!, "owner", false, user);
  return related.skipped.length > 0 ? { ...view, skipped: related.skipped } : view;
}
