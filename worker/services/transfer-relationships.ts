import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { TimelineDocument } from "../../db/domain/timeline-transfer";
import { MAX_RELATIONSHIPS, overCap, placeRelationships } from "../../db/domain/transfer/relationships-format";
import { relationshipsOf } from "./relationships";

// Codex relationships in the JSON/Markdown export and import (DESIGN.md §12): the document's `relationships`,
// `{from, to, label, since?}` with the entries by name and `since` the index of its scene in the document's events.

/** Adds the timeline's relationships between exported entries (a scene not exported: the relationship has no `since`). */
export async function addRelationshipsToDocument(
  db: Db,
  doc: TimelineDocument,
  timelineId: number,
  entities: { id: number; name: string }[],
  events: { id: number }[],
): Promise<TimelineDocument> {
  const rows = await relationshipsOf(db, timelineId);
  const nameOf = new Map(entities.map((e) => [e.id, e.name]));
  const eventIndex = new Map(events.map((e, i) => [e.id, i]));
  const relationships = rows.flatMap((r) => {
    const from = nameOf.get(r.fromId);
    const to = nameOf.get(r.toId);
    if (from === undefined || to === undefined) return [];
    const since = r.sinceEventId === null ? undefined : eventIndex.get(r.sinceEventId);
    return [{ from, to, label: r.label, ...(since !== undefined && { since }) }];
  });
  return relationships.length > 0 ? { ...doc, relationships } : doc;
}

/**
 * The import's INSERT of the file's relationships, for the batch that creates the timeline found by `marker`:
 * entries by name (the first of that name in the file), scenes by position. Also the sentences for those skipped.
 */
export function relationshipInserts(doc: TimelineDocument, marker: string, now: string, chunks: (rows: unknown[]) => string[]) {
  const index = new Map<string, number>();
  doc.entities.forEach((e, i) => {
    if (!index.has(e.name)) index.set(e.name, i);
  });
  const { placed, skipped } = placeRelationships(doc.relationships ?? [], (name) => index.get(name) ?? null);
  const { room, skipped: over } = overCap(placed.length, 0);
  const statements: SQL[] = chunks(placed.slice(0, room)).map(
    (json) => sql`
      WITH codex AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY id) - 1 AS idx FROM entities
                                  WHERE timeline_id = (SELECT id FROM timelines WHERE share_code = ${marker}))
      INSERT INTO relationships (timeline_id, from_id, to_id, label, since_event_id, created_at)
      SELECT t.id, (SELECT id FROM codex WHERE idx = json_extract(j.value, '$.from')),
             (SELECT id FROM codex WHERE idx = json_extract(j.value, '$.to')), json_extract(j.value, '$.label'),
             (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$.since')), ${now}
      FROM timelines t, json_each(${json}) j
      WHERE t.share_code = ${marker}
      ORDER BY j.key`,
  );
  return { statements, skipped: [...skipped, ...over] };
}

/** An entry of an append import: one the timeline has (its id) or one this import adds (its name as written). */
export type EntityRef = { id: number } | { name: string };

/**
 * The append import's INSERTs of the file's progressions and relationships: entries as `entityOf` reads a
 * reference at a JSON path, scenes as the file's event index plus `firstNew`. Relationships past the timeline's
 * 2,000 are left out (`existing`: how many it has; the INSERT's LIMIT holds that line inside the batch too).
 */
export function appendCodexInserts(
  doc: TimelineDocument,
  {
    timelineId,
    now,
    ref,
    existing,
    firstNew,
    entityOf,
    chunks,
  }: {
    timelineId: number;
    now: string;
    ref: (name: string) => EntityRef | null;
    existing: number;
    firstNew: SQL;
    entityOf: (path: string) => SQL;
    chunks: (rows: unknown[]) => string[];
  },
) {
  const eventAt = (path: string) =>
    sql`(SELECT e.id FROM events e WHERE e.timeline_id = ${timelineId} AND e.deleted_at IS NULL AND e.position = ${firstNew} + json_extract(j.value, ${path}))`;
  const progressions = doc.entities.flatMap((e) => {
    const entity = ref(e.name);
    return entity ? (e.progressions ?? []).map((p) => ({ entity, event: p.event, text: p.text })) : [];
  });
  const key = (r: EntityRef) => ("id" in r ? `#${r.id}` : r.name.toLowerCase());
  const { placed, skipped } = placeRelationships(doc.relationships ?? [], ref, (a, b) => key(a) === key(b));
  const { room, skipped: over } = overCap(placed.length, existing);
  const relationships = placed.slice(0, room);
  const statements: SQL[] = [
    ...chunks(progressions).map(
      (json) => sql`
        INSERT INTO entity_progressions (entity_id, event_id, text, created_at)
        SELECT ${entityOf("$.entity")}, ${eventAt("$.event")}, json_extract(j.value, '$.text'), ${now}
        FROM json_each(${json}) j ORDER BY j.key`,
    ),
    ...chunks(relationships).map(
      (json) => sql`
        INSERT INTO relationships (timeline_id, from_id, to_id, label, since_event_id, created_at)
        SELECT ${timelineId}, ${entityOf("$.from")}, ${entityOf("$.to")}, json_extract(j.value, '$.label'),
               CASE WHEN json_type(j.value, '$.since') = 'integer' THEN ${eventAt("$.since")} END, ${now}
        FROM json_each(${json}) j ORDER BY j.key
        LIMIT max(0, ${MAX_RELATIONSHIPS} - (SELECT count(*) FROM relationships WHERE timeline_id = ${timelineId}))`,
    ),
  ];
  return { statements, skipped: [...skipped, ...over], relationships: relationships.length };
}
