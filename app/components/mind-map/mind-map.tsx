import "@xyflow/react/dist/style.css";
import dagre from "@dagrejs/dagre";
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  Handle,
  MarkerType,
  MiniMap,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  getNodesBounds,
  getViewportForBounds,
  useNodesState,
  useReactFlow,
} from "@xyflow/react";
import { toPng, toSvg } from "html-to-image";
import { Download, Lightbulb, Sparkles, SquareDashed } from "lucide-react";
import { createContext, memo, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { cn } from "~/lib/cn";
import { errorToast, showToast } from "~/lib/toast";
import { MAP_ADVANCED_IS_PREMIUM, mapEdgeLabels, mapLimits, mapRowId } from "../../../db/rules";
import type { MapNodeView, MindMap } from "../../../worker/services/mind-map";

// The Map layout (issue 15; README "Mind map"). Loaded only when opened (React.lazy in timeline-screen.tsx),
// with xyflow's CSS. Events and codex entries as nodes, their links as edges; Premium adds idea and group
// nodes, labeled edges and export.

export type MindMapProps = {
  timelineId: number;
  shareCode?: string | null;
  canEdit: boolean;
  premium: boolean;
  roomHeaders: Record<string, string>;
  /** Bumped whenever the room says data changed (map or not): the map refetches. */
  syncTick: number;
  onOpenEvent: (eventId: number) => void;
  onOpenEntity: (entityId: number) => void;
  /** Drawing an edge between an event and a codex entry links them (the event's PATCH). */
  onLink: (eventId: number, entityId: number) => Promise<boolean>;
};

type NodeData = { view: MapNodeView };
type MapFlowNode = Node<NodeData>;

const NODE_W = 180;
const NODE_H = 52;
const KIND_TEXT = { event: "Event", idea: "Idea", group: "Group" } as const;
const kindText = (v: MapNodeView) =>
  v.kind === "entity" ? (v.entityKind ? v.entityKind[0].toUpperCase() + v.entityKind.slice(1) : "Entry") : KIND_TEXT[v.kind];

/** Inline editing of an idea's text (Premium editors): which node is being edited, and how to finish. */
type EditState = { editingId: string | null; save: (id: string, text: string) => void; cancel: () => void };
const EditContext = createContext<EditState>({ editingId: null, save: () => {}, cancel: () => {} });

function IdeaTextEditor({ id, initial }: { id: string; initial: string }) {
  const { save, cancel } = useContext(EditContext);
  const [text, setText] = useState(initial);
  return (
    <input
      // biome-ignore lint/a11y/noAutofocus: the writer asked to edit this text (double-click, Enter or F2)
      autoFocus
      aria-label="Idea text (Enter saves, Escape cancels)"
      className="nodrag nopan nowheel w-full rounded border border-stone-300 px-1 text-sm font-medium text-ink"
      value={text}
      maxLength={mapLimits.text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === "Enter") {
          e.preventDefault();
          save(id, text);
        } else if (e.key === "Escape") {
          e.preventDefault();
          cancel();
        }
      }}
      onBlur={cancel}
    />
  );
}

const StoryNode = memo(function StoryNode({ id, data, selected, isConnectable }: NodeProps<MapFlowNode>) {
  const v = data.view;
  const { editingId } = useContext(EditContext);
  const accent = v.color ?? (v.kind === "idea" ? "#f59e0b" : "#78716c");
  return (
    <div
      className={cn(
        "rounded-lg border-2 bg-white px-3 py-2 text-sm shadow-sm",
        v.kind === "idea" && "bg-amber-50",
        v.kind === "entity" && "rounded-full",
        selected && "ring-2 ring-brand-600 ring-offset-2",
      )}
      style={{ borderColor: accent, width: NODE_W }}
    >
      <Handle type="target" position={Position.Top} isConnectable={isConnectable} />
      <div className="text-[10px] font-semibold tracking-wide text-stone-600 uppercase">{kindText(v)}</div>
      {editingId === id ? <IdeaTextEditor id={id} initial={v.label} /> : <div className="truncate font-medium text-ink">{v.label}</div>}
      <Handle type="source" position={Position.Bottom} isConnectable={isConnectable} />
    </div>
  );
});

