// Trash: deleted scenes and timelines stay restorable for 30 days, then the hourly purge removes them for good.
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { FREE_TIMELINE_LIMIT } from "../../db/domain/validation";
import { type User, entities, events, files, timelineShares, timelines } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../lib/errors";
import type { DocRemover } from "../lib/room";
import { DAY } from "../lib/time";
import { activityStatement } from "./activity";
import { TIMELINE_NOT_FOUND } from "./access";
import { deleteObjects } from "./attachment-store";
import { type Deps, authorOf } from "./deps";
import { type EventView, EVENT_NOT_FOUND, loadEventWithAccess, toEventView } from "./events";
import { isPremium } from "./plans";
import { FREE_LIMIT_MESSAGE, type TimelineView, toTimelineView } from "./timelines";

/** How long a deleted item stays in Trash. */
export const TRASH_DAYS = 30;
export const TRASH_KINDS = ["event", "timeline"] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];
export const TRASHED_TIMELINE_MESSAGE = "This scene's timeline is in Trash. Restore the timeline first.";
export const UNKNOWN_KIND_MESSAGE = 'Kind must be "event" or "timeline"';

export type TrashItem = {
  kind: TrashKind;
  id: number;
  title: string;
  timelineTitle: string;
  deletedAt: string;
  /** Who deleted it; null when that account is gone. */
  deletedBy: { id: number; name: string } | null;
};

type TrashRow = {
  kind: TrashKind;
  id: number;
  title: string;
  timeline_title: string;
  deleted_at: string;
  deleted_by: number | null;
  deleted_by_name: string | null;
};

/**
 * What this writer may restore, newest first: their own trashed timelines, and trashed scenes of live timelines
 * they own or collaborate on (a trashed timeline's scenes come back with it, so they are not listed).
 */
export async function listTrash(db: Db, user: Pick<User, "id">): Promise<TrashItem[]> {
  const rows = await db.all<TrashRow>(sql`
    SELECT 'timeline' AS kind, t.id AS id, t.title AS title, t.title AS timeline_title, t.deleted_at AS deleted_at, t.deleted_by AS deleted_by,
           coalesce(u.name, u.email) AS deleted_by_name
    FROM timelines t LEFT JOIN users u ON u.id = t.deleted_by
    WHERE t.user_id = ${user.id} AND t.deleted_at IS NOT NULL
    UNION ALL
    SELECT 'event' AS kind, e.id AS id, e.title AS title, t.title AS timeline_title, e.deleted_at AS deleted_at, e.deleted_by AS deleted_by,
           coalesce(u.name, u.email) AS deleted_by_name
    FROM events e JOIN timelines t ON t.id = e.timeline_id LEFT JOIN users u ON u.id = e.deleted_by
    WHERE e.deleted_at IS NOT NULL AND t.deleted_at IS NULL
      AND (t.user_id = ${user.id} OR EXISTS (SELECT 1 FROM timeline_shares s
        WHERE s.timeline_id = t.id AND s.shared_with_user_id = ${user.id} AND s.access_level = 'collaborator'))
    ORDER BY deleted_at DESC, id DESC
    LIMIT 500`);
  return rows.map((r) => ({
    kind: r.kind,
    id: r.id,
    title: r.title,
    timelineTitle: r.timeline_title,
    deletedAt: r.deleted_at,
    deletedBy: r.deleted_by === null ? null : { id: r.deleted_by, name: r.deleted_by_name ?? "Unnamed User" },
  }));
}

/** The kind as the URL gives it: anything else is a 400. */
export function trashKind(value: string): TrashKind {
  if ((TRASH_KINDS as readonly string[]).includes(value)) return value as TrashKind;
  throw badRequest(UNKNOWN_KIND_MESSAGE);
}

export async function restoreFromTrash(deps: Deps, user: User, kind: TrashKind, id: number): Promise<EventView | TimelineView> {
  return kind === "timeline" ? restoreTimeline(deps, user, id) : restoreEvent(deps, user, id);
}

/** The owner's, while they have room for it under their plan (one statement, so the limit holds). */
async function restoreTimeline({ db, room }: Deps, user: User, timelineId: number): Promise<TimelineView> {
  const premium = isPremium(user) ? 1 : 0;
  const restored = await db
    .update(timelines)
    .set({ deletedAt: null, deletedBy: null })
    .where(
      and(
        eq(timelines.id, timelineId),
        eq(timelines.userId, user.id),
        isNotNull(timelines.deletedAt),
        sql`(${premium} = 1 OR (SELECT count(*) FROM timelines t2 WHERE t2.user_id = ${user.id} AND t2.deleted_at IS NULL) < ${FREE_TIMELINE_LIMIT})`,
      ),
    )
    .returning()
    .get();
  if (!restored) {
    const trashed = await db
      .select({ id: timelines.id })
      .from(timelines)
      .where(and(eq(timelines.id, timelineId), eq(timelines.userId, user.id), isNotNull(timelines.deletedAt)))
      .get();
    throw trashed ? forbidden(FREE_LIMIT_MESSAGE) : notFound(TIMELINE_NOT_FOUND);
  }
  const shared = await db.select({ id: timelineShares.id }).from(timelineShares).where(eq(timelineShares.timelineId, timelineId)).get();
  room(timelineId, { action: "timeline-updated", by: authorOf(user), subject: restored.title });
  return toTimelineView(restored, "owner", Boolean(shared), user);
}

