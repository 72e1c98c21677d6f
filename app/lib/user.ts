import type { PublicUser } from "../../worker/services/users";

export type { PublicUser };

/** Avatar fallback: initials from the name, else the first letter of the email. */
export function initials(user: Pick<PublicUser, "name" | "email">) {
  const words = (user.name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join("");
  }
  return (user.email[0] ?? "?").toUpperCase();
}

export const isAdmin = (user: PublicUser | null | undefined) => user?.role === "admin";
