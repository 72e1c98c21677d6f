import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Timeline, type User, invitations, timelineShares, timelines, users } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { DAY, isoIn, nowIso } from "../lib/time";
import type { NotifyMail } from "./notifications";
import { isPremium } from "./plans";
import { bookPath } from "../../db/domain/book-path";

// Invitations: sharing with an address nobody has proven yet (no account, or an account that never verified
// it). The mailed link leads to registration or sign-in (and back to the timeline); the share itself waits
// until that very address is verified.

export const INVITATION_TTL_MS = 14 * DAY;
/** An address is mailed about one timeline at most this often, however often the owner shares or invites. */
export const INVITATION_MAIL_INTERVAL_MS = DAY;

const who = (user: Pick<User, "name" | "email">) => user.name ?? user.email;

/** Mails a writer who has an account that a timeline was shared with them (whatever their notification setting). */
export function mailShare(
  mail: NotifyMail | undefined,
  from: Pick<User, "name" | "email">,
  to: Pick<User, "email">,
  timeline: Timeline,
  level: "viewer" | "collaborator",
) {
  if (!mail) return;
  // A viewer's link opens the book to read (the Manuscript); an editor's the timeline.
  const link = `${mail.origin}${bookPath(timeline.id, level)}`;
  mail.defer(
    mail.mailer
      .send({
        to: to.email,
        subject: `${who(from)} shared "${timeline.title}" with you`,
        text: `${who(from)} shared the timeline "${timeline.title}" with you on StoryWeave.\n\nOpen it: ${link}`,
      })
      .catch((error) => console.error("[mail] failed to send a share email:", String(error))),
  );
}

/** A pending invitation as the owner's Share dialog lists it (`GET /api/timelines/{id}/shares`, `pending: true`). */
export type PendingInvitation = {
  id: number;
  pending: true;
  /** The account that holds the address but never verified it, or null when no account has it yet. */
  sharedWithUserId: number | null;
  sharedWithUserName: string;
  sharedWithUserEmail: string;
  accessLevel: "viewer" | "collaborator";
  expiresAt: string;
};

/** What sharing with an unproven address answers: the pending entry, plus the older `{invited, email}` fields. */
export type InvitationSent = PendingInvitation & { invited: true; email: string };

type Invitee = { userEmail: string; accessLevel: "viewer" | "collaborator" };
/** The unverified account that holds the address, when there is one. */
type Holder = Pick<User, "id" | "name">;

const addressIs = (email: string) => eq(sql`lower(${invitations.email})`, email.toLowerCase());

/**
 * A pending share for an address nobody has proven: no account has it, or the account that has it never
 * verified it (anyone may register any address). One per timeline and address. The address is mailed at
 * most once a day per timeline: asking again within the day changes the level and sends nothing (the
 * link already mailed stays valid); after a day the link is renewed and mailed again.
 */
export async function inviteByEmail(
  db: Db,
  mail: NotifyMail | undefined,
  from: User,
  timeline: Timeline,
  input: Invitee,
  holder: Holder | null = null,
): Promise<InvitationSent> {
  const email = input.userEmail.trim().toLowerCase();
  const token = randomToken(24);
  const renewed = {
    tokenHash: await sha256Hex(token),
    accessLevel: input.accessLevel,
    invitedByUserId: from.id,
    expiresAt: isoIn(INVITATION_TTL_MS),
    mailedAt: nowIso(),
  };
  const mailedBefore = new Date(Date.now() - INVITATION_MAIL_INTERVAL_MS).toISOString();
  // The conditional upsert is the claim: of two invitations racing within the day, one mails.
  let row = await db
    .insert(invitations)
    .values({ timelineId: timeline.id, email, ...renewed })
    .onConflictDoUpdate({
      target: [invitations.timelineId, sql`lower(${invitations.email})`],
      set: renewed,
      setWhere: sql`${invitations.mailedAt} IS NULL OR ${invitations.mailedAt} <= ${mailedBefore}`,
    })
    .returning({ id: invitations.id, expiresAt: invitations.expiresAt })
    .get();
  const mailNow = Boolean(row);
  if (!row) {
    row = await db
      .update(invitations)
      .set({ accessLevel: input.accessLevel, invitedByUserId: from.id })
      .where(and(eq(invitations.timelineId, timeline.id), addressIs(email)))
      .returning({ id: invitations.id, expiresAt: invitations.expiresAt })
      .get();
  }
  if (mail && mailNow) mailInvitation(mail, from, timeline, email, token, holder, input.accessLevel);
  return {
    invited: true,
    email,
    id: row?.id ?? 0,
    pending: true,
    sharedWithUserId: holder?.id ?? null,
    sharedWithUserName: holder ? (holder.name ?? "Unnamed User") : email,
    sharedWithUserEmail: email,
    accessLevel: input.accessLevel,
    expiresAt: row?.expiresAt ?? renewed.expiresAt,
  };
}

