// Reading a timeline's events: the event as the API and the screens see it, the list, the first screenful of a
// view, and the list's snapshot (ETag and per-isolate cache) for the API.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Calendar, isEnglish, storedCalendar, storyDisplay } from "../../db/domain/calendar";
import { FIRST_SCREEN_EVENTS } from "../../db/domain/story-order";
import { isSceneStatus } from "../../db/domain/task-rules";
import { type StoredField, type StoredValues, storedCreateValues, storedEventFields } from "../../db/domain/validation";
import { countWords } from "../../db/domain/word-count";
import { type Event, type User, eventDependencies, eventEntities, eventPlotlines, events, tasks } from "../../db/schema";
import { type TimelineAccessRow, requireTimelineAccess } from "./access";
import { type AttachmentView, eventAttachmentsJson, parseAttachments } from "./attachment-store";

/**
 * An event as the API sends it. The stored fields (`eventFields` entries with `stored`: the story label, the
 * writer's desk's synopsis and notes, the scene's status 'Idea' … 'Done' or null) come from the field table.
 */
export type EventView = StoredValues & {
  id: number;
  timelineId: number;
  title: string;
  content: string;
  position: number;
  attachments: AttachmentView[];
  version: number;
  entityIds: number[];
  povEntityId: number | null;
  storyStart: string | null;
  storyEnd: string | null;
  /** The dates in the timeline calendar's words ('13 October 2031, 9:00'); null when there is no date. */
  storyStartDisplay: string | null;
  storyEndDisplay: string | null;
  /** The chapter the scene is in (null: none). */
  chapterId: number | null;
  /** The plotlines the scene belongs to. */
  plotlineIds: number[];
  /** The scenes this one must come after in story time (live ones only). */
  after: number[];
  /** Words in the content (CJK characters one each). */
  wordCount: number;
  /** The people with an open (not done) task on the scene, for the timeline's assignee filter (DESIGN §12). */
  assigneeIds: number[];
  /** False: 'Not for readers', left out of reader links' reading view (DESIGN §12 'Readers'). */
  forReaders: boolean;
  createdAt: string;
  updatedAt: string;
};

export type EventOrder = "position" | "chronological";

/** An event's linked entity ids, fetched inside the event's own SELECT (no query per event). */
export const linkedEntityIds = sql<string>`(SELECT json_group_array(${eventEntities.entityId}) FROM ${eventEntities} WHERE ${eventEntities.eventId} = ${events.id})`;

/** An event's plotline ids, fetched inside the event's own SELECT. */
export const eventPlotlineIds = sql<string>`(SELECT json_group_array(${eventPlotlines.plotlineId}) FROM ${eventPlotlines} WHERE ${eventPlotlines.eventId} = ${events.id})`;

/** The live scenes an event depends on, fetched inside the event's own SELECT (a trashed one is left out). */
export const eventAfterIds = sql<string>`(SELECT json_group_array(d.after_event_id) FROM ${eventDependencies} d WHERE d.event_id = ${events.id} AND d.after_event_id IN (SELECT id FROM ${events} WHERE deleted_at IS NULL))`;

/**
 * The people with an open task on the event, fetched inside the event's own SELECT (tasks_event_idx). The outer
 * event is named in full: inside the subquery a bare `id` would be the task's.
 */
export const eventAssigneeIds = sql<string>`(SELECT json_group_array(DISTINCT t.assignee_id) FROM ${tasks} t WHERE t.event_id = "events"."id" AND t.done = 0 AND t.assignee_id IS NOT NULL)`;

export const eventColumns = {
  id: events.id,
  timelineId: events.timelineId,
  title: events.title,
  content: events.content,
  position: events.position,
  // From the files table (the old json column is no longer written).
  attachments: eventAttachmentsJson,
  version: events.version,
  entityIds: linkedEntityIds,
  povEntityId: events.povEntityId,
  storyStart: events.storyStart,
  storyEnd: events.storyEnd,
  storyStartText: events.storyStartText,
  storyEndText: events.storyEndText,
  ...(Object.fromEntries(storedEventFields.map((name) => [name, events[name]])) as {
    [K in StoredField]: (typeof events)[K];
  }),
  calendar: sql<string | null>`(SELECT calendar FROM timelines WHERE id = ${events.timelineId})`,
  chapterId: events.chapterId,
  plotlineIds: eventPlotlineIds,
  after: eventAfterIds,
  assigneeIds: eventAssigneeIds,
  wordCount: events.wordCount,
  forReaders: events.forReaders,
  createdAt: events.createdAt,
  updatedAt: events.updatedAt,
};

type EventRow = Omit<
  Event,
  "storySort" | "storyStartText" | "storyEndText" | "attachments" | "chapterId" | "wordCount" | "deletedAt" | "deletedBy" | "forReaders"
