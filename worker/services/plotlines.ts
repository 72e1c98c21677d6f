import { type SQL, and, asc, eq, gt, gte, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type CreatePlotline, type UpdatePlotline, defaultPlotlineColor, plotlineMessages } from "../../db/domain/validation-plotlines";
import { type User, eventPlotlines, plotlines } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, loadWithAccess, requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";
import { type ReservedKey, keyAnswerStatements, runWithKey } from "./idempotency-keys";

export type PlotlineView = { id: number; timelineId: number; title: string; color: string; position: number };

const plotlineColumns = {
  id: plotlines.id,
  timelineId: plotlines.timelineId,
  title: plotlines.title,
  color: plotlines.color,
  position: plotlines.position,
};

/** The timeline's plotlines in order. */
export const listPlotlinesOf = (db: Db, timelineId: number): Promise<PlotlineView[]> =>
  db
    .select(plotlineColumns)
    .from(plotlines)
    .where(eq(plotlines.timelineId, timelineId))
    .orderBy(asc(plotlines.position), asc(plotlines.id));

/** Read access, as the events list. */
export async function listPlotlines(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return listPlotlinesOf(db, timelineId);
}

/** A new plotline, last in the order; without a color it takes the palette's next. */
export async function createPlotline(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: CreatePlotline,
  shareCode?: string | null,
  /** The Idempotency-Key this create holds: its answer is written in the same batch as the plotline. */
  reserved?: ReservedKey | null,
): Promise<PlotlineView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const count = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(plotlines)
    .where(eq(plotlines.timelineId, timelineId))
    .get();
  const now = nowIso();
  const insert = db
    .insert(plotlines)
    .values({
      timelineId,
      title: input.title,
      color: input.color ?? defaultPlotlineColor(count?.n ?? 0),
      position: sql`(SELECT count(*) FROM plotlines WHERE timeline_id = ${timelineId})`,
      createdAt: now,
      updatedAt: now,
    })
    .returning(plotlineColumns);
  // With an Idempotency-Key, its answer is written in the same batch as the plotline (as the JSON answered below).
  const answer = reserved
    ? keyAnswerStatements(
        db,
        reserved,
        201,
        sql<string>`(SELECT json_object('id', p.id, 'timelineId', p.timeline_id, 'title', p.title, 'color', p.color,
          'position', p.position) FROM plotlines p WHERE p.id = (SELECT max(id) FROM plotlines WHERE timeline_id = ${timelineId}))`,
      )
    : [];
  const [inserted] = await runWithKey(db, reserved, () => db.batch([insert, ...answer] as unknown as [typeof insert]));
  const row = inserted[0];
  room(timelineId, { action: "plotline-added", by: authorOf(user), subject: row.title });
  return row;
}

async function loadPlotlineWithAccess(db: Db, user: User, plotlineId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  return (await loadWithAccess(db, user, { table: plotlines, id: plotlineId, missing: plotlineMessages.notFound }, need, shareCode)).row
    .row;
}

/** Rename, recolor, or move it in the order (clamped to the last place; the others shift to make room). */
export async function updatePlotline(
  { db, room }: Deps,
  user: User,
  plotlineId: number,
  input: UpdatePlotline,
  shareCode?: string | null,
): Promise<PlotlineView> {
  const plotline = await loadPlotlineWithAccess(db, user, plotlineId, "collaborator", shareCode);
  const statements = [];
  if (input.position !== undefined) {
    const count = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(plotlines)
      .where(eq(plotlines.timelineId, plotline.timelineId))
      .get();
    const from = plotline.position;
    const to = Math.min(input.position, Math.max(0, (count?.n ?? 1) - 1));
    const same = eq(plotlines.timelineId, plotline.timelineId);
    if (to < from) {
      statements.push(
        db
          .update(plotlines)
          .set({ position: sql`${plotlines.position} + 1` })
          .where(and(same, gte(plotlines.position, to), lt(plotlines.position, from))),
      );
    } else if (to > from) {
      statements.push(
        db
          .update(plotlines)
          .set({ position: sql`${plotlines.position} - 1` })
          .where(and(same, gt(plotlines.position, from), lte(plotlines.position, to))),
      );
    }
    statements.push(db.update(plotlines).set({ position: to }).where(eq(plotlines.id, plotlineId)));
  }
  statements.push(
    db
      .update(plotlines)
      .set({
        ...(input.title !== undefined && { title: input.title }),
        ...(input.color !== undefined && { color: input.color }),
        updatedAt: nowIso(),
      })
      .where(eq(plotlines.id, plotlineId)),
  );
  await db.batch(statements as unknown as [(typeof statements)[number]]);
  const row = await db.select(plotlineColumns).from(plotlines).where(eq(plotlines.id, plotlineId)).get();
  if (!row) throw notFound(plotlineMessages.notFound);
  room(plotline.timelineId, { action: "plotline-edited", by: authorOf(user), subject: row.title });
  return row;
}

/** Edit access, as the other plotline writes. Its scenes stay; they only leave it. The plotlines after it close the gap. */
export async function deletePlotline({ db, room }: Deps, user: User, plotlineId: number, shareCode?: string | null) {
  // Deleting is the owner's, as for chapters and events; its scenes stay.
  const plotline = await loadPlotlineWithAccess(db, user, plotlineId, "owner", shareCode);
  await db.batch([
    db.delete(eventPlotlines).where(eq(eventPlotlines.plotlineId, plotlineId)),
    db.delete(plotlines).where(eq(plotlines.id, plotlineId)),
    db
      .update(plotlines)
      .set({ position: sql`${plotlines.position} - 1` })
      .where(and(eq(plotlines.timelineId, plotline.timelineId), gt(plotlines.position, plotline.position))),
  ]);
  room(plotline.timelineId, { action: "plotline-deleted", by: authorOf(user), subject: plotline.title });
  return { success: true };
}

/** 400 unless every id is a plotline of this timeline (another timeline's and unknown ids alike). */
export async function requireTimelinePlotlines(db: Db, timelineId: number, ids: number[]) {
  if (ids.length === 0) return;
  const found = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(plotlines)
    .where(and(eq(plotlines.timelineId, timelineId), sql`${plotlines.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`))
    .get();
  if ((found?.n ?? 0) !== ids.length) throw badRequest(plotlineMessages.foreignPlotline);
}

/**
 * Replaces the scene's plotlines with these (of its timeline only). `guard` makes the statements no-ops when a
 * conflict refuses the write they belong to.
 */
export function plotlineStatements(db: Db, eventId: number | SQL, timelineId: number, ids: number[], guard = sql`1`) {
  const remove = db.delete(eventPlotlines).where(and(eq(eventPlotlines.eventId, eventId), guard));
  if (ids.length === 0) return [remove] as const;
  const insert = db
    .insert(eventPlotlines)
    .select(
      db
        .select({ eventId: sql<number>`${eventId}`.as("event_id"), plotlineId: plotlines.id })
        .from(plotlines)
        .where(
          and(eq(plotlines.timelineId, timelineId), sql`${plotlines.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`, guard),
        ),
    )
    .onConflictDoNothing();
  return [remove, insert] as const;
}
