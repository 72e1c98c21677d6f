import { BookOpen, CalendarDays, History, MessageSquare, Spline } from "lucide-react";
import { type ReactNode, Suspense, lazy, useState } from "react";
import { CalendarPanel, loadCalendar } from "~/features/calendar/calendar-button";
import type { AccessEnd } from "~/features/co-writing/co-editor-context";
import { useOfflineLock } from "~/features/offline/offline-lock";
import type { ApiClient } from "~/lib/client";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { PlotlinesDialog, loadManager } from "~/features/plotlines/plotline-controls";
import { usePlotlines } from "~/features/plotlines/plotline-queries";
import { type ReviewPanel, ReviewTools, loadActivity, loadComments } from "~/features/review/review-dialogs";
import type { PanelChoice } from "~/features/timeline/desk-menu-parts";
import { PanelsMenu } from "~/features/timeline/desk-menus";
import { TimelineToolbar } from "~/features/timeline/timeline-toolbar";
import type { TimelineLayout } from "~/features/timeline/timeline-view";
import type { TimelineView } from "../../../worker/services/timelines";

type Panel = Exclude<ReviewPanel, null> | "plotlines" | "calendar" | "readers" | null;

// The owner's Reader links dialog (its list, form and copy buttons): loaded when the pointer or focus reaches its
// menu entry, or when it opens.
const loadReaderLinks = () => import("~/features/share/reader-links-panel");
const ReaderLinksDialog = lazy(() => loadReaderLinks().then((m) => ({ default: m.ReaderLinksDialog })));

/**
 * The Events heading's row: the way to the codex on narrow screens, the view's switches (order, the layout menu),
 * and the Panels menu: Comments and Activity for everyone; Plotlines for writers; Calendar and Reader links for
 * the owner. Each entry opens its dialog.
 */
export function EventsBar({
  timeline,
  shareCode,
  myUserId,
  canEdit,
  isOwner,
  ended,
  codexSize,
  client,
  refresh,
  onJump,
  chronological,
  layout,
  laneKind,
  onOrder,
  onLayout,
  onLaneKind,
  sideToggle,
}: {
  timeline: TimelineView;
  shareCode?: string | null;
  myUserId: number;
  canEdit: boolean;
  isOwner: boolean;
  ended: AccessEnd | null;
  codexSize: number;
  /** The timeline session's typed client. */
  client: ApiClient;
  refresh: () => void;
  /** An activity entry's scene, brought into view. */
  onJump: (eventId: number) => void;
  chronological: boolean;
  layout: TimelineLayout;
  laneKind: LaneKind;
  onOrder: (order: "chronological" | null) => void;
  onLayout: (layout: TimelineLayout) => void;
  onLaneKind: (kind: LaneKind) => void;
  /** 'Hide side panel' | 'Show side panel' (wide screens): in this row, not a row of its own above the scenes. */
  sideToggle?: ReactNode;
}) {
  const [panel, setPanel] = useState<Panel>(null);
  // Reader links stays mounted once opened, so its dialog can close as the others do.
  const [readersOpened, setReadersOpened] = useState(false);
  if (panel === "readers" && !readersOpened) setReadersOpened(true);
  const plotlines = usePlotlines();
  const { lock, note } = useOfflineLock();
  const shut = (open: boolean) => (open ? undefined : setPanel(null));
  const panels: PanelChoice[] = [
    { key: "comments", label: "Comments", Icon: MessageSquare, onSelect: () => setPanel("comments"), preload: () => void loadComments() },
    { key: "activity", label: "Activity", Icon: History, onSelect: () => setPanel("activity"), preload: () => void loadActivity() },
  ];
  if (canEdit) {
    panels.push({
      key: "plotlines",
      label: `Plotlines${plotlines.length ? ` (${plotlines.length})` : ""}`,
      Icon: Spline,
      onSelect: () => setPanel("plotlines"),
      preload: () => void loadManager(),
    });
  }
  if (canEdit && isOwner) {
    panels.push({
      key: "calendar",
      label: "Calendar",
      Icon: CalendarDays,
      onSelect: () => setPanel("calendar"),
      preload: () => void loadCalendar(),
    });
  }
  if (isOwner) {
    panels.push({
      key: "readers",
      label: "Reader links",
      Icon: BookOpen,
      onSelect: () => setPanel("readers"),
      preload: () => void loadReaderLinks(),
      offlineNote: lock["aria-describedby"],
    });
  }
  return (
    <div data-testid="events-bar" className="mb-4 flex flex-wrap items-center gap-2">
      <h2 className="mr-auto text-lg font-semibold">Events</h2>
      <a href="#codex" className="text-sm font-medium text-brand-700 hover:underline lg:hidden">
        Jump to Codex ({codexSize})
      </a>
      <TimelineToolbar
        chronological={chronological}
        layout={layout}
        laneKind={laneKind}
        onOrder={onOrder}
        onLayout={onLayout}
        onLaneKind={onLaneKind}
      />
      <PanelsMenu panels={panels} />
      {sideToggle ? <div className="hidden lg:block">{sideToggle}</div> : null}
      {isOwner ? note : null}
      <ReviewTools
        timelineId={timeline.id}
        shareCode={shareCode ?? null}
        myUserId={myUserId}
        canEdit={canEdit}
        isOwner={isOwner}
        canComment={canEdit || (timeline.viewersCanComment && !ended)}
        onJump={onJump}
        panel={panel === "comments" || panel === "activity" ? panel : null}
        onPanel={setPanel}
      />
      {isOwner && readersOpened ? (
        <Suspense fallback={null}>
          <ReaderLinksDialog timelineId={timeline.id} open={panel === "readers"} onOpenChange={shut} />
        </Suspense>
      ) : null}
      {canEdit ? <PlotlinesDialog open={panel === "plotlines"} onOpenChange={shut} canDelete={isOwner} /> : null}
      {canEdit && isOwner ? (
        <CalendarPanel
          open={panel === "calendar"}
          onOpenChange={shut}
          timelineId={timeline.id}
          shareCode={shareCode}
          client={client}
          onSaved={refresh}
        />
      ) : null}
    </div>
  );
}
