import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { entities, events, relationships, type User } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";

/** Relationships between codex entries (DESIGN.md §12): `POST /api/timelines/{id}/relationships` and the rest. */
export const RELATIONSHIP_LABEL_MAX = 100;
export const RELATIONSHIP_NOT_FOUND = "Relationship not found";
export const ENTRY_NOT_IN_TIMELINE = "Both entries must be codex entries of this timeline";
export const SAME_ENTRY = "A relationship joins two different entries";
export const SINCE_NOT_IN_TIMELINE = "That scene is not in this timeline";
/** A bound on what one timeline keeps (a flood of creates stops here). */
export const RELATIONSHIPS_PER_TIMELINE = 2000;
export const TOO_MANY_RELATIONSHIPS = "A timeline has at most 2,000 relationships";

const entryId = z.number({ message: "Choose both entries" }).int().positive("Choose both entries");
const label = z
  .string({ message: "Please name the relationship" })
  .trim()
  .min(1, "Please name the relationship")
  .max(RELATIONSHIP_LABEL_MAX, "A relationship's label is at most 100 characters");
const sinceEventId = z.number({ message: "Choose a scene, or none" }).int().positive("Choose a scene, or none").nullable();
export const CreateRelationshipSchema = z.object({ fromId: entryId, toId: entryId, label, sinceEventId: sinceEventId.optional() });
export const UpdateRelationshipSchema = z
  .object({ fromId: entryId.optional(), toId: entryId.optional(), label: label.optional(), sinceEventId: sinceEventId.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to change" });

export type RelationshipView = ReturnType<typeof view>;
const view = (r: typeof relationships.$inferSelect) => ({
  id: r.id,
  timelineId: r.timelineId,
  fromId: r.fromId,
  toId: r.toId,
  label: r.label,
  sinceEventId: r.sinceEventId,
  createdAt: r.createdAt,
});

/**
 * Both entries are this timeline's, not the same one; the scene (when given) a live scene of this timeline.
 * Answers the relationship as the other writers' notice names it ('Mara mother of Tom').
 */
async function check(db: Db, timelineId: number, fromId: number, toId: number, since: number | null | undefined, label: string) {
  if (fromId === toId) throw badRequest(SAME_ENTRY);
  const found = await db
    .select({ id: entities.id, name: entities.name })
    .from(entities)
    .where(and(eq(entities.timelineId, timelineId), inArray(entities.id, [fromId, toId])))
    .all();
  if (found.length !== 2) throw badRequest(ENTRY_NOT_IN_TIMELINE);
  const nameOf = (id: number) => found.find((e) => e.id === id)?.name ?? "";
  const subject = `${nameOf(fromId)} ${label} ${nameOf(toId)}`;
  if (since == null) return subject;
  const scene = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, since), eq(events.timelineId, timelineId), isNull(events.deletedAt)))
    .get();
  if (!scene) throw badRequest(SINCE_NOT_IN_TIMELINE);
  return subject;
}

export async function listRelationships(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return (await relationshipsOf(db, timelineId)).map(view);
}

/** A timeline's relationships, oldest first (the story bible's too). */
export function relationshipsOf(db: Db, timelineId: number) {
  return db.select().from(relationships).where(eq(relationships.timelineId, timelineId)).orderBy(asc(relationships.id)).all();
}

export async function createRelationship(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: z.infer<typeof CreateRelationshipSchema>,
  shareCode?: string | null,
) {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const subject = await check(db, timelineId, input.fromId, input.toId, input.sinceEventId, input.label);
  const [{ n }] = await db.select({ n: count() }).from(relationships).where(eq(relationships.timelineId, timelineId));
  if (n >= RELATIONSHIPS_PER_TIMELINE) throw badRequest(TOO_MANY_RELATIONSHIPS);
  const row = await db
    .insert(relationships)
    .values({ timelineId, fromId: input.fromId, toId: input.toId, label: input.label, sinceEventId: input.sinceEventId ?? null })
    .returning()
    .get();
  room(timelineId, { action: "relationship-added", by: authorOf(user), subject });
  return view(row);
}

async function loadRelationship(db: Db, user: User, id: number, shareCode?: string | null) {
  const row = await db.select().from(relationships).where(eq(relationships.id, id)).get();
  if (!row) throw notFound(RELATIONSHIP_NOT_FOUND);
  try {
    await requireTimelineAccess(db, user, row.timelineId, "collaborator", shareCode);
  } catch (error) {
    // A stranger learns nothing of it: the relationship's own 404, not the timeline's.
    if (error instanceof Error && error.message === "Timeline not found") throw notFound(RELATIONSHIP_NOT_FOUND);
    throw error;
  }
  return row;
}

export async function updateRelationship(
  { db, room }: Deps,
  user: User,
  id: number,
  input: z.infer<typeof UpdateRelationshipSchema>,
  shareCode?: string | null,
) {
  const row = await loadRelationship(db, user, id, shareCode);
  const next = { ...row, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  const subject = await check(db, row.timelineId, next.fromId, next.toId, input.sinceEventId, next.label);
  const changed = await db
    .update(relationships)
    .set({ fromId: next.fromId, toId: next.toId, label: next.label, sinceEventId: next.sinceEventId })
    .where(eq(relationships.id, id))
    .returning()
    .get();
  // Deleted meanwhile (by another writer, or with its timeline).
  if (!changed) throw notFound(RELATIONSHIP_NOT_FOUND);
  room(row.timelineId, { action: "relationship-edited", by: authorOf(user), subject });
  return view(changed);
}

export async function deleteRelationship({ db, room }: Deps, user: User, id: number, shareCode?: string | null) {
  const row = await loadRelationship(db, user, id, shareCode);
  await db.delete(relationships).where(eq(relationships.id, id));
  room(row.timelineId, { action: "relationship-deleted", by: authorOf(user), subject: row.label });
  return { success: true };
}
