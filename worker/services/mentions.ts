import { and, asc, eq, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Timeline, type User, comments, timelineShares, users } from "../../db/schema";
import { canEdit, requireTimelineAccess } from "./access";
import { authorOf } from "./deps";
import { type NotifyMail, type Recipient, eventTitle, notificationPath, notify } from "./notifications";

// @mentions and replies: who hears about a comment. Only writers who can read the timeline (its owner and
// everyone it is shared with, by email or through its link) are ever named or told.

export type Reader = Recipient & { name: string | null };
export type Person = { id: number; name: string };

/** Everyone who can read the timeline: the owner, then the writers it is shared with. */
export async function readersOf(db: Db, timeline: Pick<Timeline, "id" | "userId">): Promise<Reader[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, notifyEmail: users.notifyEmail })
    .from(users)
    .leftJoin(timelineShares, and(eq(timelineShares.sharedWithUserId, users.id), eq(timelineShares.timelineId, timeline.id)))
    .where(or(eq(users.id, timeline.userId), eq(timelineShares.timelineId, timeline.id)))
    .orderBy(asc(users.name), asc(users.id));
}

/**
 * GET /api/timelines/{id}/people (read access): who the comment box's `@` offers. Who a timeline is shared with is
 * the owner's and its editors' business: a viewer (a link holder among them) is offered only the owner and themselves.
 */
export async function listPeople(db: Db, user: User, timelineId: number, shareCode?: string | null): Promise<Person[]> {
  const { timeline, access } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const readers = await readersOf(db, timeline);
  const offered = canEdit(access) ? readers : readers.filter((r) => r.id === timeline.userId || r.id === user.id);
  return offered.map((r) => ({ id: r.id, name: r.name ?? r.email.split("@")[0] }));
}

const WORD = /[\p{L}\p{N}_]/u;

/** True when `body` has `@handle` as a whole word (not inside an email address, not the start of a longer name). */
export function mentions(body: string, handle: string) {
  const text = body.toLowerCase();
  const needle = `@${handle.trim().toLowerCase()}`;
  if (needle.length < 2) return false;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const before = at > 0 ? text[at - 1] : "";
    const after = text[at + needle.length] ?? "";
    if (!(before && WORD.test(before)) && !(after && WORD.test(after))) return true;
  }
  return false;
}

/** The readers a comment's body names with `@Name` (or `@` and their email's local part). */
export function mentionedIn(body: string, readers: Reader[]) {
  if (!body.includes("@")) return [];
  return readers.filter((r) => (r.name && mentions(body, r.name)) || mentions(body, r.email.split("@")[0]));
}

type NewComment = { id: number; eventId: number; threadId: number | null; body: string };

/**
 * After a comment is posted: a `mention` for each reader it names, and for a reply a `comment-reply` to the
 * thread's earlier participants who were not mentioned. Never the author, never someone who cannot read it.
 */
export async function notifyAboutComment(db: Db, mail: NotifyMail | undefined, author: User, timeline: Timeline, comment: NewComment) {
  const readers = (await readersOf(db, timeline)).filter((r) => r.id !== author.id);
  const mentioned = mentionedIn(comment.body, readers);
  let repliedTo: Reader[] = [];
  if (comment.threadId) {
    const earlier = await db
      .selectDistinct({ authorId: comments.authorId })
      .from(comments)
      .where(or(eq(comments.id, comment.threadId), eq(comments.threadId, comment.threadId)));
    const ids = new Set(earlier.map((c) => c.authorId));
    repliedTo = readers.filter((r) => ids.has(r.id) && !mentioned.includes(r));
  }
  if (mentioned.length === 0 && repliedTo.length === 0) return;
  const who = authorOf(author).userName;
  const where = `"${await eventTitle(db, comment.eventId)}" in "${timeline.title}"`;
  const path = notificationPath({ timelineId: timeline.id, eventId: comment.eventId, commentId: comment.id });
  const about = { relatedId: comment.id, relatedType: "comment", timelineId: timeline.id };
  for (const r of mentioned) {
    await notify(
      db,
      mail,
      r,
      { type: "mention", title: `${who} mentioned you`, message: `${who} mentioned you in a comment on ${where}`, ...about },
      path,
      author,
    );
  }
  for (const r of repliedTo) {
    await notify(
      db,
      mail,
      r,
      { type: "comment-reply", title: `${who} replied`, message: `${who} replied to a comment thread on ${where}`, ...about },
      path,
      author,
    );
  }
}
