import { Popover } from "radix-ui";
import { useId } from "react";
import { PresenceTrigger } from "~/features/live-room/presence-trigger";
import { Badge } from "~/ui/badge";
import { UserAvatar } from "~/ui/user-avatar";
import type { PresenceUser } from "../../../durable-objects/protocol";

/** 'Active collaborators (N)': everyone in the room, with owner/you badges. */
export function CollaboratorsPopover({ users, myUserId, defaultOpen }: { users: PresenceUser[]; myUserId: number; defaultOpen?: boolean }) {
  const titleId = useId();
  return (
    <Popover.Root defaultOpen={defaultOpen}>
      <Popover.Trigger asChild>
        <PresenceTrigger users={users} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-labelledby={titleId}
          align="start"
          sideOffset={6}
          className="z-50 w-72 rounded-xl border border-stone-200 bg-white p-4 shadow-lg"
        >
          <p id={titleId} className="mb-2 text-sm font-semibold">
            Active collaborators ({users.length})
          </p>
          <ul className="space-y-2">
            {users.map((u) => (
              <li key={u.userId} className="flex items-center gap-2 text-sm">
                <UserAvatar user={{ name: u.userName, email: u.userName, avatar: null }} className="h-7 w-7 text-xs" />
                <span className="min-w-0 flex-1 truncate">{u.userName}</span>
                {u.isOwner ? <Badge variant="secondary">owner</Badge> : null}
                {u.userId === myUserId ? <Badge variant="outline">you</Badge> : null}
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
