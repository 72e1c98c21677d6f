import { Bell } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { LazyPopup, onDemand } from "~/ui/lazy-popup";
import { PresenceTrigger } from "~/features/live-room/presence-trigger";
import { BANNER_MS } from "~/features/live-room/use-timeline-room";
import type { PresenceUser, RoomNotification } from "../../../durable-objects/protocol";

/** Who counts as a collaborator: the people here who can edit (the owner and editors), not viewers reading along. */
export const collaboratorsOf = (users: PresenceUser[]) => users.filter((u) => u.accessMode !== "viewer");

/** Avatar stack (first 3, then '+N') opening the 'Active collaborators (N)' list: the present writers who can edit. */
export function PresenceStack({ users: present, myUserId }: { users: PresenceUser[]; myUserId: number }) {
  const users = useMemo(() => collaboratorsOf(present), [present]);
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

const collaboratorsPopover = onDemand(() => import("~/features/live-room/presence-popover").then((m) => m.CollaboratorsPopover));

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
