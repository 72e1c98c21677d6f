import { ChartGantt, ChevronDown, Columns3, Grid3x3, type LucideIcon, Network, PanelsTopLeft, Ruler, Rows3, Users } from "lucide-react";
import type { ComponentProps } from "react";
import type { TimelineLayout } from "~/features/timeline/timeline-view";
import { Button } from "~/ui/button";

// The Map layout (xyflow and its CSS): loaded only when opened (or when the pointer nears its menu item).
export const loadMindMap = () => import("~/features/mind-map/mind-map");
// The Relationships view (xyflow, dagre): the same.
export const loadRelationships = () => import("~/features/relationships/relationships-view");

/** The layouts, in the menu's order, with the names the screen gives them. */
export const LAYOUT_CHOICES: { value: TimelineLayout; label: string; Icon: LucideIcon; preload?: () => void }[] = [
  { value: "vertical", label: "Vertical", Icon: Rows3 },
  { value: "horizontal", label: "Horizontal", Icon: Columns3 },
  { value: "lanes", label: "Lanes", Icon: ChartGantt },
  { value: "grid", label: "Grid", Icon: Grid3x3 },
  { value: "ruler", label: "Ruler", Icon: Ruler },
  { value: "map", label: "Map", Icon: Network, preload: () => void loadMindMap() },
  { value: "relationships", label: "Relationships", Icon: Users, preload: () => void loadRelationships() },
];

export const layoutChoice = (layout: TimelineLayout) => LAYOUT_CHOICES.find((c) => c.value === layout) ?? LAYOUT_CHOICES[0];

/** One entry of the Panels menu: a dialog of the timeline screen (Comments, Activity, Plotlines…). */
export type PanelChoice = {
  key: string;
  label: string;
  Icon: LucideIcon;
  onSelect: () => void;
  /** Its code, loaded as the pointer or focus reaches the entry. */
  preload?: () => void;
  /** Offline, for an entry that needs the network: disabled, described by the 'You're offline' note. */
  offlineNote?: string;
};

export type LayoutMenuProps = { layout: TimelineLayout; onLayout: (layout: TimelineLayout) => void };
export type PanelsMenuProps = { panels: PanelChoice[] };

/** 'Layout: Vertical': the layout menu's button, naming the current layout. */
export function LayoutTrigger({ layout, ...props }: ComponentProps<"button"> & { layout: TimelineLayout }) {
  const { label, Icon } = layoutChoice(layout);
  return (
    <Button size="sm" variant="outline" {...props}>
      <Icon aria-hidden="true" className="h-4 w-4" />
      {`Layout: ${label}`}
      <ChevronDown aria-hidden="true" className="h-4 w-4 opacity-60" />
    </Button>
  );
}

/** 'Panels': the timeline's dialogs (Comments, Activity, Plotlines, Calendar, Reader links) behind one button. */
export function PanelsTrigger(props: ComponentProps<"button">) {
  return (
    <Button size="sm" variant="outline" {...props}>
      <PanelsTopLeft aria-hidden="true" className="h-4 w-4" />
      Panels
      <ChevronDown aria-hidden="true" className="h-4 w-4 opacity-60" />
    </Button>
  );
}
