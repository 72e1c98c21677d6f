import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, shareLinkRemovals, timelineShares, timelines, users } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { randomToken } from "../lib/crypto";
import { type Access, TIMELINE_NOT_FOUND, accessOf, hasAccess, requireTimelineAccess, accessColumns, callerShare } from "./access";
import { endAccess } from "./access-end";
import { type Deps, authorOf } from "./deps";
import { type EventView, listEventsForTimeline } from "./events";
import {
  type InvitationSent,
  type PendingInvitation,
  deleteInvitation,
  deleteTimelineInvitations,
  inviteByEmail,
  listPendingInvitations,
  mailShare,
} from "./invitations";
import { addNotification } from "./notifications";
import { type Limiter, spend } from "./rate-limits";
import { isPremium } from "./plans";
import { type TimelineView, ownerNameOf, toTimelineView } from "./timelines";
import { findUserByEmail } from "./users";

export const SHARING_IS_PREMIUM = "Sharing is a premium feature. Upgrade to Premium to share timelines.";
export const UNKNOWN_RECIPIENT = "No user found with that email address";
export const SHARE_WITH_SELF = "You cannot share a timeline with yourself";
export const INVITATION_NOT_FOUND = "Invitation not found";

export type ShareListItem = {
  id: number;
  sharedWithUserId: number;
  sharedWithUserName: string;
  sharedWithUserEmail: string;
  accessLevel: "viewer" | "collaborator";
};

/** `GET /api/timelines/{id}/shares`: the people with access, then the invitations still waiting (`pending: true`). */
export type ShareEntry = ShareListItem | PendingInvitation;

async function requirePremiumOwner(db: Db, user: User, timelineId: number) {
  const found = await requireTimelineAccess(db, user, timelineId, "owner");
  if (!isPremium(user)) throw forbidden(SHARING_IS_PREMIUM);
  return found;
}

export type ShareLink = { shareCode: string | null; role: "viewer" | "collaborator"; off: boolean };

/** The owner's view of the link: its code (none until created, or after 'Turn off link') and level. */
export async function getShareLink(db: Db, user: User, timelineId: number): Promise<ShareLink> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "owner");
  return { shareCode: timeline.shareCode, role: timeline.shareRole, off: timeline.shareLinkOff };
}

/**
 * One link per timeline; asking again returns the same code with the chosen level. A new level applies
 * at once to the writers who joined through the link (their rows follow it; the room closes the
 * sockets of those who lost edit rights).
 */
export async function createShareLink({ db, room }: Deps, user: User, timelineId: number, role: "viewer" | "collaborator") {
  const { timeline } = await requirePremiumOwner(db, user, timelineId);
  const shareCode = timeline.shareCode ?? randomToken(12);
  const [, changed] = await db.batch([
    db.update(timelines).set({ shareCode, shareRole: role, shareLinkOff: false }).where(eq(timelines.id, timelineId)),
    db
      .update(timelineShares)
      .set({ accessLevel: role })
      .where(and(eq(timelineShares.timelineId, timelineId), eq(timelineShares.viaLink, true), ne(timelineShares.accessLevel, role)))
      .returning({ userId: timelineShares.sharedWithUserId }),
  ]);
  if (timeline.shareCode && timeline.shareRole !== role) {
    // Awaited: writers who lost edit rights are closed out of the room and the docs before the owner hears back.
    await room(timelineId, { action: "link-role", by: authorOf(user), role, userIds: changed.map((r) => r.userId) });
  }
  return { shareCode, role };
}

/**
 * 'Reset link': a new code; the old one opens nothing anywhere. Writers who joined through the old link
 * lose that access (writers the owner shared with by email keep theirs), and their sockets close.
 */
export async function resetShareLink({ db, room }: Deps, user: User, timelineId: number) {
  const { timeline } = await requirePremiumOwner(db, user, timelineId);
  const shareCode = randomToken(12);
  const userIds = await endLinkAccess(db, timelineId, { shareCode, shareLinkOff: false });
  await room(timelineId, { action: "link-reset", by: authorOf(user), userIds });
  return { shareCode, role: timeline.shareRole };
}

/** 'Turn off link': no code at all until the owner creates a link again. Owners may always do this, premium or not. */
export async function turnOffShareLink({ db, room }: Deps, user: User, timelineId: number): Promise<ShareLink> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "owner");
  const userIds = await endLinkAccess(db, timelineId, { shareCode: null, shareLinkOff: true });
  await room(timelineId, { action: "link-off", by: authorOf(user), userIds });
  return { shareCode: null, role: timeline.shareRole, off: true };
}

/**
 * One batch: the new code (or none), the link's rows gone, removals of the dead code forgotten, and the
 * invitations still waiting taken back (the owner starts over; an old invitation must not outlive that).
 */