function mailInvitation(
  mail: NotifyMail,
  from: User,
  timeline: Timeline,
  email: string,
  token: string,
  holder: Holder | null,
  level: "viewer" | "collaborator",
) {
  const back = encodeURIComponent(bookPath(timeline.id, level));
  // An address that already has an account signs in and verifies; one without an account signs up with the link.
  const link = holder
    ? `${mail.origin}/auth/login?redirectTo=${back}`
    : `${mail.origin}/auth/register?invite=${encodeURIComponent(token)}&redirectTo=${back}`;
  const how = holder
    ? "Sign in and verify your email address, and the timeline opens for you:"
    : "Create your account with this address and verify it, and the timeline opens for you:";
  mail.defer(
    mail.mailer
      .send({
        to: email,
        subject: `${who(from)} invited you to "${timeline.title}" on StoryWeave`,
        text:
          `${who(from)} invited you to the timeline "${timeline.title}" on StoryWeave.\n\n${how}\n${link}\n\n` +
          `The invitation is valid for 14 days. If you did not expect it, ignore this email.`,
      })
      .catch((error) => console.error("[mail] failed to send an invitation email:", String(error))),
  );
}

/** The timeline's invitations still waiting (not expired), oldest first, with the account holding each address if any. */
export async function listPendingInvitations(db: Db, timelineId: number): Promise<PendingInvitation[]> {
  const rows = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      accessLevel: invitations.accessLevel,
      expiresAt: invitations.expiresAt,
      holderId: users.id,
      holderName: users.name,
    })
    .from(invitations)
    .leftJoin(users, eq(sql`lower(${users.email})`, sql`lower(${invitations.email})`))
    .where(and(eq(invitations.timelineId, timelineId), gt(invitations.expiresAt, nowIso())))
    .orderBy(invitations.createdAt, invitations.id);
  return rows.map((r) => ({
    id: r.id,
    pending: true,
    sharedWithUserId: r.holderId,
    sharedWithUserName: r.holderId ? (r.holderName ?? "Unnamed User") : r.email,
    sharedWithUserEmail: r.email,
    accessLevel: r.accessLevel,
    expiresAt: r.expiresAt,
  }));
}

/** Takes back one invitation of this timeline; false when there is none with that id. */
export async function deleteInvitation(db: Db, timelineId: number, invitationId: number) {
  const gone = await db
    .delete(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.timelineId, timelineId)))
    .returning({ id: invitations.id });
  return gone.length > 0;
}

/** For a batch: every pending invitation to a timeline (its link reset or turned off). */
export const deleteTimelineInvitations = (db: Db, timelineId: number) =>
  db.delete(invitations).where(eq(invitations.timelineId, timelineId));

/** For a batch: every pending invitation a writer sent (they lost Premium, so they may no longer share). */
export const deleteInvitationsBy = (db: Db, userId: number) => db.delete(invitations).where(eq(invitations.invitedByUserId, userId));

/**
 * Invitations to this address that verifying would take up: not expired, and sent by an owner who may still
 * share (Premium; a plan that ran out takes its invitations with it).
 */
async function invitationsTo(db: Db, email: string) {
  const rows = await db
    .select({
      timelineId: invitations.timelineId,
      title: timelines.title,
      sharedByUserId: invitations.invitedByUserId,
      accessLevel: invitations.accessLevel,
      tier: users.subscriptionTier,
      endDate: users.subscriptionEndDate,
    })
    .from(invitations)
    .innerJoin(timelines, eq(timelines.id, invitations.timelineId))
    .innerJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(and(addressIs(email), gt(invitations.expiresAt, nowIso())))
    .orderBy(invitations.createdAt, invitations.id);
  return rows.filter((r) => isPremium({ subscriptionTier: r.tier, subscriptionEndDate: r.endDate }));
}

/**
 * What an unverified writer is waiting for: the titles of timelines shared with their own address, which open
 * once they verify it. A verified writer has none (verifying took them up).
 */
export async function listInvitationsWaitingFor(db: Db, user: Pick<User, "email" | "isEmailVerified">) {
  if (user.isEmailVerified) return [];
  return (await invitationsTo(db, user.email)).map((r) => ({ timelineId: r.timelineId, title: r.title }));
}

/** What the sign-up page shows for an invitation link: the address, the timeline and who invited; null when unknown or expired. */
export async function previewInvitation(db: Db, token: string | null) {
  if (!token || token.length > 200) return null;
  const row = await db
    .select({ email: invitations.email, timelineTitle: timelines.title, inviter: users.name, inviterEmail: users.email })
    .from(invitations)
    .innerJoin(timelines, eq(timelines.id, invitations.timelineId))
    .innerJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(and(eq(invitations.tokenHash, await sha256Hex(token)), gt(invitations.expiresAt, nowIso())))
    .get();
  return row ? { email: row.email, timelineTitle: row.timelineTitle, inviterName: row.inviter ?? row.inviterEmail } : null;
}

/**
 * A verified address takes up its invitations: each becomes a share (never lowering one the writer already
 * has) and is used up. Only the invited address, and only once it is verified, ever gets the share.
 */
export async function acceptInvitations(db: Db, user: Pick<User, "id" | "email" | "isEmailVerified">) {
  if (!user.isEmailVerified) return 0;
  const pending = (await invitationsTo(db, user.email)).map((p) => ({
    timelineId: p.timelineId,
    sharedByUserId: p.sharedByUserId,
    accessLevel: p.accessLevel,
  }));
  const used = db.delete(invitations).where(addressIs(user.email));
  if (pending.length === 0) {
    await used;
    return 0;
  }
  await db.batch([
    db
      .insert(timelineShares)
      .values(pending.map((p) => ({ ...p, sharedWithUserId: user.id })))
      .onConflictDoNothing(),
    used,
  ]);
  return pending.length;
}
