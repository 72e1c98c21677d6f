import type { ReactNode } from "react";
import { LayoutMenu } from "~/features/timeline/desk-menus";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { cn } from "~/lib/cn";
import type { TimelineLayout } from "~/features/timeline/timeline-view";

/** The view's switches: story or chronological order, the layout (one menu), and the lanes' grouping. */
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
    <>
      <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
        <legend className="sr-only">Order</legend>
        <ToggleButton active={!chronological} onClick={() => onOrder(null)}>
          Story order
        </ToggleButton>
        <ToggleButton active={chronological} onClick={() => onOrder("chronological")}>
          Chronological
        </ToggleButton>
      </fieldset>
      <LayoutMenu layout={layout} onLayout={onLayout} />
      {layout === "lanes" ? (
        <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
          <legend className="sr-only">Lanes by</legend>
          <ToggleButton active={laneKind === "character"} onClick={() => onLaneKind("character")}>
            By character
          </ToggleButton>
          <ToggleButton active={laneKind === "place"} onClick={() => onLaneKind("place")}>
            By place
          </ToggleButton>
        </fieldset>
      ) : null}
    </>
  );
}

function ToggleButton({ active, onClick, children }: { active: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        "inline-flex items-center gap-1.5 rounded px-2.5 py-0.5 text-sm font-medium",
        active ? "bg-brand-600 text-white" : "text-stone-700 hover:bg-stone-100",
      )}
    >
      {children}
    </button>
  );
}
