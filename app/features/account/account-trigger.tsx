import type { ComponentProps } from "react";
import { UserAvatar } from "~/ui/user-avatar";
import type { PublicUser } from "~/lib/user";

/** The account button, as the stand-in before the popover code loads and as the real popover's trigger. */
export function AccountTrigger({ user, ...props }: { user: PublicUser } & ComponentProps<"button">) {
  return (
    // Named by its content, not aria-label: the name then always contains the visible text (WCAG 2.5.3,
    // axe label-content-name-mismatch). On narrow screens the name is read but not shown.
    <button type="button" className="flex items-center gap-2 rounded-full p-0.5 hover:ring-2 hover:ring-brand-100" {...props}>
      <UserAvatar user={user} />
      <span className="sr-only">Account menu for </span>
      <span className="sr-only text-sm font-medium md:not-sr-only md:max-w-40 md:truncate">{user.name ?? user.email}</span>
    </button>
  );
}
