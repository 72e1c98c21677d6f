import { CalendarDays } from "lucide-react";
import { Suspense, lazy, useState } from "react";
import type { ApiClient } from "~/lib/client";
import { Button } from "~/ui/button";

const loadDialog = () => import("~/features/calendar/calendar-dialog");
const CalendarDialog = lazy(() => loadDialog().then((m) => ({ default: m.CalendarDialog })));

/** The owner's 'Calendar' button on the timeline screen; its dialog loads when the pointer nears it or it opens. */
export function CalendarButton(props: { timelineId: number; shareCode?: string | null; client: ApiClient; onSaved: () => void }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing returns focus to this button.
  const [mounted, setMounted] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
        onPointerEnter={() => void loadDialog()}
      >
        <CalendarDays aria-hidden="true" className="h-4 w-4" />
        Calendar
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <CalendarDialog open={open} onOpenChange={setOpen} {...props} />
        </Suspense>
      ) : null}
    </>
  );
}
