import { and, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { FREE_VERSION_DAYS, VERSION_PREVIEW_CHARS } from "../../db/domain/rules";
import { stripMarks } from "../../db/domain/plain-text";
import { countWords } from "../../db/domain/word-count";
import { type User, eventVersions, events, timelineShares, timelines, users } from "../../db/schema";
import { notFound } from "../lib/errors";
import { DAY } from "../lib/time";
import { type Access, requireRowAccess, accessColumns, callerShare } from "./access";
import { type Deps, authorOf, docAuthor } from "./deps";
import { persistEventText } from "./event-text";
import { EVENT_NOT_FOUND, type EventView, eventColumns, toEventView } from "./events";
import { effectiveTier } from "./plans";
import { DELETED_WRITER } from "./version-record";

export { DELETED_WRITER, type RecordVersion, versionStatements } from "./version-record";

export const VERSION_NOT_FOUND = "Version not found";

const authorNameOf = (v: { authorId: number | null; authorName: string }) => (v.authorId === null ? DELETED_WRITER : v.authorName);

export type VersionSummary = {
  id: number;
  createdAt: string;
  authorId: number | null;
  authorName: string;
  title: string;
  contentPreview: string;
  /** The writer's name for it, or null. */
  name: string | null;
  wordCount: number;
  /** Words added (negative: removed) since the next older version listed; null for the oldest listed. */
  wordDelta: number | null;
  /** The title differs from the next older version listed. */
  titleChanged: boolean;
  /** The version a restore brought back, or null. */
  restoredFrom: number | null;
};

export type VersionView = {
  id: number;
  eventId: number;
  createdAt: string;
  authorId: number | null;
  authorName: string;
  title: string;
  content: string;
  name: string | null;
};

/** The oldest version a timeline's history shows: its owner's plan decides. */
export function visibleSince(owner: Pick<User, "subscriptionTier" | "subscriptionEndDate">, now = Date.now()): string | null {
  return effectiveTier(owner) === "premium" ? null : new Date(now - FREE_VERSION_DAYS * DAY).toISOString();
}

/** Whitespace collapsed, cut to VERSION_PREVIEW_CHARS (an ellipsis when longer). */
/** A version's first words as a reader sees them: no Markdown marks, whitespace collapsed. */
export function previewOf(content: string) {
  const text = stripMarks(content).replace(/\s+/g, " ").trim();
  return text.length > VERSION_PREVIEW_CHARS ? `${text.slice(0, VERSION_PREVIEW_CHARS - 1).trimEnd()}…` : text;
}

const ownerTier = { subscriptionTier: users.subscriptionTier, subscriptionEndDate: users.subscriptionEndDate };

/** GET /api/events/{id}/versions: newest first, within the owner's plan's window. */
export async function listVersions(db: Db, user: User, eventId: number, shareCode?: string | null): Promise<VersionSummary[]> {
  const row = await db
    .select({
      ...accessColumns(user),
      owner: ownerTier,
    })
    .from(events)
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .innerJoin(users, eq(users.id, timelines.userId))
    .leftJoin(timelineShares, callerShare(user, events.timelineId))
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
    .get();
  const { row: found } = requireRowAccess(row, user, "viewer", shareCode, EVENT_NOT_FOUND);
  const since = visibleSince(found.owner);
  const rows = await db
    .select({
      id: eventVersions.id,
      createdAt: eventVersions.createdAt,
      authorId: eventVersions.authorId,
      authorName: eventVersions.authorName,
      title: eventVersions.title,
      name: eventVersions.name,
      restoredFrom: eventVersions.restoredFrom,
      // Enough for the preview without reading whole texts.
      head: sql<string>`substr(${eventVersions.content}, 1, ${VERSION_PREVIEW_CHARS * 4})`,
      counted: eventVersions.wordCount,
      // The whole text only of versions not counted yet (counted once, then kept).
      uncounted: sql<string | null>`CASE WHEN ${eventVersions.wordCount} IS NULL THEN ${eventVersions.content} END`,
    })
    .from(eventVersions)
    .where(and(eq(eventVersions.eventId, eventId), since ? gte(eventVersions.createdAt, since) : undefined))
    .orderBy(desc(eventVersions.createdAt), desc(eventVersions.id));
  const counts = rows.map((v) => v.counted ?? countWords(v.uncounted ?? ""));
  const fills = rows.flatMap((v, i) =>
    v.counted === null ? [db.update(eventVersions).set({ wordCount: counts[i] }).where(eq(eventVersions.id, v.id))] : [],
  );
  if (fills.length > 0) await db.batch(fills as [(typeof fills)[number], ...typeof fills]);
  return rows.map(({ head, counted: _, uncounted: __, ...v }, i) => ({
    ...v,
    authorName: authorNameOf(v),
    contentPreview: previewOf(head ?? ""),
    wordCount: counts[i],
    wordDelta: i + 1 < rows.length ? counts[i] - counts[i + 1] : null,
    titleChanged: i + 1 < rows.length && v.title !== rows[i + 1].title,
  }));
}

/** A version with the caller's access checked; a free owner's versions past the window are not found. */
async function loadVersion(db: Db, user: User, versionId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  const row = await db
    .select({
      version: eventVersions,
      ...accessColumns(user),
      owner: ownerTier,
    })
    .from(eventVersions)
    .innerJoin(events, eq(events.id, eventVersions.eventId))
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .innerJoin(users, eq(users.id, timelines.userId))
    .leftJoin(timelineShares, callerShare(user, events.timelineId))
    .where(and(eq(eventVersions.id, versionId), isNull(events.deletedAt)))
    .get();
  const { row: found } = requireRowAccess(row, user, need, shareCode, VERSION_NOT_FOUND);
  const since = visibleSince(found.owner);
  if (since && found.version.createdAt < since) throw notFound(VERSION_NOT_FOUND);
  return found.version;
}

/** GET /api/event-versions/{id}. */
export async function getVersion(db: Db, user: User, versionId: number, shareCode?: string | null): Promise<VersionView> {
  const v = await loadVersion(db, user, versionId, "viewer", shareCode);
  return {
    id: v.id,
    eventId: v.eventId,
    createdAt: v.createdAt,
    authorId: v.authorId,
    authorName: authorNameOf(v),
    title: v.title,
    content: v.content,
    name: v.name,
  };
}

/** PATCH /api/event-versions/{id}: names a version (editors); an empty name clears it. */
export async function nameVersion(db: Db, user: User, versionId: number, name: string | null, shareCode?: string | null) {
  const version = await loadVersion(db, user, versionId, "collaborator", shareCode);
  const [row] = await db
    .update(eventVersions)
    .set({ name: name || null })
    .where(eq(eventVersions.id, version.id))
    .returning({ id: eventVersions.id, name: eventVersions.name });
  if (!row) throw notFound(VERSION_NOT_FOUND);
  return row;
}

/**
 * POST /api/event-versions/{id}/restore: the version's title and content become the event's (a
 * deliberate overwrite: no baseVersion check), the event's version goes up, the restore is itself
 * recorded as a version (by the restorer), all in one batch; the room is told once.
 */
export async function restoreVersion(
  { db, room, docs, locale }: Deps,
  user: User,
  versionId: number,
  shareCode?: string | null,
): Promise<EventView> {
  const version = await loadVersion(db, user, versionId, "collaborator", shareCode);
  // Writers have the event open: the restore is merged into their doc, which records it.
  const live = docs
    ? await docs(version.eventId, { title: version.title, content: version.content, author: docAuthor(user) })
    : { live: false };
  if (live.live) {
    const row = await db.select(eventColumns).from(events).where(eq(events.id, version.eventId)).get();
    if (!row) throw notFound(VERSION_NOT_FOUND);
    return toEventView(row, locale);
  }
  // The version just recorded (the newest of the event) says which one it brought back.
  const restored = db
    .update(eventVersions)
    .set({ restoredFrom: version.id })
    .where(sql`${eventVersions.id} = (SELECT max(v.id) FROM event_versions v WHERE v.event_id = ${version.eventId})`);
  const event = await persistEventText(db, {
    eventId: version.eventId,
    author: user,
    title: version.title,
    content: version.content,
    always: true,
    after: [restored],
    locale,
  });
  if (!event) throw notFound(VERSION_NOT_FOUND);
  room(event.timelineId, { action: "edited", by: authorOf(user), subject: event.title });
  return event;
}

/**
 * For the hourly purge: free owners' versions older than the window (a downgrade hides, then purges).
 * Premium owners' history stays.
 */
export function purgeOldVersions(db: Db, now = Date.now()) {
  const cutoff = new Date(now - FREE_VERSION_DAYS * DAY).toISOString();
  const nowText = new Date(now).toISOString();
  const premiumOwner = sql`EXISTS (SELECT 1 FROM timelines t JOIN users u ON u.id = t.user_id
    WHERE t.id = ${eventVersions.timelineId} AND u.subscription_tier = 'premium'
      AND (u.subscription_end_date IS NULL OR u.subscription_end_date > ${nowText}))`;
  return db
    .delete(eventVersions)
    .where(and(sql`${eventVersions.createdAt} < ${cutoff}`, sql`NOT ${premiumOwner}`))
    .returning({ id: eventVersions.id });
}
