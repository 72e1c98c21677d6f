import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Event, type User, events } from "../../db/schema";
import { storedCalendar } from "../../db/domain/calendar";
import { countWords } from "../../db/domain/word-count";
import {
  type CreateEvent,
  type UpdateEvent,
  patches,
  storedCreateValues,
  storedPatchValues,
  storyMessages,
} from "../../db/domain/validation";
import { HttpError, badRequest, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { linkStatements, povValue, requireTimelineEntities } from "./event-links";
import { persistEventText } from "./event-text";
import { type Access, loadWithAccess, requireTimelineAccess } from "./access";
import { eventAttachmentsJson } from "./attachment-store";
import {
  type EventView,
  eventAfterIds,
  eventAssigneeIds,
  eventColumns,
  eventPlotlineIds,
  inLocale,
  linkedEntityIds,
  toEventView,
} from "./event-list";
import { type Deps, type FileDeps, authorOf, docAuthor } from "./deps";
import { placeInChapter, placeNewSceneStatement, requireTimelineChapter, settleChapterAfterMove } from "./chapter-structure";
import { type ReservedKey, keyAnswerStatements, runWithKey } from "./idempotency-keys";
import { plotlineStatements, requireTimelinePlotlines } from "./plotlines";
import { checkStoryRange, storyColumns } from "./story-dates";
import { dependencyStatements, requireDependencies } from "./dependencies";
import { versionStatements } from "./version-record";
import { activityStatement, movedIfMovedStatement } from "./activity";

export const EVENT_NOT_FOUND = "Event not found";
export const EVENT_CONFLICT = "This event was changed by someone else since you started editing.";

export {
  type EventOrder,
  type EventPage,
  type EventView,
  FIRST_SCREEN_EVENTS,
  eventColumns,
  eventsListSnapshot,
  listEvents,
  listEventsForTimeline,
  listEventsPage,
  toEventView,
} from "./event-list";

/**
 * A scene's create, checked and ready to write (the single create and the batch, worker/services/events-batch.ts):
 * its reads (the links, chapter, plotlines and scenes it names are this timeline's) done, its statements to run in
 * one transaction (a scene with a chapter placed in it there too), and the view it will answer with once the row has
 * its id and place. position = the current
 * count, computed inside the INSERT so concurrent adds never collide.
 */
export async function prepareEventCreate(
  db: Db,
  user: User,
  timeline: { id: number; calendar: string | null },
  input: CreateEvent,
  locale?: string,
) {
  const timelineId = timeline.id;
  const calendar = storedCalendar(timeline.calendar);
  const entityIds = input.entityIds ?? [];
  const povEntityId = input.povEntityId ?? null;
  await requireTimelineEntities(db, timelineId, entityIds);
  if (povEntityId !== null && !entityIds.includes(povEntityId)) throw badRequest(storyMessages.povNotLinked);
  const story = storyColumns(calendar, { storyStart: input.storyStart ?? null, storyEnd: input.storyEnd ?? null }, locale);
  checkStoryRange(calendar, story.storyStart ?? null, story.storyEnd ?? null);
  const chapterId = input.chapterId ?? null;
  await requireTimelineChapter(db, timelineId, chapterId);
  const plotlineIds = input.plotlineIds ?? [];
  await requireTimelinePlotlines(db, timelineId, plotlineIds);
  const after = input.after ?? [];
  await requireDependencies(db, timelineId, null, after);
  const now = nowIso();
  const values = {
    timelineId,
    title: input.title,
    content: input.content,
    wordCount: countWords(input.content),
    attachments: [],
    ...story,
    ...storedCreateValues(input),
    createdAt: now,
    updatedAt: now,
  };
  const insert = db
    .insert(events)
    .values({
      ...values,
      position: sql`(SELECT count(*) FROM ${events} WHERE ${events.timelineId} = ${timelineId} AND ${events.deletedAt} IS NULL)`,
      povEntityId: povValue(timelineId, povEntityId),
    })
    .returning();
  // Inside the transaction the timeline's newest event is the one just inserted. Its first version is recorded
  // with it.
  const newest = sql`(SELECT max(id) FROM events WHERE timeline_id = ${timelineId})`;
  const statements = [
    insert,
    ...versionStatements(db, { eventId: newest, author: user, now }),
    ...(entityIds.length > 0 ? linkStatements(db, newest, timelineId, entityIds) : []),
    ...(plotlineIds.length > 0 ? plotlineStatements(db, newest, timelineId, plotlineIds).slice(1) : []),
    ...(after.length > 0 ? dependencyStatements(db, newest, timelineId, after) : []),
    // Placed in its chapter (at the end of its scenes) in the same transaction: never left outside it.
    ...(chapterId !== null ? [placeNewSceneStatement(db, timelineId, newest, chapterId)] : []),
  ] as const;
  const links = { entityIds, plotlineIds, after, calendar: timeline.calendar };
  /** The answer as JSON, computed inside the transaction from the new row (its id, place and chapter): a key's answer. */
  const answerSql = () => {
    const row = { ...values, id: 0, position: 0, version: 1, povEntityId, chapterId: null, ...links };
    const view = toEventView({ ...row, storyStart: row.storyStart ?? null, storyEnd: row.storyEnd ?? null }, locale);
    return sql<string>`(SELECT json_set(${JSON.stringify(view)}, '$.id', e.id, '$.position', e.position, '$.chapterId', e.chapter_id) FROM events e WHERE e.id = ${newest})`;
  };
  /** The new row as the transaction leaves it (placed in its chapter), for the answer. */
  const reread = db.select().from(events).where(sql`${events.id} = ${newest}`);
  /** The view of the new row (as `reread` returns it). */
  const viewOf = (row: Event) => toEventView({ ...row, ...links }, locale);
  return { statements, answerSql, reread, viewOf, chapterId, title: input.title };
}

export async function createEvent(
  { db, room, locale }: Deps,
  user: User,
  timelineId: number,
  input: CreateEvent,
  shareCode?: string | null,
  /** The Idempotency-Key this create holds: its answer is written in the same batch as the scene. */
  reserved?: ReservedKey | null,
): Promise<EventView> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const create = await prepareEventCreate(db, user, timeline, input, locale);
  const answer = reserved ? keyAnswerStatements(db, reserved, 201, create.answerSql()) : [];
  const results = await runWithKey(db, reserved, () =>
    db.batch([...create.statements, create.reread, ...answer] as unknown as [typeof create.reread]),
  );
  const row = (results[create.statements.length] as unknown as Event[])[0];
  if (!row) throw new Error("event create: the new scene is missing");
  const view = create.viewOf(row);
  room(timelineId, { action: "added", by: authorOf(user), subject: view.title });
  return view;
}

