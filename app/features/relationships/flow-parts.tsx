import {
  BaseEdge,
  type Edge,
  type EdgeProps,
  Handle,
  type InternalNode,
  type Node,
  type NodeProps,
  Position,
  useInternalNode,
  useReactFlow,
} from "@xyflow/react";
import { useEffect, useRef } from "react";
import { ColorDot } from "~/features/codex/codex";

// The Relationships view's own xyflow parts: an entry's node in its codex colour, the web's line drawn from
// border to border (the entries sit on a circle, so top-to-bottom handles would loop round them), and a refit
// when the view's size changes (a phone turned, a window resized).

export type EntryNodeData = { name: string; color: string };
export type EntryNode = Node<EntryNodeData, "entry">;
export type WebEdgeData = { bend: boolean };
export type WebEdge = Edge<WebEdgeData, "web">;

const hidden = { opacity: 0, pointerEvents: "none" } as const;

function EntryNodeView({ data }: NodeProps<EntryNode>) {
  return (
    <div
      className="flex h-full w-full items-center justify-center gap-1.5 rounded-md border-2 bg-white px-2 text-[13px] text-stone-900 shadow-sm"
      style={{ borderColor: data.color }}
    >
      <Handle type="target" position={Position.Top} style={hidden} isConnectable={false} />
      <ColorDot color={data.color} />
      <span className="truncate">{data.name}</span>
      <Handle type="source" position={Position.Bottom} style={hidden} isConnectable={false} />
    </div>
  );
}

/** Where the line from a node's centre towards `to` leaves its border. */
function borderPoint(node: InternalNode, to: { x: number; y: number }) {
  const w = (node.measured.width ?? 0) / 2;
  const h = (node.measured.height ?? 0) / 2;
  const c = { x: node.internals.positionAbsolute.x + w, y: node.internals.positionAbsolute.y + h };
  const dx = to.x - c.x;
  const dy = to.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const scale = Math.min(w / Math.abs(dx || Number.EPSILON), h / Math.abs(dy || Number.EPSILON));
  return { x: c.x + dx * scale, y: c.y + dy * scale };
}

const centreOf = (node: InternalNode) => ({
  x: node.internals.positionAbsolute.x + (node.measured.width ?? 0) / 2,
  y: node.internals.positionAbsolute.y + (node.measured.height ?? 0) / 2,
});

/** A relationship in the web: from border to border; bent aside when the two entries are related both ways. */
function WebEdgeView({ id, source, target, label, markerEnd, style, data }: EdgeProps<WebEdge>) {
  const from = useInternalNode(source);
  const to = useInternalNode(target);
  if (!from || !to) return null;
  const a = centreOf(from);
  const b = centreOf(to);
  // Bent edges leave and arrive towards the curve's control point (each direction bends to its own side).
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const bend = data?.bend ? 40 : 0;
  const control = { x: (a.x + b.x) / 2 + ((b.y - a.y) / length) * bend, y: (a.y + b.y) / 2 - ((b.x - a.x) / length) * bend };
  const start = borderPoint(from, bend ? control : b);
  const end = borderPoint(to, bend ? control : a);
  const path = bend
    ? `M ${start.x},${start.y} Q ${control.x},${control.y} ${end.x},${end.y}`
    : `M ${start.x},${start.y} L ${end.x},${end.y}`;
  // The label on the curve's middle (a quadratic's midpoint is halfway between the chord's and the control point).
  const labelX = bend ? (start.x + end.x) / 4 + control.x / 2 : (start.x + end.x) / 2;
  const labelY = bend ? (start.y + end.y) / 4 + control.y / 2 : (start.y + end.y) / 2;
  return (
    <BaseEdge
      id={id}
      path={path}
      markerEnd={markerEnd}
      style={style}
      label={label}
      labelX={labelX}
      labelY={labelY}
      labelStyle={{ fontSize: 12 }}
      labelBgPadding={[4, 2]}
      labelBgBorderRadius={3}
    />
  );
}

export const nodeTypes = { entry: EntryNodeView };
export const edgeTypes = { web: WebEdgeView };

/** Fits the picture again whenever its box changes size (the first fit is xyflow's own `fitView`). */
export function RefitOnResize({ padding }: { padding: number }) {
  const { fitView } = useReactFlow();
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = box.current?.closest(".react-flow");
    if (!el || typeof ResizeObserver === "undefined") return;
    let last = { w: el.clientWidth, h: el.clientHeight };
    const observer = new ResizeObserver(() => {
      const next = { w: el.clientWidth, h: el.clientHeight };
      if (next.w === last.w && next.h === last.h) return;
      last = next;
      requestAnimationFrame(() => void fitView({ padding, maxZoom: 1.2 }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [fitView, padding]);
  return <span ref={box} hidden />;
}