> & {
  /** Absent (a row read without it): for readers, the default. */
  forReaders?: boolean | null;
  /** What the writer typed: a season ("spring 1203") reads back as one. */
  storyStartText?: string | null;
  storyEndText?: string | null;
  entityIds?: unknown;
  plotlineIds?: unknown;
  after?: unknown;
  assigneeIds?: unknown;
  attachments?: unknown;
  chapterId?: number | null;
  /** Null or absent: not counted yet (an old row), counted from the content here. */
  wordCount?: number | null;
  /** The timeline's calendar (JSON); absent or null: Gregorian. */
  calendar?: string | null;
};

/** Calendars by their JSON, so a list of a thousand events parses its timeline's calendar once. */
const calendars = new Map<string, ReturnType<typeof storedCalendar>>();
function calendarOf(json: string | null | undefined) {
  if (!json) return storedCalendar(null);
  let cal = calendars.get(json);
  if (!cal) {
    if (calendars.size > 64) calendars.clear();
    cal = storedCalendar(json);
    calendars.set(json, cal);
  }
  return cal;
}

function displays(e: EventRow | EventView, locale?: string) {
  if ("storyStartDisplay" in e && e.storyStartDisplay !== undefined) return { start: e.storyStartDisplay, end: e.storyEndDisplay };
  const cal = calendarOf("calendar" in e ? e.calendar : null);
  const typed = "storyStartText" in e ? { start: e.storyStartText, end: e.storyEndText } : {};
  return {
    start: storyDisplay(cal, e.storyStart, { typed: typed.start, locale }),
    end: storyDisplay(cal, e.storyEnd, { typed: typed.end, locale }),
  };
}

/**
 * The view with its dates in words in `locale` (a view is built in English where the locale was not at hand). A
 * date shown as a season stays as it is.
 */
export function inLocale(view: EventView, cal: Calendar, locale?: string): EventView {
  if (isEnglish(locale)) return view;
  const local = (stored: string | null, shown: string | null) =>
    shown !== storyDisplay(cal, stored) ? shown : storyDisplay(cal, stored, { locale });
  return {
    ...view,
    storyStartDisplay: local(view.storyStart, view.storyStartDisplay),
    storyEndDisplay: local(view.storyEnd, view.storyEndDisplay),
  };
}

function parseIds(value: unknown): number[] {
  let list: unknown = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      list = [];
    }
  }
  return Array.isArray(list)
    ? list
        .map(Number)
        .filter(Number.isInteger)
        .sort((a, b) => a - b)
    : [];
}

