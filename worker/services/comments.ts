import { and, asc, eq, isNull, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type CreateComment, type UpdateComment, commentMessages } from "../../db/domain/validation-comments";
import { type User, comments, events, timelineShares, timelines } from "../../db/schema";
import { badRequest, forbidden } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, accessColumns, callerShare, canEdit, deniedMessage, requireRowAccess } from "./access";
import { type Deps, authorOf } from "./deps";
import { EVENT_NOT_FOUND } from "./events";
import { notifyAboutComment } from "./mentions";
import { type Limiter, spend } from "./rate-limits";

export type CommentView = {
  id: number;
  eventId: number;
  /** The thread's first comment; null for that first comment itself. */
  threadId: number | null;
  authorId: number | null;
  authorName: string;
  body: string;
  /**
   * Yjs relative positions (base64) in the scene's `content`, and the text they were made on; null: the whole scene.
   * A reader's comment whose quote was not in the scene's text when it came keeps its quote with empty positions.
   */
  anchor: { from: string; to: string; quote: string } | null;
  resolved: boolean;
  createdAt: string;
  updatedAt: string;
};

type CommentRow = typeof comments.$inferSelect;

export function toCommentView(c: CommentRow): CommentView {
  return {
    id: c.id,
    eventId: c.eventId,
    threadId: c.threadId,
    authorId: c.authorId,
    authorName: c.authorName,
    body: c.body,
    anchor: c.anchorFrom && c.anchorTo ? { from: c.anchorFrom, to: c.anchorTo, quote: c.quote ?? "" } : unanchoredQuote(c),
    resolved: c.resolved,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** A reader's quote not found in the text: listed with it (no positions, so nothing is highlighted), never lost. */
const unanchoredQuote = (c: CommentRow) => (c.readerId !== null && !c.threadId && c.quote ? { from: "", to: "", quote: c.quote } : null);

/** Viewers may comment unless the owner turned it off; editors always may. */
const mayComment = (access: Exclude<Access, "none">, viewersCanComment: boolean) => canEdit(access) || viewersCanComment;

/** A scene (not in Trash) and the caller's access to it; strangers get 404. */
async function loadEventAccess(db: Db, user: User, eventId: number, shareCode?: string | null) {
  const row = await db
    .select({ eventId: events.id, ...accessColumns(user) })
    .from(events)
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .leftJoin(timelineShares, callerShare(user, events.timelineId))
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
    .get();
  const { row: found, access } = requireRowAccess(row, user, "viewer", shareCode, EVENT_NOT_FOUND);
  return { timeline: found.timeline, access };
}

/** A comment with its scene's timeline and the caller's access; a comment of a trashed scene or timeline is not found. */
async function loadCommentAccess(db: Db, user: User, commentId: number, shareCode?: string | null) {
  const row = await db
    .select({ comment: comments, ...accessColumns(user) })
    .from(comments)
    .innerJoin(events, eq(events.id, comments.eventId))
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .leftJoin(timelineShares, callerShare(user, events.timelineId))
    .where(and(eq(comments.id, commentId), isNull(events.deletedAt)))
    .get();
  const { row: found, access } = requireRowAccess(row, user, "viewer", shareCode, commentMessages.notFound);
  return { comment: found.comment, timeline: found.timeline, access };
}

/** The scene's comments, oldest first (threads and their replies). Read access. */
export async function listComments(db: Db, user: User, eventId: number, shareCode?: string | null): Promise<CommentView[]> {
  await loadEventAccess(db, user, eventId, shareCode);
  const rows = await db.select().from(comments).where(eq(comments.eventId, eventId)).orderBy(asc(comments.createdAt), asc(comments.id));
  return rows.map(toCommentView);
}

/** A new thread (with its anchor) or a reply (`threadId`: a comment of this scene; a reply to a reply joins the same thread). */
export async function createComment(
  { db, room, mail }: Deps,
  limiter: Limiter,
  user: User,
  eventId: number,
  input: CreateComment,
  shareCode?: string | null,
): Promise<CommentView> {
  const { timeline, access } = await loadEventAccess(db, user, eventId, shareCode);
  if (!mayComment(access, timeline.viewersCanComment)) throw forbidden(commentMessages.noViewerComments);
  let threadId: number | null = null;
  if (input.threadId) {
    const parent = await db
      .select({ id: comments.id, threadId: comments.threadId })
      .from(comments)
      .where(and(eq(comments.id, input.threadId), eq(comments.eventId, eventId)))
      .get();
    if (!parent) throw badRequest(commentMessages.threadId);
    threadId = parent.threadId ?? parent.id;
  }
  await spend(limiter, "comments", `user:${user.id}`);
  const now = nowIso();
  const anchor = threadId ? null : (input.anchor ?? null);
  const row = await db
    .insert(comments)
    .values({
      eventId,
      threadId,
      authorId: user.id,
      authorName: authorOf(user).userName,
      body: input.body,
      anchorFrom: anchor?.from ?? null,
      anchorTo: anchor?.to ?? null,
      quote: anchor?.quote ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  room(timeline.id, { action: "comments-changed", by: authorOf(user), eventId });
  await notifyAboutComment(db, mail, user, timeline, row);
  return toCommentView(row);
}

/** The author edits the body; anyone with edit access resolves or reopens. */
export async function updateComment(
  { db, room }: Deps,
  user: User,
  commentId: number,
  input: UpdateComment,
  shareCode?: string | null,
): Promise<CommentView> {
  const { comment, timeline, access } = await loadCommentAccess(db, user, commentId, shareCode);
  if (input.body !== undefined) {
    if (comment.authorId !== user.id) throw forbidden(commentMessages.editOwn);
    if (!mayComment(access, timeline.viewersCanComment)) throw forbidden(commentMessages.noViewerComments);
  }
  if (input.resolved !== undefined && !canEdit(access)) throw forbidden(deniedMessage("collaborator"));
  const row = await db
    .update(comments)
    .set({
      ...(input.body !== undefined && { body: input.body }),
      ...(input.resolved !== undefined && { resolved: input.resolved }),
      updatedAt: nowIso(),
    })
    .where(eq(comments.id, commentId))
    .returning()
    .get();
  room(timeline.id, { action: "comments-changed", by: authorOf(user), eventId: comment.eventId });
  return toCommentView(row);
}

/** The author or the timeline's owner; a thread's first comment takes its replies with it. */
export async function deleteComment({ db, room }: Deps, user: User, commentId: number, shareCode?: string | null) {
  const { comment, timeline, access } = await loadCommentAccess(db, user, commentId, shareCode);
  if (comment.authorId !== user.id && access !== "owner") throw forbidden(commentMessages.deleteOwn);
  await db.delete(comments).where(or(eq(comments.id, commentId), eq(comments.threadId, commentId)));
  room(timeline.id, { action: "comments-changed", by: authorOf(user), eventId: comment.eventId });
  return { success: true };
}
