import type { NodeChange } from "@xyflow/react";
import { type Dispatch, type RefObject, type SetStateAction, useCallback, useRef } from "react";
import type { MapData } from "./use-map-data";
import { type MapFlowNode, type Move, NODE_H, NODE_W, type Point } from "./types";

type Options = {
  data: MapData;
  canEdit: boolean;
  advanced: boolean;
  nodesRef: RefObject<MapFlowNode[]>;
  setNodes: Dispatch<SetStateAction<MapFlowNode[]>>;
  onNodesChangeBase: (changes: NodeChange<MapFlowNode>[]) => void;
  setSelectedId: Dispatch<SetStateAction<string | null>>;
};

/** Moving nodes by mouse, touch or arrow keys, saved for everyone; groups carry their ideas (Premium). */
export function useNodeMoves({ data, canEdit, advanced, nodesRef, setNodes, onNodesChangeBase, setSelectedId }: Options) {
  const { savePositions: save, setParent, pauseLoads, resumeLoads, loadIfMissed } = data;
  const dragging = useRef(false);

  const savePositions = useCallback(
    async (moved: Move[]) => {
      if (!canEdit || moved.length === 0) return;
      // Nodes still where the automatic layout put them are saved along: the layout stays as everyone sees it.
      const ids = new Set(moved.map((m) => m.id));
      const laidOut = nodesRef.current
        .filter((n) => !ids.has(n.id) && (n.data.view.x === null || n.data.view.y === null))
        .map((n) => ({ id: n.id, x: n.position.x, y: n.position.y }));
      const all = [...laidOut, ...moved].map((m) => ({ node: m.id, x: m.x, y: m.y }));
      await save(all, laidOut.length > 0);
    },
    [canEdit, nodesRef, save],
  );

  // Arrow keys move the selected nodes (xyflow's keyboard support): saved once the keys rest, one save at a time
  // and in order. Meanwhile the map's reloads wait, as during a drag: a reload answered between two key presses
  // (the first save's own) put the node back where that save left it, and the later keys' save changed nothing
  // on screen.
  const keyMoves = useRef(new Map<string, Move>());
  const keyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const keySaves = useRef<Promise<unknown>>(Promise.resolve());
  const saveKeyMoves = useCallback(() => {
    const moved = [...keyMoves.current.values()];
    keyMoves.current.clear();
    keySaves.current = keySaves.current.then(async () => {
      await savePositions(moved);
      // Keys pressed while this saved have their own save coming, which resumes the reloads after it.
      if (keyMoves.current.size > 0 || dragging.current) return;
      resumeLoads();
      loadIfMissed(false);
    });
  }, [savePositions, resumeLoads, loadIfMissed]);
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
        pauseLoads();
        clearTimeout(keyTimer.current);
        keyTimer.current = setTimeout(saveKeyMoves, 300);
      }
    },
    [onNodesChangeBase, saveKeyMoves, setSelectedId, pauseLoads],
  );

  // Groups (Premium): an idea dropped inside a group's box belongs to it; a group carries its ideas when moved.
  const dragStart = useRef(new Map<string, Point>());
  const onNodeDragStart = useCallback(
    (_: unknown, _node: MapFlowNode, dragged: MapFlowNode[]) => {
      dragging.current = true;
      pauseLoads();
      dragStart.current = new Map(dragged.map((n) => [n.id, { ...n.position }]));
    },
    [pauseLoads],
  );

  const onNodeDragStop = useCallback(
    async (_: unknown, _node: MapFlowNode, dragged: MapFlowNode[]) => {
      dragging.current = false;
      resumeLoads();
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
              setNodes((list) => list.map((m) => (shifted.has(m.id) ? { ...m, position: shifted.get(m.id) as Point } : m)));
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
      loadIfMissed(grouping);
    },
    [advanced, savePositions, setParent, setNodes, nodesRef, resumeLoads, loadIfMissed],
  );

  return { onNodesChange, onNodeDragStart, onNodeDragStop };
}
