import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { entityProgressions, events, type User } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { type Deps, authorOf } from "./deps";
import { requireTimelineAccess } from "./access";
import { ENTITY_NOT_FOUND, codexRooms, listEntitiesForTimeline, loadEntityWithAccess } from "./entities";

/** Codex progressions (DESIGN.md §12): `POST /api/entities/{id}/progressions {eventId, text}` and the rest. */
export const PROGRESSION_TEXT_MAX = 2000;
const text = z.string().trim().min(1, "Please say what changes").max(PROGRESSION_TEXT_MAX, "A progression is at most 2,000 characters");
const eventId = z.number({ message: "Choose the scene it starts from" }).int().positive("Choose the scene it starts from");
export const CreateProgressionSchema = z.object({ eventId, text });
export const UpdateProgressionSchema = z
  .object({ eventId: eventId.optional(), text: text.optional() })
  .refine((v) => v.eventId !== undefined || v.text !== undefined, { message: "Nothing to change" });

export const PROGRESSION_NOT_FOUND = "Progression not found";
export const SCENE_NOT_IN_TIMELINE = "That scene is not in this entry's timeline";

const view = (p: typeof entityProgressions.$inferSelect) => ({
  id: p.id,
  entityId: p.entityId,
  eventId: p.eventId,
  text: p.text,
  createdAt: p.createdAt,
});

/** The scene must be a live scene of the entry's own timeline (never another timeline's, whatever the caller can see). */
async function requireSceneOf(db: Db, timelineId: number, id: number) {
  const scene = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, id), eq(events.timelineId, timelineId), isNull(events.deletedAt)))
    .get();
  if (!scene) throw badRequest(SCENE_NOT_IN_TIMELINE);
}

export async function listProgressions(db: Db, user: User, entityId: number, shareCode?: string | null) {
  await loadEntityWithAccess(db, user, entityId, "viewer", shareCode);
  const rows = await db
    .select()
    .from(entityProgressions)
    .where(eq(entityProgressions.entityId, entityId))
    .orderBy(asc(entityProgressions.id));
  return rows.map(view);
}

/** Every open book of the entry's codex (a series' entry is every book's) hears of the change. */
async function tell(
  { db, room }: Deps,
  user: User,
  entity: { timelineId: number; seriesId: number | null; name: string },
  action: "progression-added" | "progression-edited" | "progression-deleted",
) {
  for (const id of await codexRooms(db, entity.timelineId, entity.seriesId)) room(id, { action, by: authorOf(user), subject: entity.name });
}

export async function createProgression(
  deps: Deps,
  user: User,
  entityId: number,
  input: z.infer<typeof CreateProgressionSchema>,
  shareCode?: string | null,
) {
  const { db } = deps;
  const entity = await loadEntityWithAccess(db, user, entityId, "collaborator", shareCode);
  await requireSceneOf(db, entity.timelineId, input.eventId);
  const row = await db.insert(entityProgressions).values({ entityId, eventId: input.eventId, text: input.text }).returning().get();
  await tell(deps, user, entity, "progression-added");
  return view(row);
}

async function loadProgression(db: Db, user: User, id: number, shareCode?: string | null) {
  const row = await db.select().from(entityProgressions).where(eq(entityProgressions.id, id)).get();
  if (!row) throw notFound(PROGRESSION_NOT_FOUND);
  try {
    const entity = await loadEntityWithAccess(db, user, row.entityId, "collaborator", shareCode);
    return { row, entity };
  } catch (error) {
    // A stranger learns nothing of it: the progression's own 404, not the entry's.
    if (error instanceof Error && error.message === ENTITY_NOT_FOUND) throw notFound(PROGRESSION_NOT_FOUND);
    throw error;
  }
}

export async function updateProgression(
  deps: Deps,
  user: User,
  id: number,
  input: z.infer<typeof UpdateProgressionSchema>,
  shareCode?: string | null,
) {
  const { db } = deps;
  const { entity } = await loadProgression(db, user, id, shareCode);
  if (input.eventId !== undefined) await requireSceneOf(db, entity.timelineId, input.eventId);
  const row = await db.update(entityProgressions).set(input).where(eq(entityProgressions.id, id)).returning().get();
  // Deleted meanwhile (by another writer, or with its entry).
  if (!row) throw notFound(PROGRESSION_NOT_FOUND);
  await tell(deps, user, entity, "progression-edited");
  return view(row);
}

export async function deleteProgression(deps: Deps, user: User, id: number, shareCode?: string | null) {
  const { db } = deps;
  const { entity } = await loadProgression(db, user, id, shareCode);
  await db.delete(entityProgressions).where(eq(entityProgressions.id, id));
  await tell(deps, user, entity, "progression-deleted");
  return { success: true };
}

/** Every progression of these entries (the story bible), oldest first. */
export async function progressionsOf(db: Db, entityIds: number[]) {
  if (entityIds.length === 0) return [];
  return db.select().from(entityProgressions).where(inArray(entityProgressions.entityId, entityIds)).orderBy(asc(entityProgressions.id));
}

/**
 * `GET /api/timelines/{id}/progressions` (read access): every progression of the timeline's codex, as the reader
 * may read it, whose scene is a live scene of this timeline, oldest first. The lanes and the Map read each entry as
 * of a scene from it, with the same rule as the story bible (db/domain/progressions.ts).
 */
export async function listTimelineProgressions(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const codex = await listEntitiesForTimeline(db, timelineId, user);
  if (codex.length === 0) return [];
  const rows = await db
    .select({ progression: entityProgressions })
    .from(entityProgressions)
    .innerJoin(events, eq(events.id, entityProgressions.eventId))
    .where(
      and(
        inArray(
          entityProgressions.entityId,
          codex.map((e) => e.id),
        ),
        eq(events.timelineId, timelineId),
        isNull(events.deletedAt),
      ),
    )
    .orderBy(asc(entityProgressions.id));
  return rows.map((r) => view(r.progression));
}
