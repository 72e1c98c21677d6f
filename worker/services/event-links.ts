import { type SQL, and, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { entities, eventEntities } from "../../db/schema";
import { storyMessages } from "../../db/domain/validation";
import { badRequest } from "../lib/errors";
import { inCodexOf } from "./entities";

// An event's links to its timeline's codex (characters, places, things) and its point of view, as statements.

/** The ids as one bound JSON parameter: D1 allows at most 100 bound parameters per statement. */
const inIds = (ids: number[]) => sql`${entities.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** 400 unless every id is an entity of this timeline (another timeline's and unknown ids alike). */
export async function requireTimelineEntities(db: Db, timelineId: number, ids: number[]) {
  if (ids.length === 0) return;
  const found = await db
    .select({ n: sql<number>`count(*)` })
    .from(entities)
    .where(and(inCodexOf(timelineId), inIds(ids)))
    .get();
  if (Number(found?.n ?? 0) !== ids.length) throw badRequest(storyMessages.foreignEntity);
}

/** The POV as stored: only an entity of this timeline (a concurrent delete leaves it null, never a broken key). */
export const povValue = (timelineId: number, povEntityId: number | null) =>
  povEntityId === null ? sql`NULL` : sql`(SELECT id FROM ${entities} WHERE ${entities.id} = ${povEntityId} AND ${inCodexOf(timelineId)})`;

/**
 * Replaces the event's links with these entities of its timeline. `guard` (a condition checked
 * before anything is written) makes the statements no-ops when a conflict refuses the write.
 */
export function linkStatements(db: Db, eventId: SQL | number, timelineId: number, ids: number[], guard: SQL = sql`1`) {
  const remove = db.delete(eventEntities).where(and(sql`${eventEntities.eventId} = ${eventId}`, guard));
  if (ids.length === 0) return [remove] as const;
  const insert = db
    .insert(eventEntities)
    .select(
      db
        .select({ eventId: sql<number>`${eventId}`.as("event_id"), entityId: entities.id })
        .from(entities)
        .where(and(inCodexOf(timelineId), inIds(ids), guard)),
    )
    .onConflictDoNothing();
  return [remove, insert] as const;
}
