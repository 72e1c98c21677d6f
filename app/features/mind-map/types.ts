import type { Node } from "@xyflow/react";
import type { MapNodeView } from "../../../worker/services/mind-map";

export type MindMapProps = {
  timelineId: number;
  shareCode?: string | null;
  canEdit: boolean;
  premium: boolean;
  /** Bumped whenever the room says data changed (map or not): the map refetches. */
  syncTick: number;
  /** The events the timeline's filters keep (null: every event): the others' nodes are hidden. */
  shownEventIds?: ReadonlySet<number> | null;
  /** The timeline's scenes in story order: 'As of scene' reads each codex entry's state then (its progressions). */
  scenes?: { id: number; title: string }[];
  onOpenEvent: (eventId: number) => void;
  onOpenEntity: (entityId: number) => void;
  /** Drawing an edge between an event and a codex entry links them (the event's PATCH). */
  onLink: (eventId: number, entityId: number) => Promise<boolean>;
};

export type NodeData = { view: MapNodeView };
export type MapFlowNode = Node<NodeData>;
export type Point = { x: number; y: number };
export type Move = { id: string } & Point;

export const NODE_W = 180;
export const NODE_H = 52;
// Every node counts, drawn or not (xyflow draws only the nodes in view, and by default fits only drawn ones).
// A story too big to fit at a zoom whose labels can be read is shown at that zoom instead (pan or zoom out for
// the rest): a fit that shrinks a hundred scenes to specks shows nothing a writer can use.
export const FIT = { padding: 0.2, maxZoom: 1, minZoom: 0.6, includeHiddenNodes: true };

const KIND_TEXT = { event: "Event", idea: "Idea", group: "Group" } as const;
export const kindText = (v: MapNodeView) =>
  v.kind === "entity" ? (v.entityKind ? v.entityKind[0].toUpperCase() + v.entityKind.slice(1) : "Entry") : KIND_TEXT[v.kind];

/** Where the automatic layout puts each node: `[id, x, y]`. */
export type LayoutOutput = [id: string, x: number, y: number][];
