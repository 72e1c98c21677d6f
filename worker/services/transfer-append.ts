import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { storedCalendar } from "../../db/domain/calendar";
import type { TimelineDocument } from "../../db/domain/timeline-transfer";
import type { User } from "../../db/schema";
import { nowIso } from "../lib/time";
import { requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";
import { ownerNameOf, toTimelineView } from "./timelines";
import { chunks, importedEntityRow, importedEventColumns, importedEventRow, importedEventValues, rawStatement } from "./transfer";
import { type EntityRef, appendCodexInserts } from "./transfer-relationships";

// Import into an existing timeline: the file's events go after its last one and its codex merges by name
// (case-insensitive: an entry the timeline has is reused, whatever its kind; a new name becomes a new entry).
// Edit access, like adding an event; no new timeline, so the free plan's timeline limit does not apply, but the
// file's own limits do (5,000 events, 1,000 codex entries at once).

export const requireImportAccess = (db: Db, user: User, timelineId: number, shareCode?: string | null) =>
  requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);

export async function importIntoTimeline(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  doc: TimelineDocument,
  shareCode?: string | null,
) {
  const { timeline, access, hasShares } = await requireImportAccess(db, user, timelineId, shareCode);
  const existing = await db.$client
    .prepare(
      `SELECT id, name FROM entities WHERE series_id = (SELECT t.series_id FROM timelines t WHERE t.id = ?1)
       OR (series_id IS NULL AND timeline_id = ?1) ORDER BY id`,
    )
    .bind(timelineId)
    .all<{ id: number; name: string }>();
  const byName = new Map<string, EntityRef>();
  for (const e of existing.results) if (!byName.has(e.name.toLowerCase())) byName.set(e.name.toLowerCase(), { id: e.id });
  const created = doc.entities.filter((e) => {
    if (byName.has(e.name.toLowerCase())) return false;
    byName.set(e.name.toLowerCase(), { name: e.name });
    return true;
  });
  const ref = (name: string) => byName.get(name.toLowerCase()) ?? null;
  const relationshipCount = await db.$client
    .prepare("SELECT count(*) AS n FROM relationships WHERE timeline_id = ?1")
    .bind(timelineId)
    .first<{ n: number }>();

  const now = nowIso();
  const calendar = storedCalendar(timeline.calendar);
  const count = doc.events.length;
  const entityRows = created.map((e) => importedEntityRow(e, calendar));
  const eventRows = doc.events.map((e, index) => ({
    ...importedEventRow(e, calendar),
    index,
    pov: e.pov !== null ? ref(e.pov) : null,
    chapter: e.chapter ?? null,
  }));
  // The file's chapters go after the timeline's own, its events (at the end) into them.
  const chapterRows = (doc.chapters ?? []).map((c) => ({ title: c.title, targetWords: c.targetWords }));
  const firstNewChapter = sql`((SELECT count(*) FROM chapters WHERE timeline_id = ${timelineId}) - ${chapterRows.length})`;
  // The file's plotlines join the timeline's by title (case ignored); the others go after its own.
  const plotlineRows = (doc.plotlines ?? []).map((p) => ({ title: p.title, color: p.color }));
  const inPlotlines = doc.events.flatMap((e, index) => (e.plotlines ?? []).map((p) => ({ index, title: plotlineRows[p]?.title })));
  // The file's dependencies name its events by index: the new ids are found by position.
  const dependencies = doc.events.flatMap((e, index) => (e.after ?? []).map((i) => [index, i]));
  const links = doc.events.flatMap((e, index) => {
    const refs = new Map<string, EntityRef>();
    for (const name of e.entities) {
      const r = ref(name);
      if (r) refs.set("id" in r ? `#${r.id}` : r.name, r);
    }
    return [...refs.values()].map((r) => ({ index, ...r }));
  });

  const raw = (query: SQL) => rawStatement(db, query);
  // An entry by reference: by id, or the entry of that exact name this batch inserted (the newest).
  const entityOf = (path: string) =>
    sql`coalesce(json_extract(j.value, ${`${path}.id`}),
      (SELECT id FROM entities WHERE timeline_id = ${timelineId} AND name = json_extract(j.value, ${`${path}.name`}) ORDER BY id DESC LIMIT 1))`;
  // Inside the batch (one transaction) the imported events are the timeline's last `count` positions.
  const firstNew = sql`((SELECT max(position) FROM events WHERE timeline_id = ${timelineId} AND deleted_at IS NULL) - ${count - 1})`;
  // Progressions and relationships, their entries matched by name like the events' links.
  const codex = appendCodexInserts(doc, {
    timelineId,
    now,
    ref,
    existing: relationshipCount?.n ?? 0,
    firstNew,
    entityOf,
    chunks,
  });
  const statements = [
    ...chunks(entityRows).map((json) =>
      raw(sql`
        INSERT INTO entities (timeline_id, series_id, kind, name, aliases, description, color, born, died, born_sort, died_sort, created_at, updated_at)
        SELECT ${timelineId}, (SELECT t.series_id FROM timelines t WHERE t.id = ${timelineId}), json_extract(j.value, '$.kind'), json_extract(j.value, '$.name'), json_extract(j.value, '$.aliases'),
               json_extract(j.value, '$.description'), json_extract(j.value, '$.color'), json_extract(j.value, '$.born'),
               json_extract(j.value, '$.died'), json_extract(j.value, '$.bornSort'), json_extract(j.value, '$.diedSort'), ${now}, ${now}
        FROM json_each(${json}) j ORDER BY j.key`),
    ),
    ...chunks(chapterRows).map((json) =>
      raw(sql`
        WITH base AS MATERIALIZED (SELECT count(*) AS at FROM chapters WHERE timeline_id = ${timelineId})
        INSERT INTO chapters (timeline_id, title, position, target_words, created_at, updated_at)
        SELECT ${timelineId}, json_extract(j.value, '$.title'), base.at + j.key, json_extract(j.value, '$.targetWords'), ${now}, ${now}
        FROM base, json_each(${json}) j ORDER BY j.key`),
    ),
    ...chunks(plotlineRows).map((json) =>
      raw(sql`
        WITH base AS MATERIALIZED (SELECT count(*) AS at FROM plotlines WHERE timeline_id = ${timelineId}),
             fresh AS MATERIALIZED (SELECT j.key, j.value FROM json_each(${json}) j
               WHERE NOT EXISTS (SELECT 1 FROM plotlines p WHERE p.timeline_id = ${timelineId} AND lower(p.title) = lower(json_extract(j.value, '$.title'))))
        INSERT INTO plotlines (timeline_id, title, color, position, created_at, updated_at)
        SELECT ${timelineId}, json_extract(f.value, '$.title'), json_extract(f.value, '$.color'),
               base.at + (row_number() OVER (ORDER BY f.key)) - 1, ${now}, ${now}
        FROM base, fresh f ORDER BY f.key`),
    ),
    ...chunks(eventRows).map((json) =>
      raw(sql`
        WITH base AS MATERIALIZED (SELECT coalesce(max(position) + 1, 0) AS at FROM events WHERE timeline_id = ${timelineId} AND deleted_at IS NULL)
        INSERT INTO events (timeline_id, ${importedEventColumns}, position, attachments, version, pov_entity_id, chapter_id, created_at, updated_at)
        SELECT ${timelineId}, ${importedEventValues}, base.at + j.key, '[]', 1,
               CASE WHEN json_type(j.value, '$.pov') = 'object' THEN ${entityOf("$.pov")} END,
               (SELECT c.id FROM chapters c WHERE c.timeline_id = ${timelineId} AND c.position = ${firstNewChapter} + json_extract(j.value, '$.chapter')),
               ${now}, ${now}
        FROM base, json_each(${json}) j ORDER BY j.key`),
    ),
    ...chunks(links).map((json) =>
      raw(sql`
        INSERT OR IGNORE INTO event_entities (event_id, entity_id)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = ${timelineId} AND e.deleted_at IS NULL AND e.position = ${firstNew} + json_extract(j.value, '$.index')),
               ${entityOf("$")}
        FROM json_each(${json}) j`),
    ),
    ...chunks(inPlotlines).map((json) =>
      raw(sql`
        INSERT OR IGNORE INTO event_plotlines (event_id, plotline_id)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = ${timelineId} AND e.deleted_at IS NULL AND e.position = ${firstNew} + json_extract(j.value, '$.index')),
               (SELECT p.id FROM plotlines p WHERE p.timeline_id = ${timelineId} AND lower(p.title) = lower(json_extract(j.value, '$.title')) ORDER BY p.position LIMIT 1)
        FROM json_each(${json}) j`),
    ),
    ...chunks(dependencies).map((json) =>
      raw(sql`
        INSERT OR IGNORE INTO event_dependencies (event_id, after_event_id)
        SELECT (SELECT e.id FROM events e WHERE e.timeline_id = ${timelineId} AND e.deleted_at IS NULL AND e.position = ${firstNew} + json_extract(j.value, '$[0]')),
               (SELECT e.id FROM events e WHERE e.timeline_id = ${timelineId} AND e.deleted_at IS NULL AND e.position = ${firstNew} + json_extract(j.value, '$[1]'))
        FROM json_each(${json}) j`),
    ),
    ...codex.statements.map(raw),
    // Each imported event's first version, by the importer.
    raw(sql`
      INSERT INTO event_versions (event_id, timeline_id, author_id, author_name, title, content, created_at)
      SELECT e.id, e.timeline_id, ${user.id}, ${authorOf(user).userName}, e.title, e.content, ${now}
      FROM events e WHERE e.timeline_id = ${timelineId} AND e.deleted_at IS NULL AND e.position >= ${firstNew}
      ORDER BY e.position`),
  ];
  await db.$client.batch(statements);
  const subject = count === 1 ? doc.events[0].title : `${count.toLocaleString("en-US")} events from a file`;
  if (count > 0 || created.length > 0) room(timelineId, { action: "added", by: authorOf(user), subject });
  return {
    timeline: toTimelineView(
      timeline,
      access === "none" ? "viewer" : access,
      access !== "owner" || hasShares,
      await ownerNameOf(db, timeline),
    ),
    added: { events: count, entities: created.length },
    ...(codex.skipped.length > 0 && { skipped: codex.skipped }),
  };
}