export async function loadEventWithAccess(db: Db, user: User, eventId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  const { row: found, access } = await loadWithAccess(
    db,
    user,
    {
      table: events,
      id: eventId,
      // A stranger must not learn that the event exists.
      missing: EVENT_NOT_FOUND,
      where: isNull(events.deletedAt),
      columns: {
        entityIds: linkedEntityIds,
        plotlineIds: eventPlotlineIds,
        after: eventAfterIds,
        assigneeIds: eventAssigneeIds,
        attachments: eventAttachmentsJson,
      },
    },
    need,
    shareCode,
  );
  const { entityIds, plotlineIds, after, assigneeIds, attachments } = found;
  return { event: { ...found.row, entityIds, plotlineIds, after, assigneeIds, attachments, calendar: found.timeline.calendar }, access };
}

/**
 * Moves an event and shifts the ones between in one statement, so positions stay 0..n-1. The
 * target is clamped to the last position inside the statement, and the old position is re-checked
 * there too (uncorrelated subqueries, evaluated once): if a concurrent move got there first,
 * nothing changes and the caller retries with fresh numbers. Returns the moved row's new position,
 * or null when nothing was updated.
 */
async function moveEvent(db: Db, event: Pick<Event, "id" | "timelineId">, from: number, requested: number) {
  const to = sql`MIN(${requested}, (SELECT count(*) - 1 FROM events WHERE timeline_id = ${event.timelineId} AND deleted_at IS NULL))`;
  const current = sql`(SELECT position FROM events WHERE id = ${event.id})`;
  const rows = await db.all<{ id: number; position: number }>(sql`
    UPDATE events SET position = CASE
        WHEN id = ${event.id} THEN ${to}
        WHEN ${to} < ${from} THEN position + 1
        ELSE position - 1 END
    WHERE timeline_id = ${event.timelineId} AND deleted_at IS NULL
      AND position BETWEEN MIN(${from}, ${to}) AND MAX(${from}, ${to})
      AND ${current} = ${from}
    RETURNING id, position`);
  return rows.find((r) => r.id === event.id)?.position ?? null;
}

