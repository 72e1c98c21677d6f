import { type SQL, and, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, eventVersions, events } from "../../db/schema";
import { countWords } from "../../db/domain/word-count";
import { nowIso } from "../lib/time";
import { authorOf } from "./deps";

/** How history names the author of a version whose account was deleted. */
export const DELETED_WRITER = "Deleted writer";

type Author = Pick<User, "id" | "name" | "email">;

export type RecordVersion = {
  /** The event whose row (as it is when the statements run) is recorded: an id or a subquery. */
  eventId: number | SQL;
  author: Author;
  /** The title/content to record instead of the row's (a write that runs after these statements). */
  title?: string;
  content?: string;
  /** A self-contained condition: nothing is recorded unless it holds (a conflict guard, "the text changed"). */
  when?: SQL;
  /**
   * Live co-writing: when the event's newest version is this author's and younger than
   * this, it is updated in place instead of a new one being added (its time stays when it began).
   */
  coalesceWithinMs?: number;
  now?: string;
};

/**
 * The statements that record a version of an event (author, time, title, content), to run in the
 * same D1 batch as the write they belong to. Without `coalesceWithinMs`, every call adds a version.
 */
export function versionStatements(
  db: Db,
  { eventId, author, title, content, when = sql`1`, coalesceWithinMs, now = nowIso() }: RecordVersion,
) {
  const authorName = authorOf(author).userName;
  // A live doc may save for an editor whose account was deleted meanwhile: the version then has no author
  // (the foreign key would refuse the id and fail the whole save) and reads 'Deleted writer'.
  const authorStill = sql`(SELECT u.id FROM users u WHERE u.id = ${author.id})`;
  const newTitle = sql<string>`coalesce(${title ?? null}, ${events.title})`;
  const newContent = sql<string>`coalesce(${content ?? null}, ${events.content})`;
  // Counted here when the text is known; otherwise the first history listing counts it.
  const words = content === undefined ? null : countWords(content);
  const insert = (extra: SQL = sql`1`) =>
    db.insert(eventVersions).select(
      db
        .select({
          id: sql<number>`NULL`.as("v_id"),
          eventId: events.id,
          timelineId: events.timelineId,
          authorId: sql<number | null>`${authorStill}`.as("v_author_id"),
          authorName: sql<string>`CASE WHEN ${authorStill} IS NULL THEN ${DELETED_WRITER} ELSE ${authorName} END`.as("v_author_name"),
          title: newTitle.as("v_title"),
          content: newContent.as("v_content"),
          name: sql<string | null>`NULL`.as("v_name"),
          wordCount: sql<number | null>`${words}`.as("v_word_count"),
          restoredFrom: sql<number | null>`NULL`.as("v_restored_from"),
          createdAt: sql<string>`${now}`.as("v_created_at"),
        })
        .from(events)
        .where(and(sql`${events.id} = ${eventId}`, when, extra)),
    );
  if (coalesceWithinMs === undefined || coalesceWithinMs <= 0) return [insert()] as const;

  const cutoff = new Date(Date.parse(now) - coalesceWithinMs).toISOString();
  const newest = sql`(SELECT v.id FROM event_versions v WHERE v.event_id = ${eventId} ORDER BY v.created_at DESC, v.id DESC LIMIT 1)`;
  const mergeable = sql`EXISTS (SELECT 1 FROM event_versions m WHERE m.id = ${newest} AND m.author_id = ${author.id} AND m.created_at >= ${cutoff})`;
  const fromRow = (column: "title" | "content", value: string | undefined) =>
    sql`(SELECT coalesce(${value ?? null}, e.${sql.raw(column)}) FROM events e WHERE e.id = ${eventId})`;
  const merge = db
    .update(eventVersions)
    .set({ title: fromRow("title", title), content: fromRow("content", content), authorName, wordCount: words })
    .where(and(sql`${eventVersions.id} = ${newest}`, mergeable, when));
  return [insert(sql`NOT ${mergeable}`), merge] as const;
}
