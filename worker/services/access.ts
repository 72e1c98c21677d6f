import { type SQL, and, eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { type Timeline, type User, type events, shareLinkRemovals, timelineShares, timelines } from "../../db/schema";
import { forbidden, notFound } from "../lib/errors";

export type Access = "owner" | "collaborator" | "viewer" | "none";

export const TIMELINE_NOT_FOUND = "Timeline not found";

const rank: Record<Access, number> = { none: 0, viewer: 1, collaborator: 2, owner: 3 };
const best = (a: Access, b: Access) => (rank[a] >= rank[b] ? a : b);

/** Who a query asks for: a writer's id, or SQL that yields it (the writer of a session, in a batch). */
type UserRef = { id: number | SQL<number> };

/** The row `loadTimelineAccess` reads (one statement): the timeline, the writer's share, and what decides access. */
export function timelineAccessRow(db: Db, user: UserRef, timelineId: number) {
  return db
    .select({
      ...accessColumns(user),
      userId: sql<number>`${user.id}`.mapWith(Number),
      hasShares: sql<number>`EXISTS (SELECT 1 FROM timeline_shares s2 WHERE s2.timeline_id = ${timelines.id})`,
    })
    .from(timelines)
    .leftJoin(timelineShares, callerShare(user))
    .where(eq(timelines.id, timelineId))
    .limit(1);
}
export type TimelineAccessRow = Awaited<ReturnType<typeof timelineAccessRow>>[number];

/** What a timeline's access row grants `user`, with a share code the client presents. */
export function accessFromRow(row: TimelineAccessRow, user: Pick<User, "id">, shareCode?: string | null) {
  return {
    timeline: row.timeline,
    access: accessOf(row.timeline, user, row.shareLevel, row.linkRemoved ? null : shareCode),
    hasShares: Boolean(row.hasShares),
  };
}

/**
 * access from ownership, a timeline_shares row, or a share code the client presents
 * (granting the link's role, unless the owner removed this writer while this code was the link). One query.
 */
export async function loadTimelineAccess(
  db: Db,
  user: Pick<User, "id">,
  timelineId: number,
  shareCode?: string | null,
): Promise<{ timeline: Timeline; access: Access; hasShares: boolean } | null> {
  const row = (await timelineAccessRow(db, user, timelineId))[0];
  return row ? accessFromRow(row, user, shareCode) : null;
}

/**
 * The caller's own share of a timeline: the condition to left-join `timelineShares` on, for a select joined to
 * `timelines` whose timeline id is `timelineId` (the row's own column, so the join can use its index).
 */
export const callerShare = (user: UserRef, timelineId: SQLiteColumn | SQL = timelines.id) =>
  and(eq(timelineShares.timelineId, timelineId), eq(timelineShares.sharedWithUserId, user.id));

/**
 * What a select joined to `timelines` and left-joined to the caller's share (`callerShare`) reads to decide
 * access: spread into its columns, then pass the row to `requireRowAccess`.
 */
export const accessColumns = (user: UserRef) => ({
  timeline: timelines,
  shareLevel: timelineShares.accessLevel,
  linkRemoved: linkRemovedFor(user),
});

/**
 * For a select joined to `timelines`: 1 when the owner removed this writer while the timeline's current
 * share code was its link, so that code grants them nothing (pass `null` as the code to `accessOf`).
 */
export const linkRemovedFor = (user: UserRef) =>
  sql<number>`EXISTS (SELECT 1 FROM ${shareLinkRemovals} r WHERE r.timeline_id = ${timelines.id}
    AND r.user_id = ${user.id} AND r.share_code = ${timelines.shareCode})`;

export function accessOf(
  timeline: Timeline,
  user: Pick<User, "id">,
  shareLevel: "viewer" | "collaborator" | null,
  shareCode?: string | null,
): Access {
  // A timeline in Trash is not found for anyone until it is restored.
  if (timeline.deletedAt) return "none";
  if (timeline.userId === user.id) return "owner";
  let access: Access = shareLevel ?? "none";
  if (shareCode && timeline.shareCode && shareCode === timeline.shareCode) {
    access = best(access, timeline.shareRole);
  }
  return access;
}

/** Strangers learn nothing (404); known-but-not-allowed is 403. */
export async function requireTimelineAccess(
  db: Db,
  user: Pick<User, "id">,
  timelineId: number,
  need: Exclude<Access, "none">,
  shareCode?: string | null,
  /** The timeline's access row when the request already read it (with its session). */
  row?: TimelineAccessRow | null,
) {
  const found = row ? accessFromRow(row, user, shareCode) : await loadTimelineAccess(db, user, timelineId, shareCode);
  if (!found || found.access === "none") throw notFound(TIMELINE_NOT_FOUND);
  if (!hasAccess(found.access, need)) throw forbidden(deniedMessage(need));
  return found;
}

/** What a select with `accessColumns` carries to decide access. */
export type AccessRow = { timeline: Timeline; shareLevel: "viewer" | "collaborator" | null; linkRemoved: number };

/**
 * The caller's access to a row loaded with its timeline (one join), or the refusal: a stranger (or a missing
 * row) gets 404 with `missing` so they cannot learn it exists, a reader who needs more gets 403.
 */
export function requireRowAccess<T extends AccessRow>(
  row: T | undefined,
  user: Pick<User, "id">,
  need: Exclude<Access, "none">,
  shareCode: string | null | undefined,
  missing: string,
): { row: T; access: Exclude<Access, "none"> } {
  const access = row ? accessOf(row.timeline, user, row.shareLevel, row.linkRemoved ? null : shareCode) : "none";
  if (!row || access === "none") throw notFound(missing);
  if (!hasAccess(access, need)) throw forbidden(deniedMessage(need));
  return { row, access };
}

export const hasAccess = (access: Access, need: Access) => rank[access] >= rank[need];

export function deniedMessage(need: Access) {
  if (need === "owner") return "Only the owner of this timeline can do that";
  return "You have view-only access to this timeline";
}

export const canEdit = (access: Access) => access === "owner" || access === "collaborator";

/** A table whose rows belong to a timeline (events, chapters, plotlines, codex entries). */
type TimelineOwned = SQLiteTable & { id: SQLiteColumn; timelineId: SQLiteColumn };
type Selected<F> = { [K in keyof F]: F[K] extends SQL<infer V> ? V : never };

/**
 * The one access loader for a row of a timeline's table: the row (its table's columns, plus `columns` computed in
 * the same SELECT), its timeline and the caller's share, in one query. A row reached through several timelines
 * (`on`: a series' codex entry, through each of its books) takes the best access any of them gives; `rows` are all
 * of them. A stranger, or a missing row, gets 404 with `missing` (they cannot learn it exists); a reader who
 * needs more gets 403.
 */
export async function loadWithAccess<T extends TimelineOwned, F extends Record<string, SQL> = Record<never, SQL>>(
  db: Db,
  user: Pick<User, "id">,
  from: { table: T; id: number; missing: string; columns?: F; where?: SQL; on?: SQL },
  need: Exclude<Access, "none">,
  shareCode?: string | null,
) {
  type Row = AccessRow & { row: T["$inferSelect"] } & Selected<F>;
  const { table, id, missing, columns, where, on } = from;
  // Typed as one such table: Drizzle cannot infer a select from a generic one (the SQL is the same).
  const owned = table as unknown as typeof events;
  const rows = (await db
    .select({ row: owned, ...columns, ...accessColumns(user) })
    .from(owned)
    .innerJoin(timelines, on ?? eq(timelines.id, table.timelineId))
    .leftJoin(timelineShares, callerShare(user, on ? timelines.id : table.timelineId))
    .where(and(eq(table.id, id), where))) as unknown as Row[];
  const accessIn = (r: Row) => accessOf(r.timeline, user, r.shareLevel, r.linkRemoved ? null : shareCode);
  const best = rows.reduce<Row | undefined>((b, r) => (!b || !hasAccess(accessIn(b), accessIn(r)) ? r : b), undefined);
  return { ...requireRowAccess(best, user, need, shareCode, missing), rows };
}
