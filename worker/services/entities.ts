import { type SQL, and, asc, eq, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Entity, type User, entities, timelines } from "../../db/schema";
import { type CreateEntity, type UpdateEntity, lifespanMessages, nextEntityColor } from "../../db/domain/validation";
import { type Calendar, readStoryInput, storedCalendar, storyRangeOrdered, storySort } from "../../db/domain/calendar";
import { badRequest, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, loadWithAccess, requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";

// The codex: a timeline's characters, places and things, or its series' when the timeline is a book of one
// (shared by every book). Read: owner, collaborator, viewer of the book; create and edit: owner, collaborator;
// delete: owner.

export const ENTITY_NOT_FOUND = "Entity not found";

export type EntityView = {
  id: number;
  timelineId: number;
  kind: Entity["kind"];
  name: string;
  aliases: string[];
  description: string;
  color: string;
  /** A character's lifespan as story dates (null: not known). */
  born: string | null;
  died: string | null;
  createdAt: string;
  updatedAt: string;
};

const entityColumns = {
  id: entities.id,
  timelineId: entities.timelineId,
  kind: entities.kind,
  name: entities.name,
  aliases: entities.aliases,
  description: entities.description,
  color: entities.color,
  born: entities.born,
  died: entities.died,
  createdAt: entities.createdAt,
  updatedAt: entities.updatedAt,
};

export const toEntityView = (e: Entity | EntityView): EntityView => ({
  id: e.id,
  timelineId: e.timelineId,
  kind: e.kind,
  name: e.name,
  aliases: Array.isArray(e.aliases) ? e.aliases.map(String) : [],
  description: e.description,
  color: e.color,
  born: e.born ?? null,
  died: e.died ?? null,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/**
 * For a select from `entities`: the entry is in this timeline's codex (its series' when it is in one). The
 * timeline id is bound or is SQL for it.
 */
export const inCodexOf = (timelineId: number | SQL) =>
  sql`(${entities.seriesId} = (SELECT t.series_id FROM timelines t WHERE t.id = ${timelineId})
    OR (${entities.seriesId} IS NULL AND ${entities.timelineId} = ${timelineId}))`;

/** The timelines whose rooms hear of a change to this codex: the book, or every book of its series. */
export async function codexRooms(db: Db, timelineId: number, seriesId: number | null) {
  if (seriesId === null) return [timelineId];
  const rows = await db.select({ id: timelines.id }).from(timelines).where(eq(timelines.seriesId, seriesId));
  return rows.map((r) => r.id);
}

/**
 * For a select from `entities` of a book's codex: the entry is one `reader` of that book may see. A series' codex
 * is shared by books that may be shared with different people: a reader of one book sees the entries created in,
 * or linked from a scene of, a book they can read (this one, which the caller already may read, or one they own
 * or are shared on, as `accessOf` decides without a link code), never the rest of the series'. The owner of a
 * series owns every book of it, so sees all.
 */
export const readableInCodexOf = (timelineId: number, reader: Pick<User, "id">) => {
  const readableBook = (column: SQL) => sql`${column} IN (SELECT t.id FROM timelines t WHERE t.series_id = ${entities.seriesId}
    AND t.deleted_at IS NULL AND (t.id = ${timelineId} OR t.user_id = ${reader.id}
      OR EXISTS (SELECT 1 FROM timeline_shares s WHERE s.timeline_id = t.id AND s.shared_with_user_id = ${reader.id})))`;
  return sql`(${inCodexOf(timelineId)} AND (${entities.seriesId} IS NULL OR ${readableBook(sql`${entities.timelineId}`)}
    OR EXISTS (SELECT 1 FROM event_entities ee JOIN events e ON e.id = ee.event_id
      WHERE ee.entity_id = ${entities.id} AND e.deleted_at IS NULL AND ${readableBook(sql`e.timeline_id`)})))`;
};

/** A book's codex: with `reader`, only what they may see of a series' (`readableInCodexOf`). */
export async function listEntitiesForTimeline(db: Db, timelineId: number, reader?: Pick<User, "id">): Promise<EntityView[]> {
  const rows = await db
    .select(entityColumns)
    .from(entities)
    .where(reader ? readableInCodexOf(timelineId, reader) : inCodexOf(timelineId))
    .orderBy(sql`${entities.name} COLLATE NOCASE`, asc(entities.id));
  return rows.map(toEntityView);
}

export async function listEntities(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return listEntitiesForTimeline(db, timelineId, user);
}

/**
 * Born and died as the writer typed them ('14 Frostmoon 1185 AR', '1185-13-14'), read in the timeline's calendar
 * into the stored form (the writer's locale's month names read too); 400 with an example in that calendar when one
 * does not read. Absent stays absent.
 */
function readLifespan(cal: Calendar, input: { born?: string | null; died?: string | null }, locale?: string) {
  const read = (text: string | null | undefined, field: "Born" | "Died") => {
    if (text === undefined || text === null) return text;
    const parsed = readStoryInput(cal, text, field, locale);
    if (!parsed.ok) throw badRequest(parsed.error);
    return parsed.stored;
  };
  return { born: read(input.born, "Born"), died: read(input.died, "Died") };
}

/** Died must not lie wholly before born, in the calendar. */
function checkLifespan(cal: Calendar, born: string | null | undefined, died: string | null | undefined) {
  if (born && died && !storyRangeOrdered(cal, born, died)) throw badRequest(lifespanMessages.diedBeforeBorn);
}

export async function createEntity(
  { db, room, locale }: Deps,
  user: User,
  timelineId: number,
  input: CreateEntity,
  shareCode?: string | null,
): Promise<EntityView> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  // Sorted in the timeline's own calendar, as import and a change of calendar sort them.
  const calendar = storedCalendar(timeline.calendar);
  const life = readLifespan(calendar, input, locale);
  checkLifespan(calendar, life.born, life.died);
  const now = nowIso();
  // Without a colour of its own a new entry takes one no other entry of the codex has.
  const color =
    input.color ??
    nextEntityColor(
      input.kind,
      (await db.select({ color: entities.color }).from(entities).where(inCodexOf(timelineId))).map((r) => r.color),
    );
  const row = await db
    .insert(entities)
    .values({
      timelineId,
      seriesId: timeline.seriesId,
      kind: input.kind,
      name: input.name,
      aliases: input.aliases ?? [],
      description: input.description ?? "",
      color,
      born: life.born ?? null,
      died: life.died ?? null,
      bornSort: storySort(calendar, life.born),
      diedSort: storySort(calendar, life.died),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  for (const id of await codexRooms(db, timelineId, row.seriesId))
    room(id, { action: "entity-added", by: authorOf(user), subject: row.name });
  return toEntityView(row);
}

/**
 * The entity and the caller's access, in one query: to its timeline, or for an entry of a series the best the
 * caller has to any of its books. Strangers get 404.
 */
export async function loadEntityWithAccess(db: Db, user: User, entityId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  const on = or(eq(timelines.id, entities.timelineId), and(isNotNull(entities.seriesId), eq(timelines.seriesId, entities.seriesId)));
  const { row: found, rows } = await loadWithAccess(
    db,
    user,
    { table: entities, id: entityId, missing: ENTITY_NOT_FOUND, on },
    need,
    shareCode,
  );
  // Born and died sort in the calendar of the book the entry was created in (a series' books may differ).
  const home = rows.find((r) => r.timeline.id === found.row.timelineId) ?? found;
  return { ...found.row, calendar: home.timeline.calendar };
}

export async function updateEntity(
  { db, room, locale }: Deps,
  user: User,
  entityId: number,
  input: UpdateEntity,
  shareCode?: string | null,
): Promise<EntityView> {
  const entity = await loadEntityWithAccess(db, user, entityId, "collaborator", shareCode);
  const calendar = storedCalendar(entity.calendar);
  const life = readLifespan(calendar, input, locale);
  checkLifespan(calendar, life.born !== undefined ? life.born : entity.born, life.died !== undefined ? life.died : entity.died);
  const row = await db
    .update(entities)
    .set({
      ...(input.kind !== undefined && { kind: input.kind }),
      ...(input.name !== undefined && { name: input.name }),
      ...(input.aliases !== undefined && { aliases: input.aliases }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.color !== undefined && { color: input.color }),
      ...(life.born !== undefined && { born: life.born, bornSort: storySort(calendar, life.born) }),
      ...(life.died !== undefined && { died: life.died, diedSort: storySort(calendar, life.died) }),
      updatedAt: nowIso(),
    })
    .where(eq(entities.id, entityId))
    .returning()
    .get();
  // Deleted meanwhile (by the owner, or with its timeline).
  if (!row) throw notFound(ENTITY_NOT_FOUND);
  for (const id of await codexRooms(db, entity.timelineId, entity.seriesId)) {
    room(id, { action: "entity-edited", by: authorOf(user), subject: row.name });
  }
  return toEntityView(row);
}

/** Owners only. Its links go with it (ON DELETE CASCADE) and a POV on it becomes none (SET NULL). */
export async function deleteEntity({ db, room }: Deps, user: User, entityId: number, shareCode?: string | null) {
  const entity = await loadEntityWithAccess(db, user, entityId, "owner", shareCode);
  await db.delete(entities).where(eq(entities.id, entityId));
  for (const id of await codexRooms(db, entity.timelineId, entity.seriesId)) {
    room(id, { action: "entity-deleted", by: authorOf(user), subject: entity.name });
  }
  return { success: true as const };
}
