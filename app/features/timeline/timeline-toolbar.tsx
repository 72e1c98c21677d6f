import { ChartGantt, Columns3, Grid3x3, type LucideIcon, Network, Ruler, Rows3, Users } from "lucide-react";
import type { ReactNode } from "react";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { cn } from "~/lib/cn";
import type { TimelineLayout } from "~/features/timeline/timeline-view";

// The Map layout (xyflow and its CSS): loaded only when opened (or when the pointer nears its button).
export const loadMindMap = () => import("~/features/mind-map/mind-map");
// The Relationships view (xyflow, dagre): the same.
export const loadRelationships = () => import("~/features/relationships/relationships-view");

/** The view's switches: story or chronological order, the layout, and the lanes' grouping. */
export function TimelineToolbar({
  chronological,
  layout,
  laneKind,
  onOrder,
  onLayout,
  onLaneKind,
}: {
  chronological: boolean;
  layout: TimelineLayout;
  laneKind: LaneKind;
  onOrder: (order: "chronological" | null) => void;
  onLayout: (layout: TimelineLayout) => void;
  onLaneKind: (kind: LaneKind) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
        <legend className="sr-only">Order</legend>
        <LayoutButton active={!chronological} onClick={() => onOrder(null)}>
          Story order
        </LayoutButton>
        <LayoutButton active={chronological} onClick={() => onOrder("chronological")}>
          Chronological
        </LayoutButton>
      </fieldset>
      <fieldset className="inline-flex flex-wrap rounded-md border border-stone-300 bg-white p-0.5">
        <legend className="sr-only">Layout</legend>
        <LayoutButton active={layout === "vertical"} onClick={() => onLayout("vertical")} icon={Rows3}>
          Vertical
        </LayoutButton>
        <LayoutButton active={layout === "horizontal"} onClick={() => onLayout("horizontal")} icon={Columns3}>
          Horizontal
        </LayoutButton>
        <LayoutButton active={layout === "lanes"} onClick={() => onLayout("lanes")} icon={ChartGantt}>
          Lanes
        </LayoutButton>
        <LayoutButton active={layout === "grid"} onClick={() => onLayout("grid")} icon={Grid3x3}>
          Grid
        </LayoutButton>
        <LayoutButton active={layout === "ruler"} onClick={() => onLayout("ruler")} icon={Ruler}>
          Ruler
        </LayoutButton>
        <LayoutButton active={layout === "map"} onClick={() => onLayout("map")} onPointerEnter={() => void loadMindMap()} icon={Network}>
          Map
        </LayoutButton>
        <LayoutButton
          active={layout === "relationships"}
          onClick={() => onLayout("relationships")}
          onPointerEnter={() => void loadRelationships()}
          icon={Users}
        >
          Relationships
        </LayoutButton>
      </fieldset>
      {layout === "lanes" ? (
        <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
          <legend className="sr-only">Lanes by</legend>
          <LayoutButton active={laneKind === "character"} onClick={() => onLaneKind("character")}>
            By character
          </LayoutButton>
          <LayoutButton active={laneKind === "place"} onClick={() => onLaneKind("place")}>
            By place
          </LayoutButton>
        </fieldset>
      ) : null}
    </div>
  );
}

function LayoutButton({
  active,
  onClick,
  onPointerEnter,
  icon: Icon,
  children,
}: {
  active: boolean;
  onClick: () => void;
  onPointerEnter?: () => void;
  icon?: LucideIcon;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      onPointerEnter={onPointerEnter}
      className={cn(
        "inline-flex items-center gap-1.5 rounded px-2.5 py-1 text-sm font-medium",
        active ? "bg-brand-600 text-white" : "text-stone-700 hover:bg-stone-100",
      )}
    >
      {Icon ? <Icon aria-hidden="true" className="h-4 w-4" /> : null}
      {children}
    </button>
  );
}