const GroupNode = memo(function GroupNode({ data, selected }: NodeProps<MapFlowNode>) {
  const v = data.view;
  return (
    <div
      className={cn("h-full w-full rounded-xl border-2 border-dashed bg-stone-50/60 p-2", selected && "ring-2 ring-brand-600")}
      style={{ borderColor: v.color ?? "#a8a29e", width: v.width ?? 360, height: v.height ?? 240 }}
    >
      <div className="text-xs font-semibold text-stone-700">{v.label}</div>
    </div>
  );
});

// "mapGroup", not "group": xyflow styles its own "group" type with a second border and background.
const nodeTypes = { story: StoryNode, mapGroup: GroupNode };
const FIT = { padding: 0.2, maxZoom: 1 };

/**
 * Dagre places the nodes that have no saved position (a first view, or new events and entries). The layout
 * depends only on the graph, so placing one node by hand never moves the others; the first save after a
 * writer moves something stores every laid-out position too, so the layout stays put for everyone.
 */
const layoutCache = { key: "", positions: new Map<string, { x: number; y: number }>() };
function layoutUnplaced(map: MindMap) {
  const unplaced = map.nodes.filter((n) => n.x === null || n.y === null);
  if (unplaced.length === 0) return layoutCache.positions;
  const ids = new Set(map.nodes.filter((n) => n.kind !== "group").map((n) => n.id));
  const links = map.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const key = `${[...ids].join()}|${links.map((e) => e.id).join()}`;
  if (key === layoutCache.key) return layoutCache.positions;
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 90 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of ids) g.setNode(id, { width: NODE_W, height: NODE_H });
  for (const e of links) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const positions = new Map<string, { x: number; y: number }>();
  for (const id of ids) {
    const p = g.node(id);
    if (p) positions.set(id, { x: Math.round(p.x - NODE_W / 2), y: Math.round(p.y - NODE_H / 2) });
  }
  layoutCache.key = key;
  layoutCache.positions = positions;
  return positions;
}

function toFlowNodes(map: MindMap, canEdit: boolean, previous: Map<string, MapFlowNode>): MapFlowNode[] {
  const auto = layoutUnplaced(map);
  return map.nodes.map((v) => {
    const position = v.x !== null && v.y !== null ? { x: v.x, y: v.y } : (auto.get(v.id) ?? { x: 0, y: 0 });
    const before = previous.get(v.id);
    return {
      id: v.id,
      type: v.kind === "group" ? "mapGroup" : "story",
      position,
      data: before && before.data.view === v ? before.data : { view: v },
      selected: before?.selected ?? false,
      draggable: canEdit,
      connectable: canEdit && v.kind !== "group",
      zIndex: v.kind === "group" ? -1 : 0,
      ariaLabel: `${kindText(v)}: ${v.label}`,
      ...(v.kind === "group" ? { style: { width: v.width ?? 360, height: v.height ?? 240 } } : {}),
    };
  });
}

export default function MindMapView(props: MindMapProps) {
  return (
    <ReactFlowProvider>
      <MindMapInner {...props} />
    </ReactFlowProvider>
  );
}

