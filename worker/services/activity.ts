import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, sceneActivity } from "../../db/schema";
import { badRequest } from "../lib/errors";
import { nowIso } from "../lib/time";
import { requireTimelineAccess } from "./access";
import { authorOf } from "./deps";
import { DELETED_WRITER } from "./version-record";

// What changed in a timeline, newest first: scenes added and edited (their versions: a scene's first version is
// its addition), moved, sent to Trash and restored (`scene_activity`, written with those changes), and comments.

export type ActivityType = "scene-added" | "scene-edited" | "scene-moved" | "scene-restored" | "scene-deleted" | "comment";

export type ActivityItem = {
  type: ActivityType;
  userId: number | null;
  userName: string;
  eventId: number;
  eventTitle: string;
  at: string;
  /** Pass it as `before` for the next older page. */
  cursor: string;
};

export const activityMessages = {
  userId: "Writer must be a user id",
  limit: "Limit must be a whole number from 1 to 100",
  before: "Before must be a cursor from this list",
};

export type ActivityQuery = { userId?: number; limit: number; before?: { at: string; key: string } };

/** The statement that records a move, a trip to Trash or a restore, to run in the batch of the change itself. */
export function activityStatement(
  db: Db,
  {
    timelineId,
    eventId,
    user,
    kind,
    now = nowIso(),
  }: {
    timelineId: number;
    eventId: number;
    user: Pick<User, "id" | "name" | "email">;
    kind: "moved" | "deleted" | "restored";
    now?: string;
  },
) {
  return db.insert(sceneActivity).values({ timelineId, eventId, userId: user.id, userName: authorOf(user).userName, kind, createdAt: now });
}

/**
 * A grid move's 'moved', written in its batch after the new order: only when the scene's chapter or place
 * changed (a move to another plotline of the same cell is not a move).
 */
export function movedIfMovedStatement(
  eventId: number,
  timelineId: number,
  user: Pick<User, "id" | "name" | "email">,
  from: { chapterId: number | null; position: number },
) {
  return sql`INSERT INTO scene_activity (timeline_id, event_id, user_id, user_name, kind, created_at)
    SELECT ${timelineId}, ${eventId}, ${user.id}, ${authorOf(user).userName}, 'moved', ${nowIso()}
    WHERE EXISTS (SELECT 1 FROM events WHERE id = ${eventId} AND (chapter_id IS NOT ${from.chapterId} OR position <> ${from.position}))`;
}

const CURSOR = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)~([vac]\d{1,12})$/;

/** `?userId=&limit=&before=` as the list takes them; anything else is a 400 in the product's words. */
export function parseActivityQuery(query: Record<string, string | undefined>): ActivityQuery {
  const { userId, limit, before } = query;
  if (userId !== undefined && !/^\d{1,12}$/.test(userId)) throw badRequest(activityMessages.userId);
  if (limit !== undefined && (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 100))
    throw badRequest(activityMessages.limit);
  let cursor: ActivityQuery["before"];
  if (before !== undefined) {
    const match = CURSOR.exec(before);
    if (!match) throw badRequest(activityMessages.before);
    cursor = { at: match[1], key: match[2] };
  }
  return { userId: userId === undefined ? undefined : Number(userId), limit: limit === undefined ? 50 : Number(limit), before: cursor };
}

type Row = { type: ActivityType; userId: number | null; userName: string; eventId: number; eventTitle: string; at: string; key: string };

/** GET /api/timelines/{id}/activity: read access. Ties in time are ordered by a per-source key, so pages never overlap. */
export async function listActivity(db: Db, user: User, timelineId: number, query: ActivityQuery, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const writer = query.userId ?? null;
  const beforeAt = query.before?.at ?? null;
  const beforeKey = query.before?.key ?? "";
  // A key's number is zero-padded so keys of one source sort as their ids do.
  const key = (prefix: string, id: string) => sql.raw(`'${prefix}' || substr('000000000000' || ${id}, -12)`);
  const rows = await db.all<Row>(sql`
    SELECT * FROM (
      SELECT CASE WHEN v.id = (SELECT min(f.id) FROM event_versions f WHERE f.event_id = v.event_id)
               THEN 'scene-added' ELSE 'scene-edited' END AS type,
             v.author_id AS userId, v.author_name AS userName, v.event_id AS eventId, e.title AS eventTitle,
             v.created_at AS at, ${key("v", "v.id")} AS key
        FROM event_versions v JOIN events e ON e.id = v.event_id
       WHERE v.timeline_id = ${timelineId}
      UNION ALL
      SELECT 'scene-' || a.kind, a.user_id, a.user_name, a.event_id, e.title, a.created_at, ${key("a", "a.id")}
        FROM scene_activity a JOIN events e ON e.id = a.event_id
       WHERE a.timeline_id = ${timelineId}
      UNION ALL
      SELECT 'comment', c.author_id, c.author_name, c.event_id, e.title, c.created_at, ${key("c", "c.id")}
        FROM comments c JOIN events e ON e.id = c.event_id
       WHERE e.timeline_id = ${timelineId}
    )
    WHERE (${writer} IS NULL OR userId = ${writer})
      AND (${beforeAt} IS NULL OR at < ${beforeAt} OR (at = ${beforeAt} AND key < ${beforeKey}))
    ORDER BY at DESC, key DESC
    LIMIT ${query.limit}`);
  return rows.map(
    (r): ActivityItem => ({
      type: r.type,
      userId: r.userId,
      userName: r.userId === null ? DELETED_WRITER : r.userName,
      eventId: r.eventId,
      eventTitle: r.eventTitle,
      at: r.at,
      cursor: `${r.at}~${r.key}`,
    }),
  );
}
