import { type ReactNode, Suspense, lazy } from "react";
import type { MindMapProps } from "~/features/mind-map/types";
import { type CoWriteApi, CoWriteContext } from "~/features/co-writing/co-editor-context";
import type { CardCodex, StoryHints } from "~/features/timeline/event-card";
import { useEventActions } from "~/features/timeline/event-actions";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { TimelineEvents } from "~/features/timeline/timeline-events";
import { loadMindMap, loadRelationships } from "~/features/timeline/desk-menu-parts";
import { Card } from "~/ui/card";
import type { TimelineLayout } from "~/features/timeline/timeline-view";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";

// The Lanes layout: loaded only when opened.
const LanesView = lazy(() => import("~/features/timeline/lanes-view").then((m) => ({ default: m.LanesView })));
const MindMapView = lazy(loadMindMap);
const RelationshipsView = lazy(loadRelationships);
type RelationshipsProps = import("~/features/relationships/relationships-view").RelationshipsViewProps;
// The Grid layout (plotlines by chapters): loaded only when opened.
const PlotlineGrid = lazy(() => import("~/features/plotlines/plotline-grid").then((m) => ({ default: m.PlotlineGrid })));
type GridProps = import("~/features/plotlines/plotline-grid").GridProps;
// The time ruler (scenes at their true distance in story time): loaded only when opened.
const TimeRuler = lazy(() => import("~/features/story-time/time-ruler").then((m) => ({ default: m.TimeRuler })));

export type ListProps = {
  jumpers: Set<(eventId: number) => boolean>;
  canEdit: boolean;
  canReorder: boolean;
  /** Story order while the rest of the events load: the handles show, usable once they are all here. */
  reorderLater?: boolean;
  canDelete: boolean;
  codex: CardCodex;
  hints: (event: EventView) => StoryHints;
  writingHere: (eventId: number) => string | null;
  onMove: (eventId: number, from: number, to: number) => void;
  onDragging: (active: boolean) => void;
};

/** The events in the chosen layout: the map, the lanes, or the list (dated, then undated), or why there are none. */
export function TimelineBody({
  layout,
  empty,
  emptyView,
  dated,
  undated,
  missing,
  entities,
  laneKind,
  chapters,
  coWrite,
  map,
  list,
  chaptered,
  onOpenFromLanes,
  grid,
  relationships,
}: {
  layout: TimelineLayout;
  /** The timeline has no event at all. */
  empty: boolean;
  /** The view shows none: what to say instead. */
  emptyView: string | null;
  dated: EventView[];
  undated: EventView[];
  /** Rows the view still lacks until every event is here. */
  missing: number;
  entities: EntityView[];
  laneKind: LaneKind;
  /** The timeline's chapters, once loaded (the lanes' cards name theirs). */
  chapters?: { id: number; title: string }[];
  coWrite: CoWriteApi;
  map: MindMapProps;
  list: ListProps;
  /** The list in chapters, when the timeline has any (story order, list layouts). */
  chaptered?: ReactNode;
  onOpenFromLanes: (event: EventView) => void;
  /** The grid's own props (its events and chapters come from here). */
  grid: Omit<GridProps, "events" | "chapters" | "onOpen">;
  /** The Relationships view's props (the codex, the scenes in story order). */
  relationships: RelationshipsProps;
}) {
  const actions = useEventActions();
  const { timelineId, shareCode } = useTimelineSession();
  if (layout === "map") {
    return (
      <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading map...</Card>}>
        <MindMapView {...map} />
      </Suspense>
    );
  }
  if (layout === "relationships") {
    return (
      <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading relationships...</Card>}>
        <RelationshipsView {...relationships} />
      </Suspense>
    );
  }
  if (layout === "grid") {
    return (
      <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading grid...</Card>}>
        {chapters ? (
          <PlotlineGrid {...grid} events={[...dated, ...undated]} chapters={chapters} onOpen={onOpenFromLanes} />
        ) : (
          <Card className="p-10 text-center text-stone-700">Loading grid...</Card>
        )}
      </Suspense>
    );
  }
  if (empty) return <Card className="p-10 text-center text-stone-700">No events yet. Add your first event to this timeline!</Card>;
  if (emptyView !== null) return <Card className="p-10 text-center text-stone-700">{emptyView}</Card>;
  if (layout === "lanes") {
    return (
      <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading lanes...</Card>}>
        <LanesView
          events={[...dated, ...undated]}
          entities={entities}
          chapters={chapters}
          kind={laneKind}
          scenes={relationships.scenes}
          onOpenEvent={onOpenFromLanes}
          onLink={list.codex.onLink}
          onSave={actions.save}
        />
      </Suspense>
    );
  }
  if (layout === "ruler") {
    return (
      <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading ruler...</Card>}>
        <TimeRuler timelineId={timelineId} shareCode={shareCode} events={[...dated, ...undated]} onOpen={onOpenFromLanes} />
      </Suspense>
    );
  }
  const listProps = { ...list, layout };
  if (chaptered) return <CoWriteContext.Provider value={coWrite}>{chaptered}</CoWriteContext.Provider>;
  return (
    <CoWriteContext.Provider value={coWrite}>
      {dated.length || (missing && !undated.length) ? (
        <TimelineEvents events={dated} pending={undated.length ? 0 : missing} {...listProps} />
      ) : null}
      {undated.length ? (
        <>
          <h3 className="mt-8 mb-4 text-base font-semibold text-stone-700">Undated</h3>
          <TimelineEvents events={undated} pending={missing} {...listProps} />
        </>
      ) : null}
    </CoWriteContext.Provider>
  );
}
