import dagre from "@dagrejs/dagre";

/**
 * The family tree's layout: generations top-down (parents above their children), dagre ordering each generation
 * to cross fewer lines. Returns each entry's top-left corner. A loop in the labels (a child written as its own
 * ancestor) still lays out: dagre breaks the cycle.
 */
export function familyTreeLayout(
  ids: number[],
  links: { parentId: number; childId: number }[],
  width: number,
  height: number,
): Map<number, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 40, ranksep: 80 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of ids) g.setNode(String(id), { width, height });
  for (const { parentId, childId } of links) g.setEdge(String(parentId), String(childId));
  dagre.layout(g);
  const out = new Map<number, { x: number; y: number }>();
  for (const id of ids) {
    const p = g.node(String(id));
    if (p) out.set(id, { x: Math.round(p.x - width / 2), y: Math.round(p.y - height / 2) });
  }
  return out;
}
