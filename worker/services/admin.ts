import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { subscriptionHistory, users } from "../../db/schema";
import { notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { deleteInvitationsBy } from "./invitations";
import { type PublicUser, toPublicUser } from "./users";

export const USER_NOT_FOUND = "User not found";

/** every user with role, plan, end date and last login, newest first. */
export async function listUsers(db: Db): Promise<PublicUser[]> {
  const rows = await db.select().from(users).orderBy(desc(users.createdAt), desc(users.id));
  return rows.map(toPublicUser);
}

/**
 * Admin grant or removal of Premium. A grant has no end date (it lasts until removed); both write
 * subscription_history with paymentMethod 'admin'. A Stripe subscription, if any, is left to the
 * billing flow (an admin removal does not cancel a paid subscription's billing).
 */
export async function setPremium(db: Db, userId: number, premium: boolean): Promise<PublicUser> {
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
  if (!existing) throw notFound(USER_NOT_FOUND);
  const now = nowIso();
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ subscriptionTier: premium ? "premium" : "free", subscriptionEndDate: null, updatedAt: now })
      .where(eq(users.id, userId))
      .returning(),
    db.insert(subscriptionHistory).values({
      userId,
      tier: premium ? "premium" : "free",
      startDate: now,
      paymentAmount: 0,
      paymentMethod: "admin",
      status: premium ? "active" : "cancelled",
    }),
    // Sharing is premium: a removal takes the invitations still waiting with it.
    ...(premium ? [] : [deleteInvitationsBy(db, userId)]),
  ]);
  return toPublicUser(updated[0]);
}
