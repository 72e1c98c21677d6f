import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dependencyMessages, wouldLoop } from "../../db/domain/lifespans";
import { eventDependencies, events } from "../../db/schema";
import { badRequest } from "../lib/errors";

// A scene's dependencies: the scenes of its timeline it must come after in story time.

const inJson = (column: SQL | typeof events.id, ids: number[]) => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/**
 * 400 unless every id is another live scene of this timeline and the list closes no loop. `eventId` is the scene
 * being written (null for a new one, on which nothing depends yet).
 */
export async function requireDependencies(db: Db, timelineId: number, eventId: number | null, ids: number[]) {
  if (ids.length === 0) return;
  if (eventId !== null && ids.includes(eventId)) throw badRequest(dependencyMessages.self);
  const found = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(events)
    .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt), inJson(events.id, ids)))
    .get();
  if ((found?.n ?? 0) !== ids.length) throw badRequest(dependencyMessages.foreign);
  if (eventId === null) return;
  const rows = await db
    .select({ eventId: eventDependencies.eventId, afterEventId: eventDependencies.afterEventId })
    .from(eventDependencies)
    .innerJoin(events, eq(events.id, eventDependencies.eventId))
    .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)));
  const edges = new Map<number, number[]>();
  for (const r of rows) if (r.eventId !== eventId) edges.set(r.eventId, [...(edges.get(r.eventId) ?? []), r.afterEventId]);
  if (wouldLoop(eventId, ids, edges)) throw badRequest(dependencyMessages.loop);
}

/**
 * Replaces the scene's dependencies on live scenes with these (of its timeline only); one on a scene in Trash stays
 * for its restore. `guard` makes the statements no-ops when a conflict refuses the write they belong to.
 */
export function dependencyStatements(db: Db, eventId: SQL | number, timelineId: number, ids: number[], guard: SQL = sql`1`) {
  const live = sql`${eventDependencies.afterEventId} IN (SELECT id FROM events WHERE deleted_at IS NULL)`;
  const remove = db.delete(eventDependencies).where(and(sql`${eventDependencies.eventId} = ${eventId}`, live, guard));
  if (ids.length === 0) return [remove] as const;
  const insert = db
    .insert(eventDependencies)
    .select(
      db
        .select({ eventId: sql<number>`${eventId}`.as("event_id"), afterEventId: events.id })
        .from(events)
        .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt), inJson(events.id, ids), guard)),
    )
    .onConflictDoNothing();
  return [remove, insert] as const;
}