/**
 * The owner, or a collaborator who can still edit the timeline. The scene goes back to its old place in the story
 * order (the scenes from there on move down one), or to the end when the story is now shorter than that.
 */
async function restoreEvent({ db, room, locale }: Deps, user: User, eventId: number): Promise<EventView> {
  const row = await db
    .select({ event: events, timeline: timelines, shareLevel: timelineShares.accessLevel })
    .from(events)
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .leftJoin(timelineShares, and(eq(timelineShares.timelineId, events.timelineId), eq(timelineShares.sharedWithUserId, user.id)))
    .where(and(eq(events.id, eventId), isNotNull(events.deletedAt)))
    .get();
  const mayRestore = row && (row.timeline.userId === user.id || row.shareLevel === "collaborator");
  if (!row || !mayRestore) throw notFound(EVENT_NOT_FOUND);
  if (row.timeline.deletedAt) {
    if (row.timeline.userId !== user.id) throw notFound(EVENT_NOT_FOUND);
    throw badRequest(TRASHED_TIMELINE_MESSAGE);
  }
  const timelineId = row.event.timelineId;
  const live = sql`(SELECT count(*) FROM events WHERE timeline_id = ${timelineId} AND deleted_at IS NULL)`;
  const stillTrashed = sql`EXISTS (SELECT 1 FROM events WHERE id = ${eventId} AND deleted_at IS NOT NULL)`;
  const [, restored] = await db.batch([
    db
      .update(events)
      .set({ position: sql`${events.position} + 1` })
      .where(
        and(
          eq(events.timelineId, timelineId),
          sql`${events.deletedAt} IS NULL`,
          sql`${events.position} >= MIN(${row.event.position}, ${live})`,
          stillTrashed,
        ),
      ),
    db
      .update(events)
      .set({ deletedAt: null, deletedBy: null, position: sql`MIN(${events.position}, ${live})` })
      .where(and(eq(events.id, eventId), isNotNull(events.deletedAt)))
      .returning({ id: events.id }),
  ]);
  if (restored.length === 0) throw notFound(EVENT_NOT_FOUND);
  await activityStatement(db, { timelineId, eventId, user, kind: "restored" });
  const { event } = await loadEventWithAccess(db, user, eventId, "collaborator");
  room(timelineId, { action: "added", by: authorOf(user), subject: event.title });
  return toEventView(event, locale);
}

export { EVENT_NOT_FOUND, TIMELINE_NOT_FOUND };

export type TrashPurgeDeps = { files: R2Bucket; removeDocs?: DocRemover };

/**
 * For the hourly purge: timelines and scenes trashed more than 30 days before `now` go for good, with their
 * attachments' bytes and their shared docs. Returns how many of each went.
 */
export async function purgeTrash(db: Db, { files: bucket, removeDocs }: TrashPurgeDeps, now = Date.now()) {
  const cutoff = new Date(now - TRASH_DAYS * DAY).toISOString();
  const expiredTimelines = await db.select({ id: timelines.id }).from(timelines).where(sql`${timelines.deletedAt} <= ${cutoff}`).limit(100);
  const timelineIds = expiredTimelines.map((t) => t.id);
  const inTimelines = sql`(SELECT value FROM json_each(${JSON.stringify(timelineIds)}))`;
  const expiredEvents = await db
    .select({ id: events.id })
    .from(events)
    .where(sql`${events.deletedAt} <= ${cutoff} OR ${events.timelineId} IN ${inTimelines}`)
    .limit(5000);
  const eventIds = expiredEvents.map((e) => e.id);
  if (timelineIds.length === 0 && eventIds.length === 0) return { timelines: 0, events: 0 };
  const inEvents = sql`(SELECT value FROM json_each(${JSON.stringify(eventIds)}))`;
  const keys = await db
    .select({ key: files.r2Key })
    .from(files)
    .where(sql`${files.eventId} IN ${inEvents} OR ${files.timelineId} IN ${inTimelines}`);
  // Rows first (files, versions and links go with them), then the bytes and the docs.
  // A series' entry created in a purged book stays with the series: it moves to the first book left.
  const bookLeft = sql`(SELECT t.id FROM timelines t WHERE t.series_id = ${entities.seriesId} AND t.id NOT IN ${inTimelines}
    ORDER BY t.series_position, t.id LIMIT 1)`;
  await db.batch([
    db.delete(events).where(sql`${events.id} IN ${inEvents}`),
    db
      .update(entities)
      .set({ timelineId: bookLeft })
      .where(sql`${entities.timelineId} IN ${inTimelines} AND ${entities.seriesId} IS NOT NULL AND ${bookLeft} IS NOT NULL`),
    db.delete(timelines).where(sql`${timelines.id} IN ${inTimelines}`),
  ]);
  await deleteObjects(
    bucket,
    keys.map((k) => k.key),
  );
  await removeDocs?.(eventIds);
  return { timelines: timelineIds.length, events: eventIds.length };
}