/** The event as the API sends it; its dates in words in `locale` (the request's; English when absent). */
export const toEventView = (e: EventRow | EventView, locale?: string): EventView => {
  const display = displays(e, locale);
  return {
    id: e.id,
    timelineId: e.timelineId,
    title: e.title,
    content: e.content,
    position: e.position,
    attachments: parseAttachments(e.attachments),
    version: e.version,
    entityIds: parseIds(e.entityIds),
    povEntityId: e.povEntityId ?? null,
    storyStart: e.storyStart ?? null,
    storyEnd: e.storyEnd ?? null,
    storyStartDisplay: display.start,
    storyEndDisplay: display.end,
    ...storedCreateValues(e as Partial<StoredValues>),
    status: "status" in e && isSceneStatus(e.status) ? e.status : null,
    chapterId: e.chapterId ?? null,
    plotlineIds: parseIds(e.plotlineIds),
    after: parseIds(e.after),
    assigneeIds: parseIds(e.assigneeIds),
    wordCount: e.wordCount ?? countWords(e.content),
    forReaders: e.forReaders ?? true,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
};

/** The SQL of an order; chronological is `sortChronologically`'s rule (story start's key, undated last, then position). */
const orderOf = (order: EventOrder) =>
  order === "chronological"
    ? [sql`${events.storySort} IS NULL`, asc(events.storySort), asc(events.position), asc(events.id)]
    : [asc(events.position), asc(events.id)];

/** One SELECT, links included. Chronological: by story start (undated last), then position. */
export async function listEventsForTimeline(
  db: Db,
  timelineId: number,
  order: EventOrder = "position",
  locale?: string,
): Promise<EventView[]> {
  const orderBy = orderOf(order);
  const rows = await db
    .select(eventColumns)
    .from(events)
    .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
    .orderBy(...orderBy);
  return rows.map((row) => toEventView(row, locale));
}

export { FIRST_SCREEN_EVENTS };

export type EventPage = {
  /** The first events of this view (order, optional codex filter). */
  events: EventView[];
  /** How many events the view has. */
  total: number;
  /** How many events the timeline has. */
  all: number;
};

/**
 * The first `limit` events of a view and the counts (two statements side by side): a page render at
 * 1,000 events costs about what it costs at 30.
 */
export async function listEventsPage(
  db: Db,
  timelineId: number,
  {
    order = "position",
    entityId = null,
    limit = FIRST_SCREEN_EVENTS,
    locale,
  }: { order?: EventOrder; entityId?: number | null; limit?: number; locale?: string },
): Promise<EventPage> {
  const linked = (id: number) =>
    sql`EXISTS (SELECT 1 FROM ${eventEntities} WHERE ${eventEntities.eventId} = ${events.id} AND ${eventEntities.entityId} = ${id})`;
  const live = and(eq(events.timelineId, timelineId), isNull(events.deletedAt));
  const where = entityId ? and(live, linked(entityId)) : live;
  const orderBy = orderOf(order);
  const [rows, counts] = await Promise.all([
    db
      .select(eventColumns)
      .from(events)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
    db
      .select({
        everything: sql<number>`count(*)`.mapWith(Number),
        inView: (entityId ? sql<number>`coalesce(sum(${linked(entityId)}), 0)` : sql<number>`count(*)`).mapWith(Number),
      })
      .from(events)
      .where(live),
  ]);
  const count = counts[0];
  return { events: rows.map((row) => toEventView(row, locale)), total: count?.inView ?? 0, all: count?.everything ?? 0 };
}

export async function listEvents(db: Db, user: User, timelineId: number, shareCode?: string | null, order: EventOrder = "position") {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return listEventsForTimeline(db, timelineId, order);
}

/** Bump when the JSON of the events list changes shape, so a browser's copy from an older build is not revalidated. */
const LIST_FORMAT = 5;
/** A list as sent: its UTF-8 bytes, and their gzip once a client that takes gzip asked (browsers all do). */
export type ListBody = { bytes: Uint8Array<ArrayBuffer>; gzip: Promise<Uint8Array<ArrayBuffer>> | null };
/** Serialized lists kept in this isolate, newest last; bounded by count and by bytes. */
const listCache = new Map<string, ListBody>();
const LIST_CACHE_ENTRIES = 32;
const LIST_CACHE_BYTES = 16_000_000;
let listCacheBytes = 0;

function remember(key: string, body: ListBody) {
  if (body.bytes.byteLength > LIST_CACHE_BYTES / 4) return;
  listCache.set(key, body);
  listCacheBytes += body.bytes.byteLength;
  for (const [old, value] of listCache) {
    if (listCache.size <= LIST_CACHE_ENTRIES && listCacheBytes <= LIST_CACHE_BYTES) break;
    listCache.delete(old);
    listCacheBytes -= value.bytes.byteLength;
  }
}

/** The body gzipped, once per cached list (a 1,000-event list is ~10× smaller). */
export function gzipOf(body: ListBody) {
  body.gzip ??= new Response(new Blob([body.bytes]).stream().pipeThrough(new CompressionStream("gzip")))
    .arrayBuffer()
    .then((b) => new Uint8Array(b));
  return body.gzip;
}

/**
 * The events list without running it when it can. `timelines.events_revision` is bumped by
 * database triggers (migration events_revision) on every insert, update and delete of the timeline's
 * events, their codex links and their attachments, whoever writes them: so (timeline, revision, order)
 * names one list. The caller's access is checked first (one query, which also reads the revision); the
 * ETag derives from that name, and the JSON's bytes (and their gzip) come from a per-isolate cache keyed by it, the list
 * query running only on a miss. The revision is read before the list, so a cached list is never older
 * than its key (at worst newer, which only costs a later refetch).
 */
export async function eventsListSnapshot(
  db: Db,
  user: User,
  timelineId: number,
  shareCode?: string | null,
  order: EventOrder = "position",
  /** The timeline's access row, when the request read it with its session. */
  row?: TimelineAccessRow | null,
  /** The writer's locale: the dates in words are in it, so it is part of the list's name. */
  locale?: string,
) {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode, row);
  const words = isEnglish(locale) ? "" : `.${encodeURIComponent(locale ?? "")}`;
  const key = `${timelineId}.${timeline.eventsRevision}.${order === "chronological" ? "c" : "p"}.${LIST_FORMAT}${words}`;
  return {
    etag: `W/"ev.${key}"`,
    body: async (): Promise<ListBody> => {
      const hit = listCache.get(key);
      if (hit !== undefined) {
        // Refresh its place: the least recently used list goes first.
        listCache.delete(key);
        listCache.set(key, hit);
        return hit;
      }
      const body = {
        bytes: new TextEncoder().encode(JSON.stringify(await listEventsForTimeline(db, timelineId, order, locale))),
        gzip: null,
      };
      remember(key, body);
      return body;
    },
  };
}
