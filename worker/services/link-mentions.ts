import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, entities, events } from "../../db/schema";
import { unlinkedMentions } from "../../db/domain/story-analysis";
import { nowIso } from "../lib/time";
import { requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";
import { inCodexOf, listEntitiesForTimeline } from "./entities";
import { linkedEntityIds } from "./event-list";

// 'Link all mentions' for a book: every codex entry the writer sees is linked to every scene that names it (by
// name or alias, whole words, any case) — the same matching as the cards' 'Link Mara?' (`unlinkedMentions`).

/** Pairs per statement: one bound JSON parameter each, well inside D1's statement size. */
const PAIRS_PER_STATEMENT = 2000;

/** Owner and collaborator. Links every unlinked mention in the timeline's scenes; answers how many links were made. */
export async function linkAllMentions({ db, room }: Deps, user: User, timelineId: number, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  const codex = await listEntitiesForTimeline(db, timelineId, user);
  if (codex.length === 0) return { linked: 0 };
  const scenes = await db
    .select({ id: events.id, title: events.title, content: events.content, entityIds: linkedEntityIds })
    .from(events)
    .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
    .orderBy(asc(events.position));
  const pairs: [number, number][] = [];
  const touched: { id: number; title: string }[] = [];
  for (const scene of scenes) {
    const entityIds = (JSON.parse(scene.entityIds ?? "[]") as (number | null)[]).filter((id): id is number => id !== null);
    const found = unlinkedMentions({ title: scene.title, content: scene.content, entityIds }, codex);
    if (found.length === 0) continue;
    touched.push(scene);
    for (const entity of found) pairs.push([scene.id, entity.id]);
  }
  if (pairs.length === 0) return { linked: 0 };
  const linked = await insertLinks(db, timelineId, pairs);
  if (linked > 0) {
    const ids = JSON.stringify(touched.map((s) => s.id));
    await db.run(sql`UPDATE events SET updated_at = ${nowIso()} WHERE id IN (SELECT value FROM json_each(${ids}))`);
    await room(timelineId, { action: "edited", by: authorOf(user), subject: touched.length === 1 ? touched[0].title : undefined });
  }
  return { linked };
}

/**
 * Inserts the links, each only while its scene is still a live scene of this timeline and its entry still in the
 * writer's codex of it (a concurrent delete leaves it out); a link that exists already is not counted.
 */
async function insertLinks(db: Db, timelineId: number, pairs: [number, number][]) {
  let linked = 0;
  for (let at = 0; at < pairs.length; at += PAIRS_PER_STATEMENT) {
    const chunk = JSON.stringify(pairs.slice(at, at + PAIRS_PER_STATEMENT));
    // Counted by the rows it returns: `changes` would count the triggers' writes too.
    const rows = await db.all<{ eventId: number }>(sql`INSERT OR IGNORE INTO event_entities (event_id, entity_id)
      SELECT json_extract(p.value, '$[0]'), json_extract(p.value, '$[1]') FROM json_each(${chunk}) p
      WHERE json_extract(p.value, '$[0]') IN (SELECT id FROM events WHERE timeline_id = ${timelineId} AND deleted_at IS NULL)
        AND json_extract(p.value, '$[1]') IN (SELECT ${entities.id} FROM ${entities} WHERE ${inCodexOf(timelineId)})
      RETURNING event_id AS eventId`);
    linked += rows.length;
  }
  return linked;
}