async function endLinkAccess(db: Db, timelineId: number, link: { shareCode: string | null; shareLinkOff: boolean }) {
  const [, ended] = await db.batch([
    db.update(timelines).set(link).where(eq(timelines.id, timelineId)),
    db
      .delete(timelineShares)
      .where(and(eq(timelineShares.timelineId, timelineId), eq(timelineShares.viaLink, true)))
      .returning({ userId: timelineShares.sharedWithUserId }),
    db.delete(shareLinkRemovals).where(eq(shareLinkRemovals.timelineId, timelineId)),
    deleteTimelineInvitations(db, timelineId),
  ]);
  return ended.map((r) => r.userId);
}

/**
 * A share link as the writer who opens it sees it: the timeline, its owner's name, the link's level, what
 * the writer has without the link, and what they would have with it. An unknown, reset or turned-off code,
 * or one the owner removed this writer from, is a stranger's 404.
 */
async function findShareLink(db: Db, user: User, shareCode: string) {
  if (!shareCode || shareCode.length > 64) throw notFound(TIMELINE_NOT_FOUND);
  const row = await db
    .select({
      ...accessColumns(user),
      ownerName: users.name,
    })
    .from(timelines)
    .innerJoin(users, eq(users.id, timelines.userId))
    .leftJoin(timelineShares, callerShare(user))
    .where(eq(timelines.shareCode, shareCode))
    .get();
  if (!row) throw notFound(TIMELINE_NOT_FOUND);
  const withLink = accessOf(row.timeline, user, row.shareLevel, row.linkRemoved ? null : shareCode);
  if (withLink === "none") throw notFound(TIMELINE_NOT_FOUND);
  const without = accessOf(row.timeline, user, row.shareLevel, null);
  return { timeline: row.timeline, ownerName: row.ownerName ?? "Unnamed User", withLink, without };
}

export type ShareInvite = {
  timeline: { id: number; title: string };
  owner: { name: string };
  accessLevel: "viewer" | "collaborator";
  /** True when joining adds nothing: the owner, or a writer who already has at least the link's level. */
  joined: boolean;
};

/** What the page at /timeline/shared/{code} asks before joining (reads only). */
export async function previewShareLink(db: Db, user: User, shareCode: string): Promise<ShareInvite> {
  const link = await findShareLink(db, user, shareCode);
  return {
    timeline: { id: link.timeline.id, title: link.timeline.title },
    owner: { name: link.ownerName },
    accessLevel: link.timeline.shareRole,
    joined: hasAccess(link.without, link.withLink),
  };
}

/**
 * Reading a timeline through its share link: the code grants the link's role for this request, and
 * nothing is written (a GET adds nothing to the writer's timelines; joining is `joinSharedTimeline`).
 */
export async function openSharedTimeline(
  db: Db,
  user: User,
  shareCode: string,
  /** The writer's locale, for the story dates in words. */
  locale?: string,
): Promise<{ timeline: TimelineView; events: EventView[]; isShared: true; accessMode: Exclude<Access, "none"> }> {
  const { timeline, withLink } = await findShareLink(db, user, shareCode);
  const mode = withLink as Exclude<Access, "none">;
  return {
    timeline: toTimelineView(timeline, mode, true, await ownerNameOf(db, timeline)),
    events: await listEventsForTimeline(db, timeline.id, "position", locale),
    isShared: true,
    accessMode: mode,
  };
}

/**
 * 'Join timeline': the writer keeps the link's level through a share row, so the timeline shows under
 * 'Shared with you' and opens without the code. The owner, or a writer who already has that level,
 * joins nothing; a writer shared with as a viewer is raised by a collaborator link, never lowered.
 */
export async function joinSharedTimeline({ db, room }: Deps, user: User, shareCode: string) {
  const { timeline, withLink, without } = await findShareLink(db, user, shareCode);
  const mode = withLink as Exclude<Access, "none">;
  if ((mode === "viewer" || mode === "collaborator") && !hasAccess(without, mode)) {
    const written = await db
      .insert(timelineShares)
      .values({ timelineId: timeline.id, sharedByUserId: timeline.userId, sharedWithUserId: user.id, accessLevel: mode, viaLink: true })
      .onConflictDoUpdate({
        target: [timelineShares.timelineId, timelineShares.sharedWithUserId],
        set: { accessLevel: mode },
        // Only a viewer is ever raised to collaborator: never a downgrade, and no write on a second join.
        setWhere: sql`${timelineShares.accessLevel} = 'viewer' AND excluded.access_level = 'collaborator'`,
      })
      .returning({ id: timelineShares.id })
      .get();
    if (written) room(timeline.id, { action: "access-granted", by: authorOf(user), userId: user.id });
  }
  return { timeline: toTimelineView(timeline, mode, mode !== "owner", await ownerNameOf(db, timeline)), accessMode: mode };
}

/**
 * Shares with a writer by email and mails them (always: an invitation naming the timeline and who shared it).
 * An address with no account is SPEC's 404, unless `invite` asks for a pending invitation and a sign-up link.
 * An account that never verified its address gets a pending invitation too, not the share: anyone may
 * register someone else's address, and only verifying it (`acceptInvitations`) grants the timeline. A writer
 * who already has a share row (joined through the link) keeps being managed through that row.
 * Every share or invitation counts against the owner's hourly budget of mails to others.
 */
