import { Bell } from "lucide-react";
import { Popover } from "radix-ui";
import { useEffect, useState } from "react";
import { UserAvatar } from "~/components/user-avatar";
import { Badge } from "~/components/ui/badge";
import { BANNER_MS } from "~/hooks/use-timeline-room";
import type { PresenceUser, RoomNotification } from "../../durable-objects/protocol";

export const AVATARS_SHOWN = 3;

/** Avatar stack (first 3, then '+N') opening the 'Active collaborators (N)' list. */
export function PresenceStack({ users, myUserId }: { users: PresenceUser[]; myUserId: number }) {
  if (users.length === 0) return null;
  const shown = users.slice(0, AVATARS_SHOWN);
  const extra = users.length - shown.length;
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        {/* Named by its content (not aria-label), so the name keeps the visible initials' meaning (axe label-content-name-mismatch). */}
        <button type="button" className="flex items-center rounded-full pr-1 hover:bg-stone-100">
          <span className="sr-only">Active collaborators ({users.length})</span>
          <span className="flex -space-x-2">
            {shown.map((u) => (
              <UserAvatar
                key={u.userId}
                user={{ name: u.userName, email: u.userName, avatar: null }}
                className="h-8 w-8 ring-2 ring-white"
              />
            ))}
          </span>
          {extra > 0 ? (
            <span aria-hidden="true" className="ml-1 text-xs font-semibold text-stone-700">
              +{extra}
            </span>
          ) : null}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={6} className="z-50 w-72 rounded-xl border border-stone-200 bg-white p-4 shadow-lg">
          <p className="mb-2 text-sm font-semibold">Active collaborators ({users.length})</p>
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

/** The first of the latest notifications, for 5 seconds. */
export function NotificationBanner({ notifications }: { notifications: RoomNotification[] }) {
  const latest = notifications[0];
  const [visible, setVisible] = useState<RoomNotification | null>(null);
  useEffect(() => {
    if (!latest) return;
    setVisible(latest);
    const timer = setTimeout(() => setVisible(null), BANNER_MS);
    return () => clearTimeout(timer);
  }, [latest]);
  if (!visible) return null;
  return (
    <div
      role="status"
      className="mt-4 flex items-center gap-2 rounded-lg border border-brand-100 bg-brand-50 px-4 py-2 text-sm text-brand-700"
    >
      <Bell aria-hidden="true" className="h-4 w-4 shrink-0" />
      <span>{visible.message}</span>
    </div>
  );
}
