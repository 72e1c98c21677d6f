// What every import format becomes (the StoryWeave JSON document) and the rules all of them check.
import { type EntityKind, defaultEntityColor, entityLimits, limits } from "../rules";
import { isStoryOrderValid } from "../chapter-order";
import { type Calendar, GREGORIAN, machineReason, parseMachine, storyDisplay, storyRangeOrdered } from "../calendar";
import { storyDateReason } from "../story-date";
import { EventContentSchema, EventTitleSchema } from "../validation";

export const TRANSFER_FORMAT = "storyweave-timeline";
export const TRANSFER_VERSION = 1;

/** What one import may create (the request body is also capped at 1 MB: 413). */
export const importLimits = { events: 5000, entities: 1000, chapters: 1000, plotlines: 200, linksPerEvent: 100, storyLabel: 100 } as const;

export type TransferAttachment = { filename: string; contentType: string; size: number };
export type TransferEntity = {
  kind: EntityKind;
  name: string;
  aliases: string[];
  description: string;
  color: string;
  /** A character's lifespan, story dates (absent: not known). */
  born?: string | null;
  died?: string | null;
  /** What changes about it from a scene on (DESIGN.md §12): `event` indexes the document's `events` (absent: none). */
  progressions?: TransferProgression[];
};
export type TransferProgression = { event: number; text: string };
/** A codex relationship (DESIGN.md §12): entries by name, `since` indexes the document's `events` (absent: always). */
export type TransferRelationship = { from: string; to: string; label: string; since?: number };
export type TransferEvent = {
  title: string;
  content: string;
  storyStart: string | null;
  storyEnd: string | null;
  storyLabel: string | null;
  /** The writer's desk (DESIGN §12): Markdown beside the text, never counted (absent: empty). */
  synopsis?: string;
  notes?: string;
  /** A date written as a season ('Spring 1203 AR'), so it reads back as one (absent: the date's own words). */
  storyStartText?: string;
  storyEndText?: string;
  /** Names of the linked codex entries, in codex order. */
  entities: string[];
  /** The point-of-view entry's name: one of `entities`. */
  pov: string | null;
  attachments: TransferAttachment[];
  /** The chapter it is in: an index into the document's `chapters` (absent or null: none). */
  chapter?: number | null;
  /** The plotlines it belongs to: indexes into the document's `plotlines` (absent: none). */
  plotlines?: number[];
  /** The scenes it must come after: indexes into the document's `events` (absent: none). */
  after?: number[];
};
export type TransferChapter = { title: string; targetWords: number | null };
export type TransferPlotline = { title: string; color: string };
/** The JSON export, and what every import format becomes. Events in story order. */
export type TimelineDocument = {
  format: typeof TRANSFER_FORMAT;
  version: typeof TRANSFER_VERSION;
  /** `targetWords`: the book's word target (absent: none); `byline`: the name the owner set (absent: the owner's name). */
  timeline: { title: string; description: string | null; targetWords?: number; byline?: string };
  entities: TransferEntity[];
  events: TransferEvent[];
  /** In order; absent when the timeline has none (files from before chapters have none). */
  chapters?: TransferChapter[];
  /** In order; absent when the timeline has none. */
  plotlines?: TransferPlotline[];
  /** The calendar its story dates are written in; absent: Gregorian. */
  calendar?: Calendar;
  /** Between codex entries, oldest first; absent when the timeline has none. */
  relationships?: TransferRelationship[];
};

export type ParseResult = { ok: true; document: TimelineDocument } | { ok: false; error: string };

export const fmt = (n: number) => n.toLocaleString("en-US");
export const tooLong = (what: string, max: number) => `${what} must be at most ${fmt(max)} characters`;

export class ImportError extends Error {}
export const fail = (where: string, message: string): never => {
  throw new ImportError(`${where}: ${message}`);
};

/** A stored-form story date of the file, read in the file's calendar (Gregorian unless it carries one). */
export function checkStoryDate(where: string, field: "start" | "end" | "date" | "born" | "died", value: string, cal: Calendar = GREGORIAN) {
  const parsed = parseMachine(cal, value);
  if (!parsed.ok)
    fail(where, `${field} ${value} ${parsed.reason === "format" ? storyDateReason.format : machineReason(cal, parsed.reason)}`);
}

/** The document for reading (print, Word): story dates in its calendar's words (in `locale`) instead of the stored form. */
export function datesInWords(doc: TimelineDocument, locale?: string): TimelineDocument {
  const cal = doc.calendar ?? GREGORIAN;
  return {
    ...doc,
    events: doc.events.map((e) => ({
      ...e,
      storyStart: storyDisplay(cal, e.storyStart, { typed: e.storyStartText, locale }),
      storyEnd: storyDisplay(cal, e.storyEnd, { typed: e.storyEndText, locale }),
    })),
  };
}