export async function shareWithUser(
  deps: Deps,
  user: User,
  timelineId: number,
  input: { userEmail: string; accessLevel: "viewer" | "collaborator"; invite?: boolean },
  limiter?: Limiter,
): Promise<ShareListItem | InvitationSent> {
  const { db, room, mail } = deps;
  const { timeline } = await requirePremiumOwner(db, user, timelineId);
  const recipient = await findUserByEmail(db, input.userEmail);
  if (recipient?.id === user.id) throw badRequest(SHARE_WITH_SELF);
  if (!recipient && !input.invite) throw notFound(UNKNOWN_RECIPIENT);
  if (limiter) await spend(limiter, "invitations", `user:${user.id}`);
  if (!recipient) return inviteByEmail(db, mail, user, timeline, input);
  const before = await db
    .select({ accessLevel: timelineShares.accessLevel })
    .from(timelineShares)
    .where(and(eq(timelineShares.timelineId, timelineId), eq(timelineShares.sharedWithUserId, recipient.id)))
    .get();
  if (!recipient.isEmailVerified && !before) return inviteByEmail(db, mail, user, timeline, input, recipient);
  const share = await db
    .insert(timelineShares)
    .values({ timelineId, sharedByUserId: user.id, sharedWithUserId: recipient.id, accessLevel: input.accessLevel })
    .onConflictDoUpdate({
      target: [timelineShares.timelineId, timelineShares.sharedWithUserId],
      // Shared by name now: the row no longer follows the link.
      set: { accessLevel: input.accessLevel, viaLink: false },
    })
    .returning()
    .get();
  await addNotification(db, recipient.id, {
    type: "share",
    title: "Timeline shared with you",
    message: `${user.name ?? user.email} shared "${timeline.title}" with you`,
    relatedId: timelineId,
    relatedType: "timeline",
    timelineId,
  });
  // Mailed when the share is new: sharing again (another level) tells the writer in the app only, so the
  // owner cannot mail an address about one timeline over and over.
  if (!before) mailShare(mail, user, recipient, timeline, share.accessLevel);
  if (before?.accessLevel === "collaborator" && share.accessLevel === "viewer") {
    // A collaborator made a viewer: their editors close now; the room reconnects them read-only.
    await endAccess(deps, { userId: recipient.id, timelineId, reason: "viewer", by: authorOf(user) });
  } else {
    room(timelineId, { action: "access-granted", by: authorOf(user), userId: recipient.id });
  }
  return {
    id: share.id,
    sharedWithUserId: recipient.id,
    sharedWithUserName: recipient.name ?? "Unnamed User",
    sharedWithUserEmail: recipient.email,
    accessLevel: share.accessLevel,
  };
}

export async function listShares(db: Db, user: User, timelineId: number): Promise<ShareEntry[]> {
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
  const shares: ShareEntry[] = rows.map((r) => ({
    id: r.id,
    sharedWithUserId: r.sharedWithUserId,
    sharedWithUserName: r.name ?? "Unnamed User",
    sharedWithUserEmail: r.email,
    accessLevel: r.accessLevel,
  }));
  return shares.concat(await listPendingInvitations(db, timelineId));
}

/** Owners may always take an invitation back, premium or not; any other id of this timeline is a 404. */
export async function cancelInvitation(db: Db, user: User, timelineId: number, invitationId: number) {
  await requireTimelineAccess(db, user, timelineId, "owner");
  if (!(await deleteInvitation(db, timelineId, invitationId))) throw notFound(INVITATION_NOT_FOUND);
  return { success: true };
}

/**
 * Owners may always revoke, premium or not. The removal is remembered against the current link's code,
 * so opening that same link never brings the writer back (a reset link's new code can).
 */
export async function removeShare(deps: Deps, user: User, timelineId: number, sharedWithUserId: number) {
  const { db } = deps;
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "owner");
  const theShare = and(eq(timelineShares.timelineId, timelineId), eq(timelineShares.sharedWithUserId, sharedWithUserId));
  const removal = db.delete(timelineShares).where(theShare).returning({ id: timelineShares.id });
  const removed = timeline.shareCode
    ? (
        await db.batch([
          // Remembered only when there was a share to remove.
          db
            .insert(shareLinkRemovals)
            .select(
              sql`SELECT timeline_id, shared_with_user_id, ${timeline.shareCode}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                FROM ${timelineShares} WHERE ${theShare}`,
            )
            .onConflictDoNothing(),
          removal,
        ])
      )[1]
    : await removal;
  if (!removed[0]) throw notFound("Share not found");
  // Access ends at once: the room and the timeline's open docs close that user's connections.
  await endAccess(deps, { userId: sharedWithUserId, timelineId, reason: "removed", by: authorOf(user) });
  return { success: true };
}
