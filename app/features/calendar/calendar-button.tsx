import { Suspense, lazy, useEffect, useState } from "react";
import type { ApiClient } from "~/lib/client";

export const loadCalendar = () => import("~/features/calendar/calendar-dialog");
const CalendarDialog = lazy(() => loadCalendar().then((m) => ({ default: m.CalendarDialog })));

/** The owner's 'Calendar' dialog (opened from the Panels menu); its code loads when the pointer nears the entry or it opens. */
export function CalendarPanel({
  open,
  onOpenChange,
  ...props
}: {
  timelineId: number;
  shareCode?: string | null;
  client: ApiClient;
  onSaved: () => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // Mounted from the first opening on (its code loads then).
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (open) setMounted(true);
  }, [open]);
  return mounted || open ? (
    <Suspense fallback={null}>
      <CalendarDialog open={open} onOpenChange={onOpenChange} {...props} />
    </Suspense>
  ) : null;
}
