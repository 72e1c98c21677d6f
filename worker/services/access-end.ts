import { eq, inArray, or, sql } from "drizzle-orm";
import type { AccessEnd } from "../../durable-objects/protocol";
import { timelineShares, timelines } from "../../db/schema";
import type { Deps } from "./deps";

/** How many of a user's timelines are told at once (a room not told finds out at its own re-check). */
const ROOMS_TOLD_MAX = 500;

export type EndedAccess = {
  userId: number;
  /** The timeline(s) where access ended; by default every timeline the user owns or has a share in (as D1 has them now). */
  timelineId?: number | number[];
  /** Only the sockets opened with these sessions (logout, password reset); by default all of the user's. */
  sessionIds?: string[];
  reason: AccessEnd["reason"];
  /** Who ended it, when someone did (the owner); the user themself otherwise. */
  by?: { userId: number; userName: string };
};

/**
 * The one path for "this access ended": every room of the affected timelines closes the user's sockets
 * (or those of the given sessions) and tells the timeline's open docs, which close theirs; from then on
 * nothing those connections send is applied or saved. Awaited, so the caller's response comes after the
 * sockets are ended; a room that cannot be reached never fails the caller (its re-check catches up).
 * Call it after the access is gone from D1 (a doc checks D1 when a writer connects) and, without
 * `timelineId`, before the user's share rows are deleted.
 */
export async function endAccess({ db, room }: Deps, ended: EndedAccess) {
  const { userId, sessionIds, reason } = ended;
  if (sessionIds && sessionIds.length === 0) return;
  const ids =
    ended.timelineId === undefined
      ? (
          await db
            .select({ id: timelines.id })
            .from(timelines)
            .where(
              or(
                eq(timelines.userId, userId),
                inArray(
                  timelines.id,
                  db.select({ id: timelineShares.timelineId }).from(timelineShares).where(eq(timelineShares.sharedWithUserId, userId)),
                ),
              ),
            )
            .orderBy(sql`${timelines.id} DESC`)
            .limit(ROOMS_TOLD_MAX)
        ).map((r) => r.id)
      : [ended.timelineId].flat();
  const end: AccessEnd = sessionIds ? { sessionIds, reason } : { userIds: [userId], reason };
  const by = ended.by ?? { userId, userName: "" };
  await Promise.all(ids.map((id) => room(id, { action: "access-ended", by, ended: end })));
}
