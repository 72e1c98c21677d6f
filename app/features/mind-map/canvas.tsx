import {
  Background,
  type Connection,
  Controls,
  type Edge,
  MarkerType,
  MiniMap,
  ReactFlow,
  getNodesBounds,
  getViewportForBounds,
  useNodesState,
  useReactFlow,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useOffline } from "~/features/offline/use-offline";
import { AsOfScenePicker } from "~/features/story-time/as-of-scene-picker";
import { errorToast } from "~/lib/toast";
import { MAP_ADVANCED_IS_PREMIUM } from "../../../db/domain/rules";
import type { MapNodeView } from "../../../worker/services/mind-map";
import { exportMap } from "./export-image";
import { knownPositions, layoutPositions, toFlowNodes } from "./layout";
import { useCodexProgressions, useStatesAsOf } from "~/features/codex/use-codex-progressions";
import { type EditState, EditContext, StatesContext, nodeTypes } from "./nodes";
import { EdgePanel, MapHelp, MapTools, SelectedNodePanel } from "./panels";
import { FIT, type MapFlowNode, type MindMapProps, type NodeData } from "./types";
import { useMapData } from "./use-map-data";
import { useMapKeys } from "./use-map-keys";
import { useNodeMoves } from "./use-node-moves";

const NO_SCENES: { id: number; title: string }[] = [];

