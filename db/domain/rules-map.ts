// The mind map. Basic (every plan): events and codex entries as nodes, positions that persist.
// Advanced (Premium, decided by the acting writer's plan): idea and group nodes, labeled edges, export.
export const mapLimits = { text: 500, label: 60, positions: 2000, coordinate: 1_000_000, size: 10_000 } as const;
export const MAP_ADVANCED_IS_PREMIUM = "Upgrade to Premium for advanced mind mapping";
export const mapNodeKinds = ["event", "entity", "idea", "group"] as const;
export type MapNodeKind = (typeof mapNodeKinds)[number];
/** A node's id on the map: "event-12", "entity-3", "idea-7", "group-8". */
export const MAP_NODE_KEY = /^(event|entity|idea|group)-([1-9]\d{0,11})$/;
/** The row id in a map node's or edge's id ("idea-7" → "7", "edge-4" → "4"). */
export const mapRowId = (key: string) => key.slice(key.indexOf("-") + 1);
/** Suggested labels for a custom edge. */
export const mapEdgeLabels = ["causes", "foreshadows", "contrasts", "leads to"] as const;
