import type { User } from "../../db/schema";

/** premium only while the end date (if any) has not passed. */
export function effectiveTier(user: Pick<User, "subscriptionTier" | "subscriptionEndDate">) {
  if (user.subscriptionTier !== "premium") return "free";
  if (user.subscriptionEndDate && Date.parse(user.subscriptionEndDate) <= Date.now()) return "free";
  return "premium";
}

export function isPremium(user: Pick<User, "subscriptionTier" | "subscriptionEndDate">) {
  return effectiveTier(user) === "premium";
}
