import { and, desc, eq, inArray, notInArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notifications } from "../../db/schema";

export const RECENT_NOTIFICATIONS_KEPT = 5;

/** What a page view shows of a notification (read with the session, see getSessionUser). */
export type UnreadNotification = { id: number; type: string; title: string; message: string; createdAt: string };

type NewNotification = {
  type: string;
  title: string;
  message: string;
  relatedId?: number;
  relatedType?: string;
  timelineId?: number;
};

/** Stores a notification and keeps only the latest few per user. */
export async function addNotification(db: Db, userId: number, n: NewNotification) {
  const latest = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(RECENT_NOTIFICATIONS_KEPT);
  await db.batch([
    db.insert(notifications).values({ userId, ...n }),
    db.delete(notifications).where(and(eq(notifications.userId, userId), notInArray(notifications.id, latest))),
  ]);
}

export async function markNotificationsRead(db: Db, userId: number, ids: number[]) {
  if (ids.length === 0) return;
  await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)));
}