function MindMapInner({ timelineId, shareCode, canEdit, premium, roomHeaders, syncTick, onOpenEvent, onOpenEntity, onLink }: MindMapProps) {
  const [map, setMap] = useState<MindMap | null>(null);
  const [nodes, setNodes, onNodesChangeBase] = useNodesState<MapFlowNode>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [ideaText, setIdeaText] = useState("");
  const [edgeLabel, setEdgeLabel] = useState("causes");
  const [edgeColor, setEdgeColor] = useState("#b45309");
  const [editingId, setEditingId] = useState<string | null>(null);
  const [selectedEdgeId, setSelectedEdgeId] = useState<string | null>(null);
  const { fitView } = useReactFlow();
  const query = useMemo(() => shareParam(shareCode), [shareCode]);
  const advanced = canEdit && premium;
  const dragging = useRef(false);
  const pendingLoad = useRef(false);
  const fitted = useRef(false);
  // Once the writer pans or zooms, a resize (window, phone rotation) no longer refits the view.
  const userMoved = useRef(false);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = container.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let last = { w: el.clientWidth, h: el.clientHeight };
    const observer = new ResizeObserver(() => {
      const next = { w: el.clientWidth, h: el.clientHeight };
      if (next.w === last.w && next.h === last.h) return;
      last = next;
      if (!userMoved.current && nodesRef.current.length > 0) requestAnimationFrame(() => void fitView(FIT));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [fitView]);

  const load = useCallback(async () => {
    if (dragging.current) {
      pendingLoad.current = true;
      return;
    }
    try {
      const next = await unwrap(client.api.timelines[":id"].map.$get({ param: { id: String(timelineId) }, query }));
      setMap(next);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to load the map"));
    }
  }, [timelineId, query]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: syncTick is the signal to refetch
  useEffect(() => {
    void load();
  }, [load, syncTick]);

  useEffect(() => {
    if (!map) return;
    setNodes((current) => toFlowNodes(map, canEdit, new Map(current.map((n) => [n.id, n]))));
  }, [map, canEdit, setNodes]);

  // A first view (and the view after adding a node) shows every node.
  useEffect(() => {
    if (!fitted.current && nodes.length > 0) {
      fitted.current = true;
      requestAnimationFrame(() => void fitView(FIT));
    }
  }, [nodes.length, fitView]);

  const edges = useMemo<Edge[]>(
    () =>
      (map?.edges ?? []).map((e) =>
        e.kind === "link"
          ? { id: e.id, source: e.source, target: e.target, style: { stroke: "#a8a29e", strokeDasharray: "4 3" }, ariaLabel: "Link" }
          : {
              id: e.id,
              source: e.source,
              target: e.target,
              label: e.label || undefined,
              style: { stroke: e.color ?? "#57534e", strokeWidth: 2 },
              markerEnd: { type: MarkerType.ArrowClosed, color: e.color ?? "#57534e" },
              labelStyle: { fontSize: 12, fontWeight: 600 },
              ariaLabel: e.label ? `Edge: ${e.label}` : "Edge",
              selectable: advanced,
              focusable: advanced,
              selected: e.id === selectedEdgeId,
            },
      ),
    [map, advanced, selectedEdgeId],
  );

  const nodesRef = useRef<MapFlowNode[]>([]);
  nodesRef.current = nodes;
  const savePositions = useCallback(
    async (moved: { id: string; x: number; y: number }[]) => {
      if (!canEdit || moved.length === 0) return;
      // Nodes still where the automatic layout put them are saved along: the layout stays as everyone sees it.
      const ids = new Set(moved.map((m) => m.id));
      const laidOut = nodesRef.current
        .filter((n) => !ids.has(n.id) && (n.data.view.x === null || n.data.view.y === null))
        .map((n) => ({ id: n.id, x: n.position.x, y: n.position.y }));
      const all = [...laidOut, ...moved].map((m) => ({ node: m.id, x: m.x, y: m.y }));
      try {
        for (let i = 0; i < all.length; i += mapLimits.positions) {
          await unwrap(
            client.api.timelines[":id"].map.positions.$put(
              { param: { id: String(timelineId) }, query, json: { positions: all.slice(i, i + mapLimits.positions) } },
              { headers: roomHeaders },
            ),
          );
        }
        // Our own write is not echoed: reload once so the laid-out nodes count as placed here too.
        if (laidOut.length) void load();
      } catch (error) {
        errorToast(errorMessage(error, "Failed to save the map"));
        void load();
      }
    },
    [canEdit, timelineId, query, roomHeaders, load],
  );

  // Arrow keys move the selected nodes (xyflow's keyboard support): saved once the keys rest.
  const keyMoves = useRef(new Map<string, { id: string; x: number; y: number }>());
  const keyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const onNodesChange = useCallback(
    (changes: NodeChange<MapFlowNode>[]) => {
      onNodesChangeBase(changes);
      for (const c of changes) {
        if (c.type === "select" && c.selected) setSelectedId(c.id);
        if (c.type === "select" && !c.selected) setSelectedId((s) => (s === c.id ? null : s));
        if (c.type === "position" && c.position && !c.dragging && !dragging.current) {
          keyMoves.current.set(c.id, { id: c.id, x: c.position.x, y: c.position.y });
        }
      }
      if (keyMoves.current.size > 0) {
        clearTimeout(keyTimer.current);
        keyTimer.current = setTimeout(() => {
          const moved = [...keyMoves.current.values()];
          keyMoves.current.clear();
          void savePositions(moved);
        }, 300);
      }
    },
    [onNodesChangeBase, savePositions],
  );

  // Groups (Premium): an idea dropped inside a group's box belongs to it; a group carries its ideas when moved.
  const dragStart = useRef(new Map<string, { x: number; y: number }>());
  const onNodeDragStart = useCallback((_: unknown, _node: MapFlowNode, dragged: MapFlowNode[]) => {
    dragging.current = true;
    dragStart.current = new Map(dragged.map((n) => [n.id, { ...n.position }]));
  }, []);
  const setParent = useCallback(
    async (v: MapNodeView, parentId: string | null) => {
      try {
        await unwrap(
          client.api["map-nodes"][":id"].$patch({ param: { id: mapRowId(v.id) }, query, json: { parentId } }, { headers: roomHeaders }),
        );
      } catch (error) {
        errorToast(errorMessage(error, "Failed to update the map"));
      }
    },
    [query, roomHeaders],
  );
  const onNodeDragStop = useCallback(
    async (_: unknown, _node: MapFlowNode, dragged: MapFlowNode[]) => {
      dragging.current = false;
      const moved = dragged.map((n) => ({ id: n.id, x: n.position.x, y: n.position.y }));
      const all = nodesRef.current;
      const ids = new Set(moved.map((m) => m.id));
      let grouping = false;
      if (advanced) {
        for (const n of dragged) {
          const v = n.data.view;
          if (v.kind === "group") {
            const start = dragStart.current.get(n.id);
            if (!start) continue;
            const dx = n.position.x - start.x;
            const dy = n.position.y - start.y;
            const members = all.filter((m) => m.data.view.parentId === v.id && !ids.has(m.id));
            for (const m of members) moved.push({ id: m.id, x: m.position.x + dx, y: m.position.y + dy });
            if (members.length) {
              const shifted = new Map(members.map((m) => [m.id, { x: m.position.x + dx, y: m.position.y + dy }]));
              setNodes((list) =>
                list.map((m) => (shifted.has(m.id) ? { ...m, position: shifted.get(m.id) as { x: number; y: number } } : m)),
              );
            }
          } else if (v.kind === "idea") {
            const cx = n.position.x + NODE_W / 2;
            const cy = n.position.y + NODE_H / 2;
            const group = all.find(
              (g) =>
                g.data.view.kind === "group" &&
                cx >= g.position.x &&
                cx <= g.position.x + (g.data.view.width ?? 360) &&
                cy >= g.position.y &&
                cy <= g.position.y + (g.data.view.height ?? 240),
            );
            const parentId = group?.id ?? null;
            if (parentId !== v.parentId) {
              grouping = true;
              await setParent(v, parentId);
            }
          }
        }
      }
      await savePositions(moved);
      if (pendingLoad.current || grouping) {
        pendingLoad.current = false;
        void load();
      }
    },
    [advanced, savePositions, setParent, setNodes, load],
  );

  const viewOf = useCallback((id: string) => map?.nodes.find((n) => n.id === id) ?? null, [map]);

  const onConnect = useCallback(
    async (c: Connection) => {
      if (!canEdit || !c.source || !c.target || c.source === c.target) return;
      const [a, b] = [viewOf(c.source), viewOf(c.target)];
      if (!a || !b) return;
      const event = a.kind === "event" ? a : b.kind === "event" ? b : null;
      const entity = a.kind === "entity" ? a : b.kind === "entity" ? b : null;
      if (event && entity && event.refId && entity.refId) {
        if (await onLink(event.refId, entity.refId)) void load();
        return;
      }
      if (!premium) {
        errorToast(MAP_ADVANCED_IS_PREMIUM);
        return;
      }
      try {
        await unwrap(
          client.api.timelines[":id"].map.edges.$post(
            { param: { id: String(timelineId) }, query, json: { source: c.source, target: c.target, label: edgeLabel, color: edgeColor } },
            { headers: roomHeaders },
          ),
        );
        void load();
      } catch (error) {
        errorToast(errorMessage(error, "Failed to add the edge"));
      }
    },
    [canEdit, premium, viewOf, onLink, load, timelineId, query, roomHeaders, edgeLabel, edgeColor],
  );

  // A new idea or group goes below everything, where it covers nothing; the view then fits it in.
  const freeSpot = () => {
    if (nodes.length === 0) return { x: 0, y: 0 };
    const bounds = getNodesBounds(nodes);
    return { x: Math.round(bounds.x), y: Math.round(bounds.y + bounds.height + 60) };
  };
  async function addNode(kind: "idea" | "group") {
    const text = kind === "idea" ? ideaText.trim() : "New group";
    if (!text) {
      errorToast("Text is required");
      return;
    }
    try {
      const p = freeSpot();
      await unwrap(
        client.api.timelines[":id"].map.nodes.$post(
          { param: { id: String(timelineId) }, query, json: { kind, text: text.slice(0, mapLimits.text), x: p.x, y: p.y } },
          { headers: roomHeaders },
        ),
      );
      setIdeaText("");
      fitted.current = false;
      showToast({ title: "Success", description: kind === "idea" ? "Idea added to the map" : "Group added to the map" });
      void load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to add to the map"));
    }
  }

  async function removeNode(v: MapNodeView) {
    try {
      await unwrap(client.api["map-nodes"][":id"].$delete({ param: { id: mapRowId(v.id) }, query }, { headers: roomHeaders }));
      setSelectedId(null);
      void load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to delete from the map"));
    }
  }

  const saveText = useCallback(
    async (id: string, text: string) => {
      const v = map?.nodes.find((n) => n.id === id);
      if (!v || text.trim() === v.label) {
        setEditingId(null);
        return;
      }
      try {
        await unwrap(
          client.api["map-nodes"][":id"].$patch({ param: { id: mapRowId(id) }, query, json: { text } }, { headers: roomHeaders }),
        );
        setEditingId(null);
        void load();
      } catch (error) {
        // The editor stays open with the text, so the writer can fix it.
        errorToast(errorMessage(error, "Failed to update the map"));
      }
    },
    [map, query, roomHeaders, load],
  );
  const cancelEdit = useCallback(() => setEditingId(null), []);
  const editState = useMemo<EditState>(
    () => ({ editingId, save: (id, text) => void saveText(id, text), cancel: cancelEdit }),
    [editingId, saveText, cancelEdit],
  );
  const startEdit = (v: MapNodeView | null) => {
    if (advanced && v?.kind === "idea") setEditingId(v.id);
  };

  const selectedEdge = useMemo(() => {
    const e = map?.edges.find((x) => x.id === selectedEdgeId);
    return e?.kind === "custom" ? e : null;
  }, [map, selectedEdgeId]);
  async function updateEdge(id: string, json: { label: string; color: string }) {
    try {
      await unwrap(client.api["map-edges"][":id"].$patch({ param: { id: mapRowId(id) }, query, json }, { headers: roomHeaders }));
      showToast({ title: "Success", description: "Connection updated" });
      void load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to update the connection"));
    }
  }
  async function removeEdge(id: string) {
    try {
      await unwrap(client.api["map-edges"][":id"].$delete({ param: { id: mapRowId(id) }, query }, { headers: roomHeaders }));
      setSelectedEdgeId(null);
      void load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to delete the connection"));
    }
  }

  async function exportAs(format: "png" | "svg") {
    const viewport = document.querySelector<HTMLElement>(".storyweave-map .react-flow__viewport");
    if (!viewport || nodes.length === 0) return;
    const bounds = getNodesBounds(nodes);
    const width = Math.min(4000, Math.max(400, bounds.width + 80));
    const height = Math.min(4000, Math.max(300, bounds.height + 80));
    const vp = getViewportForBounds(bounds, width, height, 0.1, 2, 0.05);
    const options = {
      backgroundColor: "#ffffff",
      width,
      height,
      style: { width: `${width}px`, height: `${height}px`, transform: `translate(${vp.x}px, ${vp.y}px) scale(${vp.zoom})` },
    };
    try {
      const url = format === "png" ? await toPng(viewport, options) : await toSvg(viewport, options);
      const a = document.createElement("a");
      a.href = url;
      a.download = `mind-map.${format}`;
      a.click();
    } catch {
      errorToast("Failed to export the map");
    }
  }

  const selected = selectedId ? viewOf(selectedId) : null;
  const open = useCallback(
    (v: MapNodeView | null) => {
      if (!v?.refId) return;
      if (v.kind === "event") onOpenEvent(v.refId);
      else if (v.kind === "entity") onOpenEntity(v.refId);
    },
    [onOpenEvent, onOpenEntity],
  );
  // Enter on a node selects it (xyflow); Enter on the selected node opens it.
  // On an idea (Premium editors), Enter on the selected idea or F2 edits its text instead.
  const onKeyDownCapture = (e: React.KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest("input, textarea, select, [contenteditable='true']")) return;
    if (e.key !== "Enter" && e.key !== "F2") return;
    const id = target.closest<HTMLElement>(".react-flow__node")?.dataset.id;
    if (!id) return;
    const v = viewOf(id);
    if (advanced && v?.kind === "idea" && (e.key === "F2" || id === selectedId)) {
      e.preventDefault();
      e.stopPropagation();
      startEdit(v);
    } else if (e.key === "Enter" && id === selectedId) {
      e.preventDefault();
      open(v);
    }
  };

  // Delete (Premium editors) removes the selected idea, group or connection, like the panels' buttons.
  const deleteSelected = useRef<() => void>(() => {});
  deleteSelected.current = () => {
    if (!advanced || editingId) return;
    if (selectedEdge) void removeEdge(selectedEdge.id);
    else if (selected && (selected.kind === "idea" || selected.kind === "group")) void removeNode(selected);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Delete") return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.("input, textarea, select, [contenteditable='true']")) return;
      if (target && target !== document.body && !target.closest?.(".storyweave-map")) return;
      deleteSelected.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="space-y-3">
      {canEdit ? (
        <section className="flex flex-wrap items-end gap-2 rounded-lg border border-stone-200 bg-white p-3" aria-label="Map tools">
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void addNode("idea");
            }}
          >
            <div>
              <label htmlFor="map-idea-text" className="block text-xs font-medium text-stone-700">
                Idea text
              </label>
              <Input
                id="map-idea-text"
                className="h-8 w-48"
                value={ideaText}
                maxLength={mapLimits.text}
                disabled={!advanced}
                onChange={(e) => setIdeaText(e.target.value)}
              />
            </div>
            <Button type="submit" size="sm" variant="outline" disabled={!advanced}>
              <Lightbulb aria-hidden="true" className="h-4 w-4" /> Add idea
            </Button>
          </form>
          <Button type="button" size="sm" variant="outline" disabled={!advanced} onClick={() => void addNode("group")}>
            <SquareDashed aria-hidden="true" className="h-4 w-4" /> Add group
          </Button>
          <div>
            <label htmlFor="map-edge-label" className="block text-xs font-medium text-stone-700">
              Edge label
            </label>
            <Input
              id="map-edge-label"
              className="h-8 w-32"
              list="map-edge-labels"
              value={edgeLabel}
              maxLength={mapLimits.label}
              disabled={!advanced}
              onChange={(e) => setEdgeLabel(e.target.value)}
            />
            <datalist id="map-edge-labels">
              {mapEdgeLabels.map((l) => (
                <option key={l} value={l} />
              ))}
            </datalist>
          </div>
          <div>
            <label htmlFor="map-edge-color" className="block text-xs font-medium text-stone-700">
              Edge color
            </label>
            <input
              id="map-edge-color"
              type="color"
              className="h-8 w-12 rounded border border-stone-300"
              value={edgeColor}
              disabled={!advanced}
              onChange={(e) => setEdgeColor(e.target.value)}
            />
          </div>
          <Button type="button" size="sm" variant="outline" disabled={!advanced} onClick={() => void exportAs("png")}>
            <Download aria-hidden="true" className="h-4 w-4" /> Export PNG
          </Button>
          <Button type="button" size="sm" variant="outline" disabled={!advanced} onClick={() => void exportAs("svg")}>
            <Download aria-hidden="true" className="h-4 w-4" /> Export SVG
          </Button>
          {!premium ? (
            <p className="w-full text-sm text-stone-700">
              <Sparkles aria-hidden="true" className="mr-1 inline h-4 w-4 text-brand-700" />
              Idea nodes, labeled edges, groups and export are Premium.{" "}
              <Link to="/upgrade" className="font-medium text-brand-700 underline">
                Upgrade to Premium
              </Link>
            </p>
          ) : null}
        </section>
      ) : null}
      <p className="text-sm text-stone-600">
        {canEdit
          ? `Drag nodes to arrange them; draw from a node's lower dot to another node to connect them (an event to a codex entry links them). Keyboard: Tab to a node, Enter to select, arrow keys to move, Enter again to open.${advanced ? " Double-click an idea (or press F2) to edit its text; Delete removes the selected idea, group or connection." : ""}`
          : "Pan and zoom to explore. Tab to a node and press Enter to select it, Enter again to open it."}
      </p>
      <div
        ref={container}
        className="storyweave-map h-[65vh] min-h-[420px] w-full overflow-hidden rounded-lg border border-stone-200 bg-white"
        onKeyDownCapture={onKeyDownCapture}
      >
        <EditContext.Provider value={editState}>
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodesChange={onNodesChange}
            onNodeDragStart={onNodeDragStart}
            onNodeDragStop={(e, n, list) => void onNodeDragStop(e, n, list)}
            onConnect={(c) => void onConnect(c)}
            onNodeDoubleClick={(_, n) => (n.data.view.kind === "idea" ? startEdit(n.data.view) : open(n.data.view))}
            onEdgesChange={(changes) => {
              for (const c of changes) {
                if (c.type === "select" && c.selected) setSelectedEdgeId(c.id);
                if (c.type === "select" && !c.selected) setSelectedEdgeId((s) => (s === c.id ? null : s));
              }
            }}
            onMoveStart={(event) => {
              if (event) userMoved.current = true;
            }}
            nodesDraggable={canEdit}
            nodesConnectable={canEdit}
            edgesFocusable={advanced}
            deleteKeyCode={null}
            onlyRenderVisibleElements
            elevateNodesOnSelect={false}
            minZoom={0.1}
            fitView
            fitViewOptions={FIT}
            proOptions={{ hideAttribution: true }}
            aria-label="Mind map"
          >
            <Background gap={24} color="#e7e5e4" />
            <Controls showInteractive={false} />
            {/* Below `sm` the overview would cover much of a phone's map: hidden there. */}
            <MiniMap
              className="max-sm:hidden"
              pannable
              zoomable
              ariaLabel="Mind map overview"
              nodeColor={(n) => (n.data as NodeData).view.color ?? "#a8a29e"}
            />
          </ReactFlow>
        </EditContext.Provider>
      </div>
      {selected ? (
        <section aria-label="Selected node" className="rounded-lg border border-stone-200 bg-white p-3 text-sm">
          <div className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{kindText(selected)}</div>
          <p className="font-medium break-words">{selected.label}</p>
          {selected.parentId ? <p className="text-stone-600">In group: {viewOf(selected.parentId)?.label ?? ""}</p> : null}
          <div className="mt-2 flex flex-wrap gap-2">
            {advanced && selected.kind === "idea" ? (
              <Button size="sm" variant="outline" onClick={() => startEdit(selected)}>
                Edit text
              </Button>
            ) : null}
            {selected.kind === "event" ? (
              <Button size="sm" onClick={() => open(selected)}>
                Open event
              </Button>
            ) : null}
            {selected.kind === "entity" ? (
              <Button size="sm" onClick={() => open(selected)}>
                Open in codex
              </Button>
            ) : null}
            {advanced && (selected.kind === "idea" || selected.kind === "group") ? (
              <Button size="sm" variant="destructive" onClick={() => void removeNode(selected)}>
                Delete from map
              </Button>
            ) : null}
          </div>
        </section>
      ) : null}
      {advanced && selectedEdge ? <EdgePanel key={selectedEdge.id} edge={selectedEdge} onSave={updateEdge} onDelete={removeEdge} /> : null}
    </div>
  );
}

