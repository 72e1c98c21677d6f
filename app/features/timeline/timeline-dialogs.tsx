import { Suspense, lazy, useEffect, useState } from "react";
import { loadForms, loadShareDialog } from "~/features/timeline/dialog-loaders";
import { ConfirmDialog } from "~/ui/dialog";
import type { EventView } from "../../../worker/services/events";
import type { AddPreset } from "~/features/plotlines/plotline-grid";

const ShareDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareDialog })));

const EventDialog = lazy(() => loadForms().then((m) => ({ default: m.EventDialog })));

/** True from the first time `open` is: a dialog stays mounted after closing, so it can animate out. */
function useMountedOnce(open: boolean) {
  const [mounted, setMounted] = useState(open);
  useEffect(() => {
    if (open) setMounted(true);
  }, [open]);
  return mounted || open;
}

/**
 * The timeline screen's dialogs: Share (owners on Premium), Add Event, and the delete confirmation. Loaded when
 * the first of them opens (timeline-screen.tsx).
 */
export function TimelineDialogs({
  timelineId,
  shareCode,
  canShare,
  sharing,
  onSharing,
  adding,
  onAdding,
  deleting,
  deletePending,
  onDeleting,
  onConfirmDelete,
}: {
  timelineId: number;
  shareCode?: string | null;
  canShare: boolean;
  sharing: boolean;
  onSharing: (open: boolean) => void;
  /** Open; with a grid cell's chapter and plotline to give the new event. */
  adding: boolean | AddPreset;
  onAdding: (open: boolean) => void;
  deleting: EventView | null;
  deletePending: boolean;
  onDeleting: (event: EventView | null) => void;
  onConfirmDelete: (event: EventView) => void;
}) {
  const shareMounted = useMountedOnce(sharing);
  const addMounted = useMountedOnce(adding !== false);
  return (
    <>
      {canShare && shareMounted ? (
        <Suspense fallback={null}>
          <ShareDialog open={sharing} onOpenChange={onSharing} timelineId={timelineId} />
        </Suspense>
      ) : null}
      {addMounted ? (
        <Suspense fallback={null}>
          <EventDialog
            open={adding !== false}
            onOpenChange={onAdding}
            timelineId={timelineId}
            shareCode={shareCode}
            preset={typeof adding === "object" ? adding : undefined}
          />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && onDeleting(null)}
        title="Delete this event?"
        description={`"${deleting?.title ?? ""}" will move to Trash for 30 days.`}
        confirmLabel="Delete Event"
        pendingLabel="Deleting..."
        pending={deletePending}
        onConfirm={() => (deleting ? onConfirmDelete(deleting) : undefined)}
      />
    </>
  );
}
