import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { TimelineDocument } from "../../db/domain/timeline-transfer";
import { progressionsOf } from "./progressions";

// Codex progressions in the JSON/Markdown export and import (DESIGN.md §12): each entry's `progressions`,
// `{event, text}` with `event` the index of its scene in the document's events.

/** Adds each exported entry's progressions (oldest first; scenes not exported are left out). */
export async function addProgressionsToDocument(
  db: Db,
  doc: TimelineDocument,
  entities: { id: number }[],
  events: { id: number }[],
): Promise<TimelineDocument> {
  const rows = await progressionsOf(
    db,
    entities.map((e) => e.id),
  );
  if (rows.length === 0) return doc;
  const entityIndex = new Map(entities.map((e, i) => [e.id, i]));
  const eventIndex = new Map(events.map((e, i) => [e.id, i]));
  const byEntry = new Map<number, { event: number; text: string }[]>();
  for (const p of rows) {
    const entry = entityIndex.get(p.entityId);
    const event = eventIndex.get(p.eventId);
    if (entry === undefined || event === undefined) continue;
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), { event, text: p.text }]);
  }
  return {
    ...doc,
    entities: doc.entities.map((e, i) => (byEntry.has(i) ? { ...e, progressions: byEntry.get(i) } : e)),
  };
}

/**
 * The import's INSERT of the file's progressions, for the batch that creates the timeline found by `marker`:
 * the n-th codex entry and the event at position m of the new timeline are the file's entry n and event m.
 */
export function progressionInserts(doc: TimelineDocument, marker: string, now: string, chunks: (rows: unknown[]) => string[]): SQL[] {
  const rows = doc.entities.flatMap((e, entry) => (e.progressions ?? []).map((p) => ({ entry, event: p.event, text: p.text })));
  return chunks(rows).map(
    (json) => sql`
      WITH codex AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY id) - 1 AS idx FROM entities
                                  WHERE timeline_id = (SELECT id FROM timelines WHERE share_code = ${marker}))
      INSERT INTO entity_progressions (entity_id, event_id, text, created_at)
      SELECT (SELECT id FROM codex WHERE idx = json_extract(j.value, '$.entry')),
             (SELECT e.id FROM events e WHERE e.timeline_id = t.id AND e.position = json_extract(j.value, '$.event')),
             json_extract(j.value, '$.text'), ${now}
      FROM timelines t, json_each(${json}) j
      WHERE t.share_code = ${marker}
      ORDER BY j.key`,
  );
}
