import type { ComponentProps } from "react";
import { UserAvatar } from "~/ui/user-avatar";
import type { PresenceUser } from "../../../durable-objects/protocol";

export const AVATARS_SHOWN = 3;

/** The avatar stack button, as the stand-in before the popover code loads and as the real popover's trigger. */
export function PresenceTrigger({ users, ...props }: { users: PresenceUser[] } & ComponentProps<"button">) {
  const shown = users.slice(0, AVATARS_SHOWN);
  const extra = users.length - shown.length;
  return (
    // Named by its content (not aria-label), so the name keeps the visible initials' meaning (axe label-content-name-mismatch).
    <button type="button" className="flex items-center rounded-full pr-1 hover:bg-stone-100" {...props}>
      <span className="sr-only">Active collaborators ({users.length})</span>
      <span className="flex -space-x-2">
        {shown.map((u) => (
          <UserAvatar key={u.userId} user={{ name: u.userName, email: u.userName, avatar: null }} className="h-8 w-8 ring-2 ring-white" />
        ))}
      </span>
      {extra > 0 ? (
        <span aria-hidden="true" className="ml-1 text-xs font-semibold text-stone-700">
          +{extra}
        </span>
      ) : null}
    </button>
  );
}
