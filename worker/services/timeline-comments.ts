import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, comments, events } from "../../db/schema";
import { requireTimelineAccess } from "./access";
import { type CommentView, toCommentView } from "./comments";

// A timeline's comments across its scenes: the review panel's list and the cards' open-thread counts.
// Scenes in Trash keep their comments but show none of them.

export type TimelineCommentView = CommentView & { eventTitle: string };

export type TimelineCommentsFilter = {
  /** A thread's state: open or resolved (absent: both). */
  status?: "open" | "resolved";
  /** Threads this writer started or replied to. */
  author?: number;
};

const liveSceneOf = (timelineId: number) => and(eq(events.timelineId, timelineId), isNull(events.deletedAt));

/**
 * GET /api/timelines/{id}/comments: whole threads (first comment, then its replies oldest first), the newest
 * thread first. Read access.
 */
export async function listTimelineComments(
  db: Db,
  user: User,
  timelineId: number,
  filter: TimelineCommentsFilter,
  shareCode?: string | null,
): Promise<TimelineCommentView[]> {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const rows = await db
    .select({ comment: comments, eventTitle: events.title })
    .from(comments)
    .innerJoin(events, eq(events.id, comments.eventId))
    .where(liveSceneOf(timelineId))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  const roots = new Map<number, { root: TimelineCommentView; items: TimelineCommentView[]; authors: Set<number | null> }>();
  for (const { comment, eventTitle } of rows) {
    const view = { ...toCommentView(comment), eventTitle };
    const rootId = comment.threadId ?? comment.id;
    const thread = roots.get(rootId);
    if (!thread) {
      if (comment.threadId !== null) continue; // A reply whose first comment is gone with it.
      roots.set(rootId, { root: view, items: [view], authors: new Set([comment.authorId]) });
    } else {
      thread.items.push(view);
      thread.authors.add(comment.authorId);
    }
  }
  const threads = [...roots.values()]
    .filter(({ root }) => filter.status === undefined || root.resolved === (filter.status === "resolved"))
    .filter(({ authors }) => filter.author === undefined || authors.has(filter.author))
    .reverse();
  return threads.flatMap((t) => t.items);
}

/** GET /api/timelines/{id}/comments?counts=1: open threads per scene (scenes without any are left out). */
export async function countOpenComments(
  db: Db,
  user: User,
  timelineId: number,
  shareCode?: string | null,
): Promise<{ counts: Record<string, number> }> {
  await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const rows = await db
    .select({ eventId: comments.eventId, open: count() })
    .from(comments)
    .innerJoin(events, eq(events.id, comments.eventId))
    .where(and(liveSceneOf(timelineId), isNull(comments.threadId), eq(comments.resolved, false)))
    .groupBy(comments.eventId);
  return { counts: Object.fromEntries(rows.map((r) => [String(r.eventId), r.open])) };
}
