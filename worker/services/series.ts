import { type SQL, and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, entities, series, timelineShares, timelines } from "../../db/schema";
import { storedCalendar, storySort } from "../../db/domain/calendar";
import { type CreateSeries, type UpdateSeries, seriesLimits, seriesMessages } from "../../db/domain/validation-series";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { TIMELINE_NOT_FOUND, accessOf, callerShare } from "./access";
import { rawStatement } from "./transfer";
import { type Deps, authorOf } from "./deps";

// Series: books of one writer sharing one codex. The owner of the series owns every book; a reader of the series
// sees only the books they can read. See docs/features.md 'Series' for how a joining book's codex is merged.

export type SeriesBook = { id: number; title: string; position: number; wordCount: number };
export type SeriesView = { id: number; title: string; timelines: SeriesBook[] };

const wordCount =
  sql<number>`(SELECT coalesce(sum(e.word_count), 0) FROM events e WHERE e.timeline_id = "timelines"."id" AND e.deleted_at IS NULL)`.mapWith(
    Number,
  );

/** The series and the books of it `user` can read, in order; null when there is no such series. */
async function loadSeries(db: Db, user: Pick<User, "id">, seriesId: number) {
  const [head, rows] = await db.batch([
    db.select({ id: series.id, title: series.title, ownerId: series.ownerId }).from(series).where(eq(series.id, seriesId)),
    db
      .select({ timeline: timelines, shareLevel: timelineShares.accessLevel, wordCount })
      .from(timelines)
      .leftJoin(timelineShares, callerShare(user))
      .where(eq(timelines.seriesId, seriesId))
      .orderBy(asc(timelines.seriesPosition), asc(timelines.id)),
  ]);
  const found = head[0];
  if (!found) return null;
  const books = rows
    .filter((r) => accessOf(r.timeline, user, r.shareLevel) !== "none")
    .map((r) => ({ id: r.timeline.id, title: r.timeline.title, position: r.timeline.seriesPosition ?? 0, wordCount: r.wordCount }));
  return { ...found, books };
}

const toView = (s: { id: number; title: string; books: SeriesBook[] }): SeriesView => ({ id: s.id, title: s.title, timelines: s.books });

/** A series the caller can read at least one book of (the owner: always); others 404. */
export async function getSeries(db: Db, user: Pick<User, "id">, seriesId: number): Promise<SeriesView & { isOwner: boolean }> {
  const found = await loadSeries(db, user, seriesId);
  if (!found || (found.ownerId !== user.id && found.books.length === 0)) throw notFound(seriesMessages.notFound);
  return { ...toView(found), isOwner: found.ownerId === user.id };
}

/** The owner's series; a reader who is not the owner gets 403, anyone else 404. */
async function requireOwnSeries(db: Db, user: Pick<User, "id">, seriesId: number) {
  const found = await loadSeries(db, user, seriesId);
  if (!found || (found.ownerId !== user.id && found.books.length === 0)) throw notFound(seriesMessages.notFound);
  if (found.ownerId !== user.id) throw forbidden("Only the owner of this series can do that");
  return found;
}