export async function updateEvent(
  { db, room, docs, locale }: Deps,
  user: User,
  eventId: number,
  given: UpdateEvent,
  shareCode?: string | null,
): Promise<{ event: EventView; moved: boolean; edited: boolean }> {
  const { event } = await loadEventWithAccess(db, user, eventId, "collaborator", shareCode);
  let input = given;
  // Writers have the event open: the new text is merged into their shared doc, which writes
  // it and its version and tells the room; the rest of the request (story fields, a move) goes on here.
  let textLive = false;
  if (patches(input, "text") && docs) {
    if (input.baseVersion !== undefined && input.baseVersion !== event.version) {
      throw new HttpError(409, EVENT_CONFLICT, { current: toEventView(event) });
    }
    const live = await docs(eventId, { title: input.title, content: input.content, author: docAuthor(user) });
    if (live.live) {
      textLive = true;
      const { title: _t, content: _c, baseVersion: _b, ...rest } = input;
      input = rest;
    }
  }
  const edited = patches(input, "text");
  const storyEdited = patches(input, "story");
  let latest: EventView = toEventView(event);
  let moved = false;
  const calendar = storedCalendar(event.calendar);
  const story = storyColumns(calendar, input, locale);

  // The event as it will be: links within its timeline, the POV among them, the range in order.
  let pov: number | null | undefined = input.povEntityId;
  if (storyEdited) {
    if (input.entityIds) await requireTimelineEntities(db, event.timelineId, input.entityIds);
    if (input.plotlineIds) await requireTimelinePlotlines(db, event.timelineId, input.plotlineIds);
    if (input.after) await requireDependencies(db, event.timelineId, eventId, input.after);
    const linked = input.entityIds ?? latest.entityIds;
    if (pov != null && !linked.includes(pov)) throw badRequest(storyMessages.povNotLinked);
    // Unlinking the POV entity clears the POV, as deleting the entity does.
    if (pov === undefined && latest.povEntityId !== null && !linked.includes(latest.povEntityId)) pov = null;
    checkStoryRange(
      calendar,
      story.storyStart !== undefined ? story.storyStart : latest.storyStart,
      story.storyEnd !== undefined ? story.storyEnd : latest.storyEnd,
    );
  }

  // A move across the plotline grid (chapter and plotlines, nothing else): one batch with the story order's write.
  const gridMove =
    input.chapterId !== undefined &&
    input.plotlineIds !== undefined &&
    !edited &&
    Object.entries(input).every(([key, value]) => value === undefined || ["chapterId", "plotlineIds", "position"].includes(key));
  if ((edited || storyEdited) && !gridMove) {
    const row = await persistEventText(db, {
      eventId,
      author: user,
      title: input.title,
      content: input.content,
      // No lost edits: a text save based on an older version than the stored one is refused, and with it
      // everything else in the same request.
      baseVersion: edited ? input.baseVersion : undefined,
      set: {
        ...story,
        ...storedPatchValues(input),
        ...(pov !== undefined && { povEntityId: povValue(event.timelineId, pov) }),
      },
      // Links first, in the same transaction, so the returned row already carries them.
      before: (guard) => [
        ...(input.entityIds ? linkStatements(db, eventId, event.timelineId, input.entityIds, guard) : []),
        ...(input.plotlineIds ? plotlineStatements(db, eventId, event.timelineId, input.plotlineIds, guard) : []),
        ...(input.after ? dependencyStatements(db, eventId, event.timelineId, input.after, guard) : []),
      ],
    });
    if (!row) {
      const current = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
      if (!current) throw notFound(EVENT_NOT_FOUND);
      throw new HttpError(409, EVENT_CONFLICT, { current: toEventView(current) });
    }
    latest = row;
  }

  if (input.chapterId !== undefined) {
    // Into (or out of) a chapter: contiguous with its scenes, at `position` when that is inside its range.
    await requireTimelineChapter(db, event.timelineId, input.chapterId);
    const alongside =
      gridMove && input.plotlineIds
        ? [
            ...plotlineStatements(db, eventId, event.timelineId, input.plotlineIds).map((s) => s.getSQL()),
            sql`UPDATE events SET updated_at = ${nowIso()} WHERE id = ${eventId}`,
            // A move across the grid is a move: recorded in the same batch, when the scene's place changed.
            movedIfMovedStatement(eventId, event.timelineId, user, { chapterId: latest.chapterId, position: latest.position }),
          ]
        : [];
    await placeInChapter(db, event.timelineId, eventId, input.chapterId, input.position, alongside);
    const fresh = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
    if (!fresh) throw notFound(EVENT_NOT_FOUND);
    moved = fresh.position !== latest.position || fresh.chapterId !== latest.chapterId;
    latest = toEventView(fresh);
  } else if (input.position !== undefined && input.position !== latest.position) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const from = latest.position;
      const position = await moveEvent(db, event, from, input.position);
      if (position !== null) {
        moved = position !== from;
        latest = { ...latest, position };
        break;
      }
      // Someone else moved it meanwhile: start again from where it is now.
      const fresh = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
      if (!fresh) throw notFound(EVENT_NOT_FOUND);
      latest = toEventView(fresh);
      if (fresh.position === input.position) break;
    }
    if (moved) {
      // Dropped among another chapter's scenes: it joins that chapter (the story order stays one order).
      await settleChapterAfterMove(db, event.timelineId, eventId);
      const fresh = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
      if (fresh) latest = toEventView(fresh);
    }
  }

  if (textLive) {
    // The doc wrote the text: the response carries the row as it is now.
    const fresh = await loadEventWithAccess(db, user, eventId, "collaborator", shareCode);
    latest = toEventView({ ...fresh.event, position: latest.position, chapterId: latest.chapterId });
  }
  if (moved && !(gridMove && input.chapterId !== undefined && input.plotlineIds)) {
    await activityStatement(db, { timelineId: event.timelineId, eventId, user, kind: "moved" });
  }
  if (moved || edited || storyEdited) {
    const action = moved && !edited && !storyEdited ? "reordered" : "edited";
    room(event.timelineId, { action, by: authorOf(user), subject: latest.title });
  }
  return { event: inLocale(latest, calendar, locale), moved, edited: edited || storyEdited || textLive };
}

/**
 * Owners only. Moves the event to Trash: the gap in the story order is closed in the same batch, and the row keeps
 * its old position for a restore. Its files and versions stay; writers in its shared doc are closed out.
 */
export async function deleteEvent({ db, room, removeDocs }: FileDeps, user: User, eventId: number, shareCode?: string | null) {
  const { event } = await loadEventWithAccess(db, user, eventId, "owner", shareCode);
  const [trashed] = await db.batch([
    db
      .update(events)
      .set({ deletedAt: nowIso(), deletedBy: user.id })
      .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
      .returning({ id: events.id }),
    db
      .update(events)
      .set({ position: sql`${events.position} - 1` })
      .where(and(eq(events.timelineId, event.timelineId), isNull(events.deletedAt), gt(events.position, event.position))),
  ]);
  if (trashed.length === 0) throw notFound(EVENT_NOT_FOUND);
  await activityStatement(db, { timelineId: event.timelineId, eventId, user, kind: "deleted" });
  await removeDocs?.([eventId]);
  room(event.timelineId, { action: "deleted", by: authorOf(user) });
  return { success: true, timelineId: event.timelineId };
}
