import { and, desc, eq, inArray, notInArray, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { comments, events, notifications } from "../../db/schema";
import type { NotifyMail } from "./notify-mail";
import { spareBudget } from "./rate-limits";

/**
 * What the inbox keeps per writer: every unread notification up to a high cap (a flood of mentions must never
 * push real news out unseen), and the latest few read ones. The banner's 'last 5' is a view of the unread.
 */
export const UNREAD_NOTIFICATIONS_KEPT = 500;
export const READ_NOTIFICATIONS_KEPT = 20;

/** What a page view shows of a notification (read with the session, see getSessionUser). */
export type UnreadNotification = { id: number; type: string; title: string; message: string; createdAt: string };

export type NotificationType = "mention" | "comment-reply" | "share" | "suggestion" | "task";

export type NotificationView = {
  id: number;
  type: string;
  title: string;
  message: string;
  relatedId: number | null;
  relatedType: string | null;
  read: boolean;
  createdAt: string;
};

type NewNotification = {
  type: NotificationType;
  title: string;
  message: string;
  relatedId?: number;
  relatedType?: string;
  timelineId?: number;
};

/**
 * How a notification's email leaves: the site's origin for its link, the mailer, and where the send runs
 * (after the answer). Without it (a loader, a test of the rules) nothing is mailed.
 */
export type { NotifyMail } from "./notify-mail";

/** The writer a notification is for, as much as mailing it needs. */
export type Recipient = { id: number; email: string; notifyEmail: "instant" | "daily" | "off" };

/** Who caused a notification: only a verified account's actions may mail anyone. */
export type Sender = { isEmailVerified: boolean };

/** Stores a notification; past the caps the oldest read ones go first, unread ones only past their own high cap. */
export async function addNotification(db: Db, userId: number, n: NewNotification) {
  const latest = (read: boolean, kept: number) =>
    db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.read, read)))
      .orderBy(desc(notifications.id))
      .limit(kept);
  await db.batch([
    db.insert(notifications).values({ userId, ...n }),
    db
      .delete(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          or(
            and(eq(notifications.read, true), notInArray(notifications.id, latest(true, READ_NOTIFICATIONS_KEPT))),
            and(eq(notifications.read, false), notInArray(notifications.id, latest(false, UNREAD_NOTIFICATIONS_KEPT))),
          ),
        ),
      ),
  ]);
}

/** Where a notification leads: the exact comment (its scene opened), else its scene, else the timeline. */
export function notificationPath(n: { timelineId: number | null; eventId?: number | null; commentId?: number | null }) {
  if (!n.timelineId) return "/timeline";
  if (n.eventId && n.commentId) return `/timeline/${n.timelineId}?event=${n.eventId}&comment=${n.commentId}`;
  if (n.eventId) return `/timeline/${n.timelineId}?event=${n.eventId}`;
  return `/timeline/${n.timelineId}`;
}

const footer = (origin: string) =>
  `\n\nYou receive these emails for every notification. Change how often in your account settings: ${origin}/account`;

/**
 * Stores the notification, then mails it when the writer chose 'instant' (a daily digest collects the others;
 * 'off' mails nothing). Only a verified sender's notifications are mailed, and each recipient gets at most
 * `notifyMails` of them an hour whoever sends them: past that they wait in the inbox, nothing is lost.
 * `path` is the page the notification is about.
 */
export async function notify(db: Db, mail: NotifyMail | undefined, to: Recipient, n: NewNotification, path: string, from: Sender) {
  await addNotification(db, to.id, n);
  if (!mail || to.notifyEmail !== "instant" || !from.isEmailVerified) return;
  const left = await spareBudget({ db, env: mail.env ?? {} }, "notifyMails", String(to.id));
  if (left < 0) return;
  const more = left === 0 ? `\n\nMore notifications this hour will wait in your inbox: ${mail.origin}/notifications` : "";
  mail.defer(
    mail.mailer
      .send({ to: to.email, subject: n.title, text: `${n.message}\n\nOpen it: ${mail.origin}${path}${more}${footer(mail.origin)}` })
      .catch((error) => console.error("[mail] failed to send a notification email:", String(error))),
  );
}

/** The writer's inbox, newest first, with the unread count. */
export async function listNotifications(db: Db, userId: number): Promise<{ notifications: NotificationView[]; unread: number }> {
  const rows = await db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      relatedId: notifications.relatedId,
      relatedType: notifications.relatedType,
      read: notifications.read,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id));
  return { notifications: rows, unread: rows.filter((n) => !n.read).length };
}

/** The inbox as the page shows it: each notification with the path it opens. */
export async function listInbox(db: Db, userId: number) {
  const rows = await db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      read: notifications.read,
      createdAt: notifications.createdAt,
      timelineId: notifications.timelineId,
      relatedId: notifications.relatedId,
      relatedType: notifications.relatedType,
      commentId: comments.id,
      eventId: comments.eventId,
    })
    .from(notifications)
    .leftJoin(comments, and(eq(notifications.relatedType, "comment"), eq(comments.id, notifications.relatedId)))
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id));
  return rows.map(({ timelineId, relatedId, relatedType, commentId, eventId, ...n }) => ({
    ...n,
    // A suggestion is about its scene (the related event).
    path: notificationPath({ timelineId, commentId, eventId: relatedType === "event" ? relatedId : eventId }),
  }));
}
export type InboxItem = Awaited<ReturnType<typeof listInbox>>[number];

/** Marks the writer's own notifications read: those of `ids` (others' ids change nothing), or all of them. */
export async function markNotificationsRead(db: Db, userId: number, ids?: number[]) {
  if (ids && ids.length === 0) return { success: true };
  await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false), ids ? inArray(notifications.id, ids) : undefined));
  return { success: true };
}

/** The names a notification about a comment shows: the scene's title. */
export async function eventTitle(db: Db, eventId: number) {
  const row = await db.select({ title: events.title }).from(events).where(eq(events.id, eventId)).get();
  return row?.title ?? "a scene";
}
