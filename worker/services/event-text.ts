import { type SQL, and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, events } from "../../db/schema";
import { countWords } from "../../db/domain/word-count";
import type { StoredField } from "../../db/domain/validation";
import { nowIso } from "../lib/time";
import { type EventView, eventColumns, toEventView } from "./event-list";
import { versionStatements } from "./version-record";

export type TextWrite = {
  eventId: number;
  author: Pick<User, "id" | "name" | "email">;
  /** The new text (undefined: unchanged). A changed title or content is a version, recorded in the same batch. */
  title?: string;
  content?: string;
  /** Written only while the row is still at this version; otherwise nothing is written and the result is null. */
  baseVersion?: number;
  /** Live co-writing: fold into the author's newest version when it is younger than this. */
  coalesceWithinMs?: number;
  /** Other columns of the same UPDATE (story fields, the POV). */
  set?: Partial<
    Pick<typeof events.$inferInsert, "storyStart" | "storyEnd" | "storyStartText" | "storyEndText" | "storySort" | StoredField>
  > & { povEntityId?: SQL };
  /** Statements of the same batch, before the update, that must do nothing when the guard fails (codex links). */
  before?: (guard: SQL) => readonly BatchItem[];
  /** Statements of the same batch after the update (a restore marks the version it just recorded). */
  after?: readonly BatchItem[];
  /** A deliberate overwrite (a restore): the version goes up and is recorded even when the text is unchanged. */
  always?: boolean;
  locale?: string;
};

type BatchItem = Parameters<Db["batch"]>[0][number];

/**
 * The one writer of an event's title and content: the UPDATE (version + 1 when the text changed) and its version
 * record in one batch, guarded by the writer's base version. The API's PATCH and the shared doc both write here.
 * Returns the row as written, or null when the guard refused it (or the event is gone).
 */
export async function persistEventText(
  db: Db,
  { eventId, author, title, content, baseVersion, coalesceWithinMs, set = {}, before, after = [], always = false, locale }: TextWrite,
): Promise<EventView | null> {
  const guard = baseVersion !== undefined ? sql`(SELECT version FROM events WHERE id = ${eventId}) = ${baseVersion}` : sql`1`;
  const textChanges = always
    ? sql`1`
    : sql`(title IS NOT coalesce(${title ?? null}, title) OR content IS NOT coalesce(${content ?? null}, content))`;
  const update = db
    .update(events)
    .set({
      ...(title !== undefined && { title }),
      ...(content !== undefined && { content, wordCount: countWords(content) }),
      version: sql`${events.version} + CASE WHEN ${textChanges} THEN 1 ELSE 0 END`,
      ...set,
      updatedAt: nowIso(),
    })
    .where(and(eq(events.id, eventId), isNull(events.deletedAt), guard))
    .returning(eventColumns);
  // Recorded before the update in the same transaction (so the guard still sees the old version number), with
  // the text as it will be.
  const edited = title !== undefined || content !== undefined;
  const changes = sql`EXISTS (SELECT 1 FROM events WHERE id = ${eventId} AND ${textChanges})`;
  const record = edited ? versionStatements(db, { eventId, author, title, content, when: and(guard, changes), coalesceWithinMs }) : [];
  const others = before?.(guard) ?? [];
  const head = [...record, ...others];
  const rows =
    head.length + after.length > 0
      ? (await db.batch([...head, update, ...after] as unknown as [typeof update]))[head.length]
      : await update;
  const row = (rows as Array<Parameters<typeof toEventView>[0]>)[0];
  return row ? toEventView(row, locale) : null;
}