export function MindMapCanvas({
  timelineId,
  shareCode,
  canEdit,
  premium,
  syncTick,
  shownEventIds,
  scenes = NO_SCENES,
  onOpenEvent,
  onOpenEntity,
  onLink,
}: MindMapProps) {
  const data = useMapData({ timelineId, shareCode, syncTick });
  // 'As of scene' (DESIGN.md §12): each codex entry's node shows its state then; the whole story by default.
  const [asOf, setAsOf] = useState<number | null>(null);
  const states = useStatesAsOf(useCodexProgressions(), scenes, asOf);
  const { map, load } = data;
  const [nodes, setNodes, onNodesChangeBase] = useNodesState<MapFlowNode>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [ideaText, setIdeaText] = useState("");
  const [edgeLabel, setEdgeLabel] = useState("causes");
  const [edgeColor, setEdgeColor] = useState("#b45309");
  const [editingId, setEditingId] = useState<string | null>(null);
  const [selectedEdgeId, setSelectedEdgeId] = useState<string | null>(null);
  const { setViewport } = useReactFlow();
  const advanced = canEdit && premium;
  // The map's changes need the server (the outbox does not queue them): offline its nodes stay put, no idea is
  // edited in place and Delete removes nothing; the panels' buttons say 'You're offline', and so does a line above the
  // map, whose hint then promises no moving nor editing (MapHelp, panels.tsx).
  const offline = useOffline();
  const writable = canEdit && !offline;
  const fitted = useRef(false);
  const nodesRef = useRef<MapFlowNode[]>([]);
  nodesRef.current = nodes;
  // Once the writer pans or zooms, a resize (window, phone rotation) no longer refits the view.
  const userMoved = useRef(false);
  const container = useRef<HTMLDivElement>(null);
  // The whole map when it fits at a readable zoom; else the story's beginning (top left) at that zoom.
  const fitReadable = useCallback(() => {
    const el = container.current;
    const list = nodesRef.current;
    if (!el || list.length === 0) return;
    const b = getNodesBounds(list);
    const view = getViewportForBounds(b, el.clientWidth, el.clientHeight, FIT.minZoom, FIT.maxZoom, FIT.padding);
    const tooBig = b.width * view.zoom > el.clientWidth || b.height * view.zoom > el.clientHeight;
    void setViewport(tooBig ? { x: 24 - b.x * view.zoom, y: 24 - b.y * view.zoom, zoom: view.zoom } : view);
  }, [setViewport]);
  useEffect(() => {
    const el = container.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let last = { w: el.clientWidth, h: el.clientHeight };
    const observer = new ResizeObserver(() => {
      const next = { w: el.clientWidth, h: el.clientHeight };
      if (next.w === last.w && next.h === last.h) return;
      last = next;
      if (!userMoved.current && nodesRef.current.length > 0) requestAnimationFrame(fitReadable);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [fitReadable]);

  // Nodes without a saved position wait for the automatic layout (a worker); placed ones show at once.
  useEffect(() => {
    if (!map) return;
    const place = (auto: Map<string, { x: number; y: number }>) =>
      setNodes((current) => toFlowNodes(map, auto, canEdit, new Map(current.map((n) => [n.id, n]))));
    const known = knownPositions(map);
    if (known) {
      place(known);
      return;
    }
    let current = true;
    void layoutPositions(map).then((auto) => {
      if (current) place(auto);
    });
    return () => {
      current = false;
    };
  }, [map, canEdit, setNodes]);

  // A first view (and the view after adding a node) shows every node.
  useEffect(() => {
    if (!fitted.current && nodes.length > 0) {
      fitted.current = true;
      requestAnimationFrame(fitReadable);
    }
  }, [nodes.length, fitReadable]);

  // The filters' view: events they leave out are hidden (with their edges), kept in place for when they return.
  // Offline, the nodes are not dragged nor connected either (each node carries its own `draggable`).
  const shownNodes = useMemo(
    () =>
      shownEventIds || offline
        ? nodes.map((n) => {
            const { kind, refId } = n.data.view;
            const hidden = shownEventIds && kind === "event" && refId !== null && !shownEventIds.has(refId);
            return hidden || (offline && n.draggable)
              ? { ...n, ...(hidden && { hidden: true }), ...(offline && { draggable: false, connectable: false }) }
              : n;
          })
        : nodes,
    [nodes, shownEventIds, offline],
  );

  const edges = useMemo<Edge[]>(
    () =>
      (map?.edges ?? []).map((e) =>
        e.kind === "link"
          ? { id: e.id, source: e.source, target: e.target, style: { stroke: "#a8a29e", strokeDasharray: "4 3" }, ariaLabel: "Link" }
          : e.kind === "after"
            ? {
                id: e.id,
                source: e.source,
                target: e.target,
                style: { stroke: "#7c3aed", strokeDasharray: "6 4", strokeWidth: 1.5 },
                markerEnd: { type: MarkerType.ArrowClosed, color: "#7c3aed" },
                ariaLabel: "Comes after",
              }
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

  const { onNodesChange, onNodeDragStart, onNodeDragStop } = useNodeMoves({
    data,
    canEdit,
    advanced,
    nodesRef,
    setNodes,
    onNodesChangeBase,
    setSelectedId,
  });

  const viewOf = useCallback((id: string) => map?.nodes.find((n) => n.id === id) ?? null, [map]);

  const { addEdge } = data;
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
      await addEdge({ source: c.source, target: c.target, label: edgeLabel, color: edgeColor });
    },
    [canEdit, premium, viewOf, onLink, load, addEdge, edgeLabel, edgeColor],
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
    if ((await data.addNode(kind, text, freeSpot())).ok) {
      setIdeaText("");
      fitted.current = false;
    }
  }
  async function removeNode(v: MapNodeView) {
    if ((await data.removeNode(v)).ok) setSelectedId(null);
  }

  const { saveText: saveTextRun } = data;
  const saveText = useCallback(
    async (id: string, text: string) => {
      const v = map?.nodes.find((n) => n.id === id);
      if (!v || text.trim() === v.label) {
        setEditingId(null);
        return;
      }
      if ((await saveTextRun(id, text)).ok) setEditingId(null);
    },
    [map, saveTextRun],
  );
  const cancelEdit = useCallback(() => setEditingId(null), []);
  const editState = useMemo<EditState>(
    () => ({ editingId, save: (id, text) => void saveText(id, text), cancel: cancelEdit }),
    [editingId, saveText, cancelEdit],
  );
  const startEdit = (v: MapNodeView | null) => {
    if (advanced && !offline && v?.kind === "idea") setEditingId(v.id);
  };

  const selectedEdge = useMemo(() => {
    const e = map?.edges.find((x) => x.id === selectedEdgeId);
    return e?.kind === "custom" ? e : null;
  }, [map, selectedEdgeId]);
  async function removeEdge(id: string) {
    if ((await data.removeEdge(id)).ok) setSelectedEdgeId(null);
  }

  const selected = selectedId ? viewOf(selectedId) : null;
  const selectedEntryState = selected?.kind === "entity" && selected.refId ? states.get(selected.refId) : undefined;
  const asOfTitle = asOf === null ? "the whole story" : (scenes.find((s) => s.id === asOf)?.title ?? "the whole story");
  const selectedState = selectedEntryState ? `As of ${asOfTitle}: ${selectedEntryState.text}` : null;
  const open = useCallback(
    (v: MapNodeView | null) => {
      if (!v?.refId) return;
      if (v.kind === "event") onOpenEvent(v.refId);
      else if (v.kind === "entity") onOpenEntity(v.refId);
    },
    [onOpenEvent, onOpenEntity],
  );
  const onKeyDownCapture = useMapKeys({
    advanced: advanced && !offline,
    editingId,
    selectedId,
    viewOf,
    startEdit,
    open,
    deleteSelected: () => {
      if (selectedEdge) void removeEdge(selectedEdge.id);
      else if (selected && (selected.kind === "idea" || selected.kind === "group")) void removeNode(selected);
    },
  });

  return (
    <div className="space-y-3">
      {canEdit ? (
        <MapTools
          advanced={advanced}
          premium={premium}
          ideaText={ideaText}
          onIdeaText={setIdeaText}
          edgeLabel={edgeLabel}
          onEdgeLabel={setEdgeLabel}
          edgeColor={edgeColor}
          onEdgeColor={setEdgeColor}
          onAdd={(kind) => void addNode(kind)}
          onExport={(format) => void exportMap(nodes, format)}
        />
      ) : null}
      <MapHelp canEdit={canEdit} advanced={advanced} offline={offline} />
      {scenes.length > 0 ? <AsOfScenePicker scenes={scenes} value={asOf} onChange={setAsOf} /> : null}
      <div
        ref={container}
        className="storyweave-map h-[65vh] min-h-[420px] w-full overflow-hidden rounded-lg border border-stone-200 bg-white"
        onKeyDownCapture={onKeyDownCapture}
      >
        <StatesContext.Provider value={states}>
          <EditContext.Provider value={editState}>
            <ReactFlow
              nodes={shownNodes}
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
              nodesDraggable={writable}
              nodesConnectable={writable}
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
              <Controls showInteractive={false} fitViewOptions={FIT} />
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
        </StatesContext.Provider>
      </div>
      {selected ? (
        <SelectedNodePanel
          node={selected}
          groupLabel={selected.parentId ? (viewOf(selected.parentId)?.label ?? "") : null}
          state={selectedState}
          advanced={advanced}
          onEdit={() => startEdit(selected)}
          onOpen={() => open(selected)}
          onRemove={() => void removeNode(selected)}
        />
      ) : null}
      {advanced && selectedEdge ? (
        <EdgePanel
          key={selectedEdge.id}
          edge={selectedEdge}
          onSave={(id, json) => void data.updateEdge(id, json)}
          onDelete={(id) => void removeEdge(id)}
        />
      ) : null}
    </div>
  );
}
