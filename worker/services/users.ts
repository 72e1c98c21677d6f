import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, users } from "../../db/schema";
import { effectiveTier } from "./plans";

export type PublicUser = {
  id: number;
  email: string;
  name: string | null;
  avatar: string | null;
  role: "user" | "admin";
  subscriptionTier: string;
  subscriptionEndDate: string | null;
  isEmailVerified: boolean;
  lastLogin: string | null;
  createdAt: string;
};

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    avatar: user.avatar,
    role: user.role,
    subscriptionTier: effectiveTier(user),
    subscriptionEndDate: user.subscriptionEndDate,
    isEmailVerified: user.isEmailVerified,
    lastLogin: user.lastLogin,
    createdAt: user.createdAt,
  };
}

export async function findUserByEmail(db: Db, email: string) {
  return db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).get();
}