function EdgePanel({
  edge,
  onSave,
  onDelete,
}: {
  edge: { id: string; label: string; color: string | null };
  onSave: (id: string, json: { label: string; color: string }) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}) {
  const [label, setLabel] = useState(edge.label);
  const [color, setColor] = useState(edge.color ?? "#57534e");
  return (
    <section aria-label="Selected connection" className="rounded-lg border border-stone-200 bg-white p-3 text-sm">
      <div className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Connection</div>
      <form
        className="mt-2 flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void onSave(edge.id, { label, color });
        }}
      >
        <div>
          <label htmlFor="map-selected-edge-label" className="block text-xs font-medium text-stone-700">
            Connection label
          </label>
          <Input
            id="map-selected-edge-label"
            className="h-8 w-40"
            list="map-edge-labels"
            value={label}
            maxLength={mapLimits.label}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="map-selected-edge-color" className="block text-xs font-medium text-stone-700">
            Connection color
          </label>
          <input
            id="map-selected-edge-color"
            type="color"
            className="h-8 w-12 rounded border border-stone-300"
            value={color}
            onChange={(e) => setColor(e.target.value)}
          />
        </div>
        <Button type="submit" size="sm">
          Save connection
        </Button>
        <Button type="button" size="sm" variant="destructive" onClick={() => void onDelete(edge.id)}>
          Delete connection
        </Button>
      </form>
    </section>
  );
}
