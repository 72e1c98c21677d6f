import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, timelineShares, timelines, users } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { randomToken } from "../lib/crypto";
import { type Access, TIMELINE_NOT_FOUND, requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";
import { type EventView, listEventsForTimeline } from "./events";
import { addNotification } from "./notifications";
import { isPremium } from "./plans";
import { type TimelineView, toTimelineView } from "./timelines";
import { findUserByEmail } from "./users";

export const SHARING_IS_PREMIUM = "Sharing is a premium feature. Upgrade to Premium to share timelines.";
export const UNKNOWN_RECIPIENT = "No user found with that email address";
export const SHARE_WITH_SELF = "You cannot share a timeline with yourself";

export type ShareListItem = {
  id: number;
  sharedWithUserId: number;
  sharedWithUserName: string;
  sharedWithUserEmail: string;
  accessLevel: "viewer" | "collaborator";
};

async function requirePremiumOwner(db: Db, user: User, timelineId: number) {
  const found = await requireTimelineAccess(db, user, timelineId, "owner");
  if (!isPremium(user)) throw forbidden(SHARING_IS_PREMIUM);
  return found;
}

/** One link per timeline; asking again returns the same code with the chosen role. */
export async function createShareLink(db: Db, user: User, timelineId: number, role: "viewer" | "collaborator") {
  const { timeline } = await requirePremiumOwner(db, user, timelineId);
  const shareCode = timeline.shareCode ?? randomToken(12);
  await db.update(timelines).set({ shareCode, shareRole: role }).where(eq(timelines.id, timelineId));
  return { shareCode, role };
}

/**
 * Opening a share link: the code grants the link's role. A signed-in writer who opens it keeps
 * access through a share row, so the timeline shows up under 'Shared with you'.
 */
export async function openSharedTimeline(
  { db, room }: Deps,
  user: User,
  shareCode: string,
): Promise<{ timeline: TimelineView; events: EventView[]; isShared: true; accessMode: Exclude<Access, "none"> }> {
  if (!shareCode || shareCode.length > 64) throw notFound(TIMELINE_NOT_FOUND);
  const timeline = await db.select().from(timelines).where(eq(timelines.shareCode, shareCode)).get();
  if (!timeline) throw notFound(TIMELINE_NOT_FOUND);
  const { access } = await requireTimelineAccess(db, user, timeline.id, "viewer", shareCode);
  if (access === "viewer" || access === "collaborator") {
    const written = await db
      .insert(timelineShares)
      .values({ timelineId: timeline.id, sharedByUserId: timeline.userId, sharedWithUserId: user.id, accessLevel: access })
      .onConflictDoUpdate({
        target: [timelineShares.timelineId, timelineShares.sharedWithUserId],
        set: { accessLevel: access },
        // Only a viewer is ever raised to collaborator: never a downgrade, and no write on a revisit.
        setWhere: sql`${timelineShares.accessLevel} = 'viewer' AND excluded.access_level = 'collaborator'`,
      })
      .returning({ id: timelineShares.id })
      .get();
    if (written) room(timeline.id, { action: "access-granted", by: authorOf(user), userId: user.id });
  }
  const mode = access as Exclude<Access, "none">;
  return {
    timeline: toTimelineView(timeline, mode, true),
    events: await listEventsForTimeline(db, timeline.id),
    isShared: true,
    accessMode: mode,
  };
}

export async function shareWithUser(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: { userEmail: string; accessLevel: "viewer" | "collaborator" },
): Promise<ShareListItem & { sharedWithUserEmail: string }> {
  const { timeline } = await requirePremiumOwner(db, user, timelineId);
  const recipient = await findUserByEmail(db, input.userEmail);
  if (!recipient) throw notFound(UNKNOWN_RECIPIENT);
  if (recipient.id === user.id) throw badRequest(SHARE_WITH_SELF);
  const share = await db
    .insert(timelineShares)
    .values({ timelineId, sharedByUserId: user.id, sharedWithUserId: recipient.id, accessLevel: input.accessLevel })
    .onConflictDoUpdate({
      target: [timelineShares.timelineId, timelineShares.sharedWithUserId],
      set: { accessLevel: input.accessLevel },
    })
    .returning()
    .get();
  await addNotification(db, recipient.id, {
    type: "timeline_shared",
    title: "Timeline shared with you",
    message: `${user.name ?? user.email} shared "${timeline.title}" with you`,
    relatedId: timelineId,
    relatedType: "timeline",
    timelineId,
  });
  room(timelineId, { action: "access-granted", by: authorOf(user), userId: recipient.id });
  return {
    id: share.id,
    sharedWithUserId: recipient.id,
    sharedWithUserName: recipient.name ?? "Unnamed User",
    sharedWithUserEmail: recipient.email,
    accessLevel: share.accessLevel,
  };
}

export async function listShares(db: Db, user: User, timelineId: number): Promise<ShareListItem[]> {
  await requireTimelineAccess(db, user, timelineId, "owner");
  const rows = await db
    .select({
      id: timelineShares.id,
      sharedWithUserId: timelineShares.sharedWithUserId,
      name: users.name,
      email: users.email,
      accessLevel: timelineShares.accessLevel,
    })
    .from(timelineShares)
    .innerJoin(users, eq(users.id, timelineShares.sharedWithUserId))
    .where(eq(timelineShares.timelineId, timelineId))
    .orderBy(timelineShares.createdAt);
  return rows.map((r) => ({
    id: r.id,
    sharedWithUserId: r.sharedWithUserId,
    sharedWithUserName: r.name ?? "Unnamed User",
    sharedWithUserEmail: r.email,
    accessLevel: r.accessLevel,
  }));
}

/** Owners may always revoke, premium or not. */
export async function removeShare({ db, room }: Deps, user: User, timelineId: number, sharedWithUserId: number) {
  await requireTimelineAccess(db, user, timelineId, "owner");
  const removed = await db
    .delete(timelineShares)
    .where(and(eq(timelineShares.timelineId, timelineId), eq(timelineShares.sharedWithUserId, sharedWithUserId)))
    .returning({ id: timelineShares.id })
    .get();
  if (!removed) throw notFound("Share not found");
  // Access ends at once: the room closes that user's open connections.
  room(timelineId, { action: "access-revoked", by: authorOf(user), userId: sharedWithUserId });
  return { success: true };
}
