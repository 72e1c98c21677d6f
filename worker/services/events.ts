import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Event, type User, events, timelineShares, timelines } from "../../db/schema";
import type { CreateEvent, UpdateEvent } from "../../db/validation";
import { HttpError, forbidden, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, accessOf, deniedMessage, hasAccess, requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";

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
  { db, room }: Deps,
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
  room(timelineId, { action: "added", by: authorOf(user), subject: row.title });
  return toEventView(row);
}

async function loadEventWithAccess(
  db: Db,
  user: User,
  eventId: number,
  need: Exclude<Access, "none">,
  shareCode?: string | null,
) {
  // The event, its timeline and the caller's share in one query.
  const row = await db
    .select({ event: events, timeline: timelines, shareLevel: timelineShares.accessLevel })
    .from(events)
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .leftJoin(timelineShares, and(eq(timelineShares.timelineId, events.timelineId), eq(timelineShares.sharedWithUserId, user.id)))
    .where(eq(events.id, eventId))
    .get();
  const access = row ? accessOf(row.timeline, user, row.shareLevel, shareCode) : "none";
  // A stranger must not learn that the event exists.
  if (!row || access === "none") throw notFound(EVENT_NOT_FOUND);
  if (!hasAccess(access, need)) throw forbidden(deniedMessage(need));
  return { event: row.event, access };
}

/**
 * Moves an event and shifts the ones between in one statement, so positions stay 0..n-1. The
 * target is clamped to the last position inside the statement, and the old position is re-checked
 * there too (uncorrelated subqueries, evaluated once): if a concurrent move got there first,
 * nothing changes and the caller retries with fresh numbers. Returns the moved row's new position,
 * or null when nothing was updated.
 */
async function moveEvent(db: Db, event: Pick<Event, "id" | "timelineId">, from: number, requested: number) {
  const to = sql`MIN(${requested}, (SELECT count(*) - 1 FROM events WHERE timeline_id = ${event.timelineId}))`;
  const current = sql`(SELECT position FROM events WHERE id = ${event.id})`;
  const rows = await db.all<{ id: number; position: number }>(sql`
    UPDATE events SET position = CASE
        WHEN id = ${event.id} THEN ${to}
        WHEN ${to} < ${from} THEN position + 1
        ELSE position - 1 END
    WHERE timeline_id = ${event.timelineId}
      AND position BETWEEN MIN(${from}, ${to}) AND MAX(${from}, ${to})
      AND ${current} = ${from}
    RETURNING id, position`);
  return rows.find((r) => r.id === event.id)?.position ?? null;
}

export async function updateEvent(
  { db, room }: Deps,
  user: User,
  eventId: number,
  input: UpdateEvent,
  shareCode?: string | null,
): Promise<{ event: EventView; moved: boolean; edited: boolean }> {
  const { event } = await loadEventWithAccess(db, user, eventId, "collaborator", shareCode);
  const edited = input.title !== undefined || input.content !== undefined;
  let latest: EventView = toEventView(event);
  let moved = false;

  if (edited) {
    const changed =
      (input.title !== undefined && input.title !== event.title) ||
      (input.content !== undefined && input.content !== event.content);
    // No lost edits: a save based on an older version than the stored one is refused.
    const rows = await db.all<Record<string, unknown>>(sql`
      UPDATE events SET
        title = ${input.title ?? event.title},
        content = ${input.content ?? event.content},
        version = version + ${changed ? 1 : 0},
        updated_at = ${nowIso()}
      WHERE id = ${eventId} ${input.baseVersion !== undefined ? sql`AND version = ${input.baseVersion}` : sql``}
      RETURNING position, version, updated_at AS updatedAt, title, content`);
    const row = rows[0];
    if (!row) {
      const current = await db.select(eventColumns).from(events).where(eq(events.id, eventId)).get();
      if (!current) throw notFound(EVENT_NOT_FOUND);
      throw new HttpError(409, EVENT_CONFLICT, { current: toEventView(current) });
    }
    latest = {
      ...latest,
      title: String(row.title),
      content: String(row.content),
      position: Number(row.position),
      version: Number(row.version),
      updatedAt: String(row.updatedAt),
    };
  }

  if (input.position !== undefined && input.position !== latest.position) {
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
  }

  if (moved || edited) {
    room(event.timelineId, { action: moved && !edited ? "reordered" : "edited", by: authorOf(user), subject: latest.title });
  }
  return { event: latest, moved, edited };
}

/** Owners only (SPEC.md §2). The gap is closed in the same batch. */
export async function deleteEvent({ db, room }: Deps, user: User, eventId: number, shareCode?: string | null) {
  const { event } = await loadEventWithAccess(db, user, eventId, "owner", shareCode);
  await db.batch([
    db.delete(events).where(eq(events.id, eventId)),
    db
      .update(events)
      .set({ position: sql`${events.position} - 1` })
      .where(and(eq(events.timelineId, event.timelineId), gt(events.position, event.position))),
  ]);
  room(event.timelineId, { action: "deleted", by: authorOf(user) });
  return { success: true, timelineId: event.timelineId };
}
