import { Bell } from "lucide-react";
import { type ComponentProps, useEffect, useState } from "react";
import { LazyPopup, onDemand } from "~/components/lazy-popup";
import { UserAvatar } from "~/components/user-avatar";
import { BANNER_MS } from "~/hooks/use-timeline-room";
import type { PresenceUser, RoomNotification } from "../../durable-objects/protocol";

export const AVATARS_SHOWN = 3;

/** Avatar stack (first 3, then '+N') opening the 'Active collaborators (N)' list. */
export function PresenceStack({ users, myUserId }: { users: PresenceUser[]; myUserId: number }) {
  if (users.length === 0) return null;
  return (
    <LazyPopup
      component={collaboratorsPopover}
      props={{ users, myUserId }}
      haspopup="dialog"
      trigger={(t) => <PresenceTrigger users={users} {...t} />}
    />
  );
}

const collaboratorsPopover = onDemand(() => import("~/components/presence-popover").then((m) => m.CollaboratorsPopover));

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