/** The writer's own live timelines among `ids`; another writer's, a trashed or an unknown one is 404. */
async function requireOwnTimelines(db: Db, user: Pick<User, "id">, ids: number[]) {
  const rows = await db
    .select({ id: timelines.id, title: timelines.title, seriesId: timelines.seriesId })
    .from(timelines)
    .where(
      and(
        sql`${timelines.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        eq(timelines.userId, user.id),
        isNull(timelines.deletedAt),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound(TIMELINE_NOT_FOUND);
    return row;
  });
}

const key = (name: string) => name.trim().toLowerCase();
const merged = (a: unknown, b: unknown) => [...new Set([...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])].map(String))];

/**
 * Puts a timeline into a series at `position`. Its codex joins the series': an entry whose name (case ignored)
 * is already there merges into that one (its scenes' links, POVs and map node move to it; aliases are joined;
 * an empty description, birth or death is filled from it), the others become entries of the series. One batch.
 */
export async function joinSeries(db: Db, seriesId: number, timelineId: number, position: number) {
  const [own, shared] = await db.batch([
    db
      .select()
      .from(entities)
      .where(and(eq(entities.timelineId, timelineId), isNull(entities.seriesId))),
    db.select().from(entities).where(eq(entities.seriesId, seriesId)).orderBy(asc(entities.id)),
  ]);
  const byName = new Map<string, (typeof shared)[number]>();
  for (const e of shared) if (!byName.has(key(e.name))) byName.set(key(e.name), e);
  // Drizzle's D1 batch cannot take raw SQL with parameters: every statement goes to D1's own batch.
  const raw = (q: SQL) => rawStatement(db, q);
  const built = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = q.toSQL();
    return db.$client.prepare(text).bind(...params);
  };
  const now = nowIso();
  // Written only while the book is in no series (a concurrent join elsewhere wins, and nothing below runs).
  const joined = sql`EXISTS (SELECT 1 FROM timelines jt WHERE jt.id = ${timelineId} AND jt.series_id = ${seriesId})`;
  const statements = [
    built(
      db
        .update(timelines)
        .set({ seriesId, seriesPosition: position, updatedAt: now })
        .where(and(eq(timelines.id, timelineId), isNull(timelines.seriesId))),
    ),
  ];
  for (const e of own) {
    const into = byName.get(key(e.name));
    if (!into) continue;
    into.aliases = merged(into.aliases, e.name === into.name ? e.aliases : [...e.aliases, e.name]);
    statements.push(
      raw(
        sql`INSERT OR IGNORE INTO event_entities (event_id, entity_id) SELECT event_id, ${into.id} FROM event_entities WHERE entity_id = ${e.id} AND ${joined}`,
      ),
      raw(sql`UPDATE events SET pov_entity_id = ${into.id} WHERE pov_entity_id = ${e.id} AND ${joined}`),
      raw(sql`UPDATE map_nodes SET entity_id = ${into.id} WHERE entity_id = ${e.id}
        AND NOT EXISTS (SELECT 1 FROM map_nodes m WHERE m.timeline_id = map_nodes.timeline_id AND m.entity_id = ${into.id}) AND ${joined}`),
      built(
        db
          .update(entities)
          .set({
            aliases: into.aliases,
            ...(!into.description && e.description && { description: e.description }),
            ...(!into.born && e.born && { born: e.born, bornSort: e.bornSort }),
            ...(!into.died && e.died && { died: e.died, diedSort: e.diedSort }),
            updatedAt: now,
          })
          .where(and(eq(entities.id, into.id), joined)),
      ),
      built(db.delete(entities).where(and(eq(entities.id, e.id), isNull(entities.seriesId), joined))),
    );
    if (!into.description && e.description) into.description = e.description;
    if (!into.born && e.born) into.born = e.born;
    if (!into.died && e.died) into.died = e.died;
  }
  statements.push(
    built(
      db
        .update(entities)
        .set({ seriesId })
        .where(and(eq(entities.timelineId, timelineId), isNull(entities.seriesId), joined)),
    ),
  );
  await db.$client.batch(statements);
  const book = await db
    .select({ seriesId: timelines.seriesId, title: timelines.title })
    .from(timelines)
    .where(eq(timelines.id, timelineId))
    .get();
  if (book && book.seriesId !== seriesId) throw badRequest(seriesMessages.inAnotherSeries(book.title));
}

export async function createSeries(db: Db, user: Pick<User, "id">, input: CreateSeries): Promise<SeriesView> {
  const books = await requireOwnTimelines(db, user, input.timelineIds);
  const taken = books.find((b) => b.seriesId !== null);
  if (taken) throw badRequest(seriesMessages.inAnotherSeries(taken.title));
  const now = nowIso();
  const row = await db.insert(series).values({ ownerId: user.id, title: input.title, createdAt: now, updatedAt: now }).returning().get();
  for (const [i, book] of books.entries()) await joinSeries(db, row.id, book.id, i + 1);
  return toView((await loadSeries(db, user, row.id)) ?? { ...row, books: [] });
}

/** The writer's own series, newest first, each with its books. */
export async function listSeries(db: Db, user: Pick<User, "id">): Promise<SeriesView[]> {
  const rows = await db
    .select({ id: series.id })
    .from(series)
    .where(eq(series.ownerId, user.id))
    .orderBy(desc(series.createdAt), desc(series.id));
  const all = await Promise.all(rows.map((r) => loadSeries(db, user, r.id)));
  return all.filter((s) => s !== null).map(toView);
}

/** A new title and/or the books' order (owner only). */
export async function updateSeries(db: Db, user: Pick<User, "id">, seriesId: number, input: UpdateSeries): Promise<SeriesView> {
  const found = await requireOwnSeries(db, user, seriesId);
  const now = nowIso();
  if (input.timelineIds) {
    const current = found.books.map((b) => b.id).sort((a, b) => a - b);
    const given = [...input.timelineIds].sort((a, b) => a - b);
    if (current.length !== given.length || current.some((id, i) => id !== given[i])) throw badRequest(seriesMessages.order);
    await db.batch([
      db.update(series).set({ updatedAt: now }).where(eq(series.id, seriesId)),
      ...input.timelineIds.map((id, i) =>
        db
          .update(timelines)
          .set({ seriesPosition: i + 1 })
          .where(and(eq(timelines.id, id), eq(timelines.seriesId, seriesId))),
      ),
    ]);
  }
  if (input.title !== undefined) await db.update(series).set({ title: input.title, updatedAt: now }).where(eq(series.id, seriesId));
  return toView((await loadSeries(db, user, seriesId)) ?? { ...found, books: [] });
}

/** Adds one of the owner's timelines as the last book; its codex merges into the series'. */
export async function addBook(db: Db, user: Pick<User, "id">, seriesId: number, timelineId: number): Promise<SeriesView> {
  const found = await requireOwnSeries(db, user, seriesId);
  const [book] = await requireOwnTimelines(db, user, [timelineId]);
  if (book.seriesId === seriesId) throw badRequest(seriesMessages.alreadyHere(book.title));
  if (book.seriesId !== null) throw badRequest(seriesMessages.inAnotherSeries(book.title));
  if (found.books.length >= seriesLimits.books) throw badRequest(seriesMessages.tooManyBooks);
  const last = Math.max(0, ...found.books.map((b) => b.position));
  await joinSeries(db, seriesId, timelineId, last + 1);
  return toView((await loadSeries(db, user, seriesId)) ?? { ...found, books: [] });
}

/** For an import into a series: 404 unless the writer owns it; the position the new book takes. */
export async function requireSeriesForImport(db: Db, user: Pick<User, "id">, seriesId: number) {
  const found = await loadSeries(db, user, seriesId);
  if (!found || found.ownerId !== user.id) throw notFound(seriesMessages.notFound);
  if (found.books.length >= seriesLimits.books) throw badRequest(seriesMessages.tooManyBooks);
  return Math.max(0, ...found.books.map((b) => b.position)) + 1;
}

import type { SeriesMention } from "./timelines";

export type { SeriesMention };

/** The series a book belongs to, for its screen's header ("Book 2 of …"); null when none. Access is the caller's. */
export async function seriesOfBook(db: Db, timelineId: number): Promise<SeriesMention | null> {
  const row = await db
    .select({ id: series.id, title: series.title, position: timelines.seriesPosition })
    .from(timelines)
    .innerJoin(series, eq(series.id, timelines.seriesId))
    .where(eq(timelines.id, timelineId))
    .get();
  return row ? { ...row, position: row.position ?? 1 } : null;
}

/**
 * Takes a book out of its series (owner only). The book keeps its own copy of every entry it uses or that was
 * made in it: its scenes' links, POVs and map nodes move to the copies, so nothing it shows changes. The series
 * keeps its entries; one made in the leaving book moves to the first book left. The last book to leave takes the
 * codex with it. One batch; the books left are numbered again from 1.
 */
export async function removeBook({ db, room }: Deps, user: User, seriesId: number, timelineId: number): Promise<SeriesView> {
  const found = await requireOwnSeries(db, user, seriesId);
  const book = found.books.find((b) => b.id === timelineId);
  if (!book) throw badRequest(seriesMessages.notInSeries);
  const left = found.books.filter((b) => b.id !== timelineId);
  const raw = (q: SQL) => rawStatement(db, q);
  const inSeries = sql`EXISTS (SELECT 1 FROM timelines bt WHERE bt.id = ${timelineId} AND bt.series_id = ${seriesId})`;
  const statements = [];
  if (left.length === 0) {
    statements.push(
      raw(sql`UPDATE entities SET series_id = NULL, timeline_id = ${timelineId} WHERE series_id = ${seriesId} AND ${inSeries}`),
    );
  } else {
    const bookEvents = sql`(SELECT id FROM events WHERE timeline_id = ${timelineId})`;
    const [used, calendarRow] = await db.batch([
      db
        .select()
        .from(entities)
        .where(
          and(
            eq(entities.seriesId, seriesId),
            sql`(${entities.timelineId} = ${timelineId}
              OR ${entities.id} IN (SELECT entity_id FROM event_entities WHERE event_id IN ${bookEvents})
              OR ${entities.id} IN (SELECT pov_entity_id FROM events WHERE timeline_id = ${timelineId})
              OR ${entities.id} IN (SELECT entity_id FROM map_nodes WHERE timeline_id = ${timelineId}))`,
          ),
        )
        .orderBy(asc(entities.id)),
      db.select({ calendar: timelines.calendar }).from(timelines).where(eq(timelines.id, timelineId)),
    ]);
    const calendar = storedCalendar(calendarRow[0]?.calendar);
    const now = nowIso();
    // Each copy is the newest row of entities when the statements after it run (one transaction, ids only grow).
    const copy = sql`(SELECT max(id) FROM entities)`;
    for (const e of used) {
      statements.push(
        raw(sql`INSERT INTO entities (timeline_id, series_id, kind, name, aliases, description, color, born, died, born_sort, died_sort, created_at, updated_at)
          SELECT ${timelineId}, NULL, kind, name, aliases, description, color, born, died, ${storySort(calendar, e.born)}, ${storySort(calendar, e.died)}, created_at, ${now}
          FROM entities WHERE id = ${e.id} AND ${inSeries}`),
        raw(sql`INSERT OR IGNORE INTO event_entities (event_id, entity_id)
          SELECT event_id, ${copy} FROM event_entities WHERE entity_id = ${e.id} AND event_id IN ${bookEvents} AND ${inSeries}`),
        raw(sql`DELETE FROM event_entities WHERE entity_id = ${e.id} AND event_id IN ${bookEvents} AND ${inSeries}`),
        raw(sql`UPDATE events SET pov_entity_id = ${copy} WHERE pov_entity_id = ${e.id} AND timeline_id = ${timelineId} AND ${inSeries}`),
        raw(sql`UPDATE map_nodes SET entity_id = ${copy} WHERE entity_id = ${e.id} AND timeline_id = ${timelineId} AND ${inSeries}`),
      );
    }
    statements.push(
      raw(
        sql`UPDATE entities SET timeline_id = ${left[0].id} WHERE series_id = ${seriesId} AND timeline_id = ${timelineId} AND ${inSeries}`,
      ),
    );
  }
  statements.push(
    raw(sql`UPDATE timelines SET series_id = NULL, series_position = NULL WHERE id = ${timelineId} AND series_id = ${seriesId}`),
    raw(sql`UPDATE timelines SET series_position = (SELECT count(*) FROM timelines o WHERE o.series_id = ${seriesId}
      AND (coalesce(o.series_position, 0) < coalesce(timelines.series_position, 0)
        OR (coalesce(o.series_position, 0) = coalesce(timelines.series_position, 0) AND o.id <= timelines.id)))
      WHERE series_id = ${seriesId}`),
    raw(sql`UPDATE series SET updated_at = ${nowIso()} WHERE id = ${seriesId}`),
  );
  await db.$client.batch(statements);
  for (const id of [timelineId, ...left.map((b) => b.id)]) room(id, { action: "timeline-updated", by: authorOf(user) });
  return toView((await loadSeries(db, user, seriesId)) ?? { ...found, books: [] });
}
