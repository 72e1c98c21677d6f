import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Timeline, type User, invitations, timelineShares, timelines, users } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { DAY, isoIn, nowIso } from "../lib/time";
import type { NotifyMail } from "./notifications";

// Invitations: sharing with an address that has no account yet. The mailed link leads to registration
// (and back to the timeline); the share itself waits until that very address is verified.

export const INVITATION_TTL_MS = 14 * DAY;

export type InvitationSent = { invited: true; email: string; accessLevel: "viewer" | "collaborator" };

const who = (user: Pick<User, "name" | "email">) => user.name ?? user.email;

/** Mails a writer who has an account that a timeline was shared with them (whatever their notification setting). */
export function mailShare(mail: NotifyMail | undefined, from: Pick<User, "name" | "email">, to: Pick<User, "email">, timeline: Timeline) {
  if (!mail) return;
  const link = `${mail.origin}/timeline/${timeline.id}`;
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

/**
 * A pending share for an address with no account: one per timeline and address (inviting again renews the
 * link and the level), and a mail with a sign-up link that comes back to the timeline.
 */
export async function inviteByEmail(
  db: Db,
  mail: NotifyMail | undefined,
  from: User,
  timeline: Timeline,
  input: { userEmail: string; accessLevel: "viewer" | "collaborator" },
): Promise<InvitationSent> {
  const email = input.userEmail.trim().toLowerCase();
  const token = randomToken(24);
  const row = {
    tokenHash: await sha256Hex(token),
    accessLevel: input.accessLevel,
    invitedByUserId: from.id,
    expiresAt: isoIn(INVITATION_TTL_MS),
  };
  await db
    .insert(invitations)
    .values({ timelineId: timeline.id, email, ...row })
    .onConflictDoUpdate({ target: [invitations.timelineId, sql`lower(${invitations.email})`], set: row });
  if (mail) {
    const back = encodeURIComponent(`/timeline/${timeline.id}`);
    const link = `${mail.origin}/auth/register?invite=${encodeURIComponent(token)}&redirectTo=${back}`;
    mail.defer(
      mail.mailer
        .send({
          to: email,
          subject: `${who(from)} invited you to "${timeline.title}" on StoryWeave`,
          text:
            `${who(from)} invited you to the timeline "${timeline.title}" on StoryWeave.\n\n` +
            `Create your account with this address and verify it, and the timeline opens for you:\n${link}\n\n` +
            `The invitation is valid for 14 days. If you did not expect it, ignore this email.`,
        })
        .catch((error) => console.error("[mail] failed to send an invitation email:", String(error))),
    );
  }
  return { invited: true, email, accessLevel: input.accessLevel };
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
  const address = eq(sql`lower(${invitations.email})`, user.email.toLowerCase());
  const pending = await db
    .select({ timelineId: invitations.timelineId, sharedByUserId: invitations.invitedByUserId, accessLevel: invitations.accessLevel })
    .from(invitations)
    .innerJoin(timelines, eq(timelines.id, invitations.timelineId))
    .where(and(address, gt(invitations.expiresAt, nowIso())));
  const used = db.delete(invitations).where(address);
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
