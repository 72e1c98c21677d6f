import type { AccessEnd } from "~/features/co-writing/co-editor-context";
import type { ApiClient } from "~/lib/client";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { PlotlinesButton } from "~/features/plotlines/plotline-kit";
import { ReviewTools } from "~/features/review/review-kit";
import { ReaderLinksButton } from "~/features/share/reader-links-panel";
import { TimelineToolbar } from "~/features/timeline/timeline-toolbar";
import type { TimelineLayout } from "~/features/timeline/timeline-view";
import type { PlotlineView } from "../../../worker/services/plotlines";
import type { TimelineView } from "../../../worker/services/timelines";

/**
 * The Events heading's row: the way to the codex on narrow screens, the view's switches, and the kits' tools
 * (Comments and Activity for everyone; Plotlines, and the owner's Calendar, for writers).
 */
export function EventsBar({
  timeline,
  shareCode,
  myUserId,
  canEdit,
  isOwner,
  ended,
  codexSize,
  plotlines,
  client,
  refresh,
  onJump,
  chronological,
  layout,
  laneKind,
  onOrder,
  onLayout,
  onLaneKind,
}: {
  timeline: TimelineView;
  shareCode?: string | null;
  myUserId: number;
  canEdit: boolean;
  isOwner: boolean;
  ended: AccessEnd | null;
  codexSize: number;
  plotlines: PlotlineView[];
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
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
      <h2 className="text-lg font-semibold">Events</h2>
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
      <ReviewTools
        timelineId={timeline.id}
        shareCode={shareCode ?? null}
        myUserId={myUserId}
        canEdit={canEdit}
        isOwner={isOwner}
        canComment={canEdit || (timeline.viewersCanComment && !ended)}
        onJump={onJump}
      />
      {isOwner ? <ReaderLinksButton timelineId={timeline.id} /> : null}
      {canEdit ? (
        <PlotlinesButton
          timelineId={timeline.id}
          api={{ shareCode, client }}
          plotlines={plotlines}
          onChanged={refresh}
          canDelete={isOwner}
        />
      ) : null}
    </div>
  );
}
