import dagre from "@dagrejs/dagre";
import { inStoryOrder } from "./placement";
import { type LayoutOutput, NODE_H, NODE_W } from "./types";

export type { LayoutOutput };

// Plain data in and out: this runs in the layout worker (or on the main thread where there is no Worker).

export type LayoutInput = { ids: string[]; links: [source: string, target: string][] };
/** Each node's top-left corner. */

export function dagreLayout({ ids, links }: LayoutInput): LayoutOutput {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 90 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of ids) g.setNode(id, { width: NODE_W, height: NODE_H });
  for (const [source, target] of links) g.setEdge(source, target);
  dagre.layout(g);
  const out: LayoutOutput = [];
  for (const id of ids) {
    const p = g.node(id);
    if (p) out.push([id, Math.round(p.x - NODE_W / 2), Math.round(p.y - NODE_H / 2)]);
  }
  // Dagre orders a column to cross fewer edges; a writer reads the scenes in story order.
  return inStoryOrder(
    out,
    ids.filter((id) => id.startsWith("event-")),
    links,
  );
}
