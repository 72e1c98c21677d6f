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
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { cn } from "~/lib/cn";
import { errorToast, showToast } from "~/lib/toast";
import { MAP_ADVANCED_IS_PREMIUM, mapEdgeLabels, mapLimits } from "../../../db/rules";
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

const StoryNode = memo(function StoryNode({ data, selected, isConnectable }: NodeProps<MapFlowNode>) {
  const v = data.view;
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
      <div className="truncate font-medium text-ink">{v.label}</div>
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
  const { fitView } = useReactFlow();
  const query = useMemo(() => shareParam(shareCode), [shareCode]);
  const advanced = canEdit && premium;
  const dragging = useRef(false);
  const pendingLoad = useRef(false);
  const fitted = useRef(false);

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
            },
      ),
    [map],
  );

  const nodesRef = useRef(nodes);
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
          client.api["map-nodes"][":id"].$patch({ param: { id: v.id.split("-")[1] }, query, json: { parentId } }, { headers: roomHeaders }),
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
      await unwrap(client.api["map-nodes"][":id"].$delete({ param: { id: v.id.split("-")[1] }, query }, { headers: roomHeaders }));
      setSelectedId(null);
      void load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to delete from the map"));
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
  const onKeyDownCapture = (e: React.KeyboardEvent) => {
    if (e.key !== "Enter") return;
    const id = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node")?.dataset.id;
    if (id && id === selectedId) {
      e.preventDefault();
      open(viewOf(id));
    }
  };

  return (
    <div className="space-y-3">
      {canEdit ? (
        <section className="flex flex-wrap items-end gap-2 rounded-lg border border-stone-200 bg-white p-3" aria-label="Map tools">
          <form
            className="flex items-end gap-2"
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
          ? "Drag nodes to arrange them; draw from a node's lower dot to another node to connect them (an event to a codex entry links them). Keyboard: Tab to a node, Enter to select, arrow keys to move, Enter again to open."
          : "Pan and zoom to explore. Tab to a node and press Enter to select it, Enter again to open it."}
      </p>
      <div
        className="storyweave-map h-[65vh] min-h-[420px] w-full overflow-hidden rounded-lg border border-stone-200 bg-white"
        onKeyDownCapture={onKeyDownCapture}
      >
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onNodeDragStart={onNodeDragStart}
          onNodeDragStop={(e, n, list) => void onNodeDragStop(e, n, list)}
          onConnect={(c) => void onConnect(c)}
          onNodeDoubleClick={(_, n) => open(n.data.view)}
          nodesDraggable={canEdit}
          nodesConnectable={canEdit}
          edgesFocusable={false}
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
          <MiniMap pannable zoomable ariaLabel="Mind map overview" nodeColor={(n) => (n.data as NodeData).view.color ?? "#a8a29e"} />
        </ReactFlow>
      </div>
      {selected ? (
        <section aria-label="Selected node" className="rounded-lg border border-stone-200 bg-white p-3 text-sm">
          <div className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{kindText(selected)}</div>
          <p className="font-medium break-words">{selected.label}</p>
          {selected.parentId ? <p className="text-stone-600">In group: {viewOf(selected.parentId)?.label ?? ""}</p> : null}
          <div className="mt-2 flex flex-wrap gap-2">
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
    </div>
  );
}
