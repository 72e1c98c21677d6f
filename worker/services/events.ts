import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Event, type User, events } from "../../db/schema";
import type { CreateEvent, UpdateEvent } from "../../db/validation";
import { HttpError, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, requireTimelineAccess } from "./access";

export const EVENT_NOT_FOUND = "Event not found";
export const EVENT_CONFLICT = "This event was changed by someone else since you started editing.";

export type EventView = {
  id: number;
  timelineId: number;
  title: string;
  content: string;
  position: number;
  attachments: unknown[];
  version: number;
  createdAt: string;
  updatedAt: string;
};

const eventColumns = {
  id: events.id,
  timelineId: events.timelineId,
  title: events.title,
  content: events.content,
  position: events.position,
  attachments: events.attachments,
  version: events.version,
  createdAt: events.createdAt,
  updatedAt: events.updatedAt,
};

export const toEventView = (e: Event | EventView): EventView => ({
  id: e.id,
  timelineId: e.timelineId,
  title: e.title,
  content: e.content,
  position: e.position,
  attachments: Array.isArray(e.attachments) ? e.attachments : [],
  version: e.version,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

export async function listEventsForTimeline(db: Db, timelineId: number): Promise<EventView[]> {
  const rows = await db
    .select(eventColumns)
    .from(events)
    .where(eq(events.timelineId, timelineId))
    .orderBy(asc(events.position), asc(events.id));
  return rows.map(toEventView);
}

export async function listEvents(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return listEventsForTimeline(db, timelineId);
}

/** position = the current count, computed inside the INSERT so concurrent adds never collide. */
export async function createEvent(
  db: Db,
  user: User,
  timelineId: number,
  input: CreateEvent,
  shareCode?: string | null,
): Promise<EventView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const now = nowIso();
  const row = await db
    .insert(events)
    .values({
      timelineId,
      title: input.title,
      content: input.content,
      position: sql`(SELECT count(*) FROM ${events} WHERE ${events.timelineId} = ${timelineId})`,
      attachments: [],
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  return toEventView(row);
}

async function loadEventWithAccess(
  db: Db,
  user: User,
  eventId: number,
  need: Exclude<Access, "none">,
  shareCode?: string | null,
) {
  const event = await db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw notFound(EVENT_NOT_FOUND);
  try {
    const { access } = await requireTimelineAccess(db, user, event.timelineId, need, shareCode);
    return { event, access };
  } catch (error) {
    // A stranger must not learn that the event exists.
    if (error instanceof HttpError && error.status === 404) throw notFound(EVENT_NOT_FOUND);
    throw error;
  }
}

/**
 * Moves an event and shifts the ones between in one statement, so positions stay 0..n-1. The old
 * position is re-checked inside the statement (an uncorrelated subquery, evaluated once): if a
 * concurrent move got there first, nothing changes and the caller retries with fresh numbers.
 */
function moveStatement(db: Db, event: Pick<Event, "id" | "timelineId">, from: number, to: number) {
  const current = sql`(SELECT position FROM events WHERE id = ${event.id})`;
  if (to < from) {
    return db.run(sql`
      UPDATE events SET position = CASE WHEN id = ${event.id} THEN ${to} ELSE position + 1 END
      WHERE timeline_id = ${event.timelineId} AND position BETWEEN ${to} AND ${from} AND ${current} = ${from}`);
  }
  return db.run(sql`
    UPDATE events SET position = CASE WHEN id = ${event.id} THEN ${to} ELSE position - 1 END
    WHERE timeline_id = ${event.timelineId} AND position BETWEEN ${from} AND ${to} AND ${current} = ${from}`);
}

export async function updateEvent(
  db: Db,
  user: User,
  eventId: number,
  input: UpdateEvent,
  shareCode?: string | null,
): Promise<{ event: EventView; moved: boolean; edited: boolean }> {
  const { event } = await loadEventWithAccess(db, user, eventId, "collaborator", shareCode);
  const edited = input.title !== undefined || input.content !== undefined;
  let moved = false;

  if (edited) {
    const changed =
      (input.title !== undefined && input.title !== event.title) ||
      (input.content !== undefined && input.content !== event.content);
    // No lost edits: a save based on an older version than the stored one is refused.
    const result = await db.run(sql`
      UPDATE events SET
        title = ${input.title ?? event.title},
        content = ${input.content ?? event.content},
        version = version + ${changed ? 1 : 0},
        updated_at = ${nowIso()}
      WHERE id = ${eventId} ${input.baseVersion !== undefined ? sql`AND version = ${input.baseVersion}` : sql``}`);
    if (!result.meta.changes) {
      const current = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
      if (!current) throw notFound(EVENT_NOT_FOUND);
      throw new HttpError(409, EVENT_CONFLICT, { current: toEventView(current) });
    }
  }

  if (input.position !== undefined) {
    for (let attempt = 0; attempt < 3 && !moved; attempt++) {
      const fresh =
        attempt === 0 && !edited
          ? event
          : await db.select().from(events).where(eq(events.id, eventId)).get();
      if (!fresh) throw notFound(EVENT_NOT_FOUND);
      const count = await db
        .select({ n: sql<number>`count(*)` })
        .from(events)
        .where(eq(events.timelineId, fresh.timelineId))
        .get();
      const to = Math.min(input.position, Math.max((count?.n ?? 1) - 1, 0));
      if (to === fresh.position) break;
      const res = await moveStatement(db, fresh, fresh.position, to);
      moved = res.meta.changes > 0;
    }
  }

  const current = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
  if (!current) throw notFound(EVENT_NOT_FOUND);
  return { event: toEventView(current), moved, edited };
}

/** Owners only (SPEC.md §2). The gap is closed in the same batch. */
export async function deleteEvent(db: Db, user: User, eventId: number, shareCode?: string | null) {
  const { event } = await loadEventWithAccess(db, user, eventId, "owner", shareCode);
  await db.batch([
    db.delete(events).where(eq(events.id, eventId)),
    db
      .update(events)
      .set({ position: sql`${events.position} - 1` })
      .where(and(eq(events.timelineId, event.timelineId), gt(events.position, event.position))),
  ]);
  return { success: true, timelineId: event.timelineId };
}