export function checkEvent(where: string, event: TransferEvent, cal: Calendar = GREGORIAN) {
  if (!event.title) fail(where, "title is required");
  const maxTitle = EventTitleSchema.maxLength ?? Number.POSITIVE_INFINITY;
  const maxContent = EventContentSchema.maxLength ?? Number.POSITIVE_INFINITY;
  if (event.title.length > maxTitle) fail(where, tooLong("title", maxTitle));
  if (event.content.length > maxContent) fail(where, tooLong("content", maxContent));
  if (event.storyStart) checkStoryDate(where, "start", event.storyStart, cal);
  if (event.storyEnd) checkStoryDate(where, "end", event.storyEnd, cal);
  if (event.storyEnd && !event.storyStart) fail(where, "an end needs a start");
  if (event.storyStart && event.storyEnd && !storyRangeOrdered(cal, event.storyStart, event.storyEnd)) {
    fail(where, "end must not be before start");
  }
  for (const field of ["synopsis", "notes"] as const) {
    const text = event[field];
    if (text && text.length > limits.eventNotes) fail(where, tooLong(field, limits.eventNotes));
  }
  if (event.storyLabel && event.storyLabel.length > importLimits.storyLabel) fail(where, tooLong("story label", importLimits.storyLabel));
  for (const [field, text] of [
    ["story start text", event.storyStartText],
    ["story end text", event.storyEndText],
  ] as const) {
    if (text && text.length > importLimits.storyLabel) fail(where, tooLong(field, importLimits.storyLabel));
  }
  if (event.entities.length > importLimits.linksPerEvent) fail(where, `at most ${importLimits.linksPerEvent} codex entries per event`);
  for (const name of event.entities) if (name.length > entityLimits.name) fail(where, tooLong("a codex name", entityLimits.name));
}

export function checkTimeline(where: string, title: string, description: string | null) {
  if (!title) fail(where, "title is required");
  if (title.length > limits.timelineTitle) fail(where, tooLong("title", limits.timelineTitle));
  if (description && description.length > limits.timelineDescription) fail(where, tooLong("description", limits.timelineDescription));
}

/** A chapter's scenes together in story order, the chapters in their order (as the timeline keeps them). */
export function checkChapterOrder(where: string, doc: TimelineDocument) {
  const chapters = doc.chapters ?? [];
  if (chapters.length === 0) return;
  const seq = doc.events.map((e, id) => ({ id, chapterId: e.chapter ?? null }));
  if (
    !isStoryOrderValid(
      seq,
      chapters.map((_, i) => i),
    )
  ) {
    fail(where, "the events of a chapter must be together, and the chapters in their order");
  }
}

export function checkCounts(where: string, events: number, entities: number) {
  if (events > importLimits.events) fail(where, `at most ${fmt(importLimits.events)} events can be imported at once`);
  if (entities > importLimits.entities) fail(where, `at most ${fmt(importLimits.entities)} codex entries can be imported at once`);
}

export function run(parse: () => TimelineDocument): ParseResult {
  try {
    return { ok: true, document: parse() };
  } catch (error) {
    if (error instanceof ImportError) return { ok: false, error: error.message };
    throw error;
  }
}

export const newDocument = (title: string, description: string | null): TimelineDocument => ({
  format: TRANSFER_FORMAT,
  version: TRANSFER_VERSION,
  timeline: { title, description },
  entities: [],
  events: [],
});

/** Adds codex entries named by an outline or a sheet (first mention decides the kind); names as written. */
export function codexOf(doc: TimelineDocument) {
  const byName = new Map(doc.entities.map((e) => [e.name.toLowerCase(), e]));
  return (name: string, kind: EntityKind) => {
    const found = byName.get(name.toLowerCase());
    if (found) return found.name;
    const entity: TransferEntity = { kind, name, aliases: [], description: "", color: defaultEntityColor[kind] };
    byName.set(name.toLowerCase(), entity);
    doc.entities.push(entity);
    return name;
  };
}

export const emptyEvent = (): TransferEvent => ({
  title: "",
  content: "",
  storyStart: null,
  storyEnd: null,
  storyLabel: null,
  entities: [],
  pov: null,
  attachments: [],
});

/** One name from a codex line or a characters cell; `Name (POV)` also makes it the point of view. */
export function addLink(where: string, event: TransferEvent, addEntity: ReturnType<typeof codexOf>, raw: string, kind: EntityKind) {
  const isPov = /\(POV\)\s*$/i.test(raw);
  const name = raw.replace(/\(POV\)\s*$/i, "").trim();
  if (!name) return;
  if (name.length > entityLimits.name) fail(where, tooLong("a codex name", entityLimits.name));
  const stored = addEntity(name, kind);
  if (!event.entities.includes(stored)) event.entities.push(stored);
  if (isPov) event.pov = stored;
}
