import { type NodeHandle, Position } from "@xyflow/react";
import type { MindMap, MapNodeView } from "../../../worker/services/mind-map";
import type { LayoutInput, LayoutOutput } from "./dagre-layout";
import type { LayoutReply } from "./layout.worker";
import { placeFresh } from "./placement";
import { type MapFlowNode, NODE_H, NODE_W, type Point, kindText } from "./types";

/**
 * Dagre places the nodes that have no saved position (a first view, or new events and entries). The layout
 * depends only on the graph, so placing one node by hand never moves the others; the first save after a
 * writer moves something stores every laid-out position too, so the layout stays put for everyone.
 * It runs in a Web Worker (a thousand events take the main thread for most of a second), on the main thread
 * only where there is no Worker.
 */
export type Positions = Map<string, Point>;
const cache = { key: "", positions: new Map() as Positions };

function layoutInput(map: MindMap) {
  const ids = map.nodes.filter((n) => n.kind !== "group").map((n) => n.id);
  const known = new Set(ids);
  const links = map.edges.filter((e) => known.has(e.source) && known.has(e.target));
  const key = `${ids.join()}|${links.map((e) => e.id).join()}`;
  const input: LayoutInput = { ids, links: links.map((e) => [e.source, e.target]) };
  return { key, input };
}

/** The positions at once when nothing needs laying out (or this graph was laid out already), else null. */
export function knownPositions(map: MindMap): Positions | null {
  if (map.nodes.every((n) => n.x !== null && n.y !== null)) return cache.positions;
  return layoutInput(map).key === cache.key ? cache.positions : null;
}

export async function layoutPositions(map: MindMap): Promise<Positions> {
  const known = knownPositions(map);
  if (known) return known;
  const { key, input } = layoutInput(map);
  const positions = new Map((await runLayout(input)).map(([id, x, y]) => [id, { x, y }]));
  cache.key = key;
  cache.positions = positions;
  return positions;
}

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 0;
const waiting = new Map<number, (positions: LayoutOutput | null) => void>();

function layoutWorker() {
  if (worker || workerFailed || typeof Worker === "undefined") return worker;
  try {
    worker = new Worker(new URL("./layout.worker.ts", import.meta.url), { type: "module", name: "map-layout" });
  } catch {
    workerFailed = true;
    return null;
  }
  worker.onmessage = ({ data }: MessageEvent<LayoutReply>) => {
    waiting.get(data.id)?.(data.positions);
    waiting.delete(data.id);
  };
  // A worker that cannot load or crashes: what it had in hand (and everything after) is laid out here.
  worker.onerror = () => {
    workerFailed = true;
    worker?.terminate();
    worker = null;
    for (const done of waiting.values()) done(null);
    waiting.clear();
  };
  return worker;
}

async function onMainThread(input: LayoutInput) {
  const { dagreLayout } = await import("./dagre-layout");
  return dagreLayout(input);
}

async function runLayout(input: LayoutInput): Promise<LayoutOutput> {
  const w = layoutWorker();
  if (!w) return onMainThread(input);
  const id = ++nextId;
  const positions = await new Promise<LayoutOutput | null>((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, input });
  });
  return positions ?? onMainThread(input);
}

// A new node's size and handles are known before it is drawn, so xyflow draws only the nodes in view (else a
// thousand events are all drawn once, to be measured, when the Map opens); a drawn node keeps its measurements.
const HANDLE = 6;
const storyHandles: NodeHandle[] = [
  { id: null, type: "target", position: Position.Top, x: NODE_W / 2 - HANDLE / 2, y: -HANDLE / 2, width: HANDLE, height: HANDLE },
  {
    id: null,
    type: "source",
    position: Position.Bottom,
    x: NODE_W / 2 - HANDLE / 2,
    y: NODE_H - HANDLE / 2,
    width: HANDLE,
    height: HANDLE,
  },
];
function size(v: MapNodeView, before: MapFlowNode | undefined): Partial<MapFlowNode> {
  if (before?.measured) return { measured: before.measured };
  if (v.kind === "group") return { initialWidth: v.width ?? 360, initialHeight: v.height ?? 240 };
  return { initialWidth: NODE_W, initialHeight: NODE_H, handles: storyHandles };
}

export function toFlowNodes(map: MindMap, auto: Positions, canEdit: boolean, previous: Map<string, MapFlowNode>): MapFlowNode[] {
  const fresh = placeFresh(map, auto);
  return map.nodes.map((v) => {
    const position = v.x !== null && v.y !== null ? { x: v.x, y: v.y } : (fresh.get(v.id) ?? { x: 0, y: 0 });
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
      ...size(v, before),
      ...(v.kind === "group" ? { style: { width: v.width ?? 360, height: v.height ?? 240 } } : {}),
    };
  });
}
