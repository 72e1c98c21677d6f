import { describe, expect, it } from "vitest";
import { dagreLayout } from "~/features/mind-map/dagre-layout";
import { type Box, Occupancy, nearestFree, overlaps, placeFresh } from "~/features/mind-map/placement";
import { NODE_H, NODE_W } from "~/features/mind-map/types";
import type { MapEdgeView, MapNodeView, MindMap } from "../../worker/services/mind-map";

// Where the Map puts nodes nobody placed: free space beside what they belong to, events in story order.

const node = (id: string, at?: { x: number; y: number }, extra: Partial<MapNodeView> = {}): MapNodeView => ({
  id,
  kind: id.startsWith("event-") ? "event" : id.startsWith("group-") ? "group" : "entity",
  refId: Number(id.split("-")[1]),
  label: id,
  color: null,
  entityKind: id.startsWith("entity-") ? "character" : null,
  x: at?.x ?? null,
  y: at?.y ?? null,
  parentId: null,
  width: null,
  height: null,
  ...extra,
});
const link = (event: string, entity: string): MapEdgeView => ({
  id: `link-${event}-${entity}`,
  kind: "link",
  source: event,
  target: entity,
});

/** Every node's box: saved ones where they are, fresh ones where placeFresh put them. */
function boxes(map: MindMap, fresh: Map<string, { x: number; y: number }>): (Box & { id: string })[] {
  return map.nodes.map((n) => {
    const p = n.x !== null && n.y !== null ? { x: n.x, y: n.y } : fresh.get(n.id);
    if (!p) throw new Error(`${n.id} was not placed`);
    return { id: n.id, ...p, width: n.width ?? NODE_W, height: n.height ?? NODE_H };
  });
}

/** No two boxes overlap (saved nodes a writer put on top of each other aside: `fresh` names the new ones). */
function expectNoOverlaps(list: (Box & { id: string })[], fresh?: Map<string, unknown>) {
  const hits: string[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      if (fresh && !fresh.has(list[i].id) && !fresh.has(list[j].id)) continue;
      if (overlaps(list[i], list[j])) hits.push(`${list[i].id} × ${list[j].id}`);
    }
  }
  expect(hits).toEqual([]);
}

/** A deterministic scatter of saved nodes (a writer's hand-made arrangement, some of them touching). */
function scattered(count: number, seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  return Array.from({ length: count }, (_, i) => node(`entity-${i + 1}`, { x: Math.round(next() * 900), y: Math.round(next() * 600) }));
}

describe("placeFresh", () => {
  it.each([
    [1, 5],
    [8, 20],
    [30, 60],
    [60, 12],
  ])("places %i new events among %i saved nodes without overlapping any node", (added, saved, seed = added * 7 + saved) => {
    const fixed = scattered(saved, seed);
    const events = Array.from({ length: added }, (_, i) => node(`event-${i + 1}`));
    // All the new nodes are where a stale layout would drop them: on the saved ones, or at the origin.
    const map: MindMap = { nodes: [...events, ...fixed], edges: [] };
    const auto = new Map(events.map((e, i) => [e.id, { x: fixed[i % fixed.length].x as number, y: 0 }]));
    const fresh = placeFresh(map, auto);
    expect(fresh.size).toBe(added);
    expectNoOverlaps(boxes(map, fresh), fresh);
  });

  it("puts a new scene under the scene before it and a new entry beside its scene, clear of a group", () => {
    const group = node("group-9", { x: 0, y: 300 }, { kind: "group", width: 360, height: 240 });
    const map: MindMap = {
      nodes: [node("event-1", { x: 0, y: 0 }), node("event-2", { x: 0, y: 76 }), node("event-3"), node("entity-1"), group],
      edges: [link("event-3", "entity-1")],
    };
    const fresh = placeFresh(map, new Map());
    expect(fresh.get("event-3")).toEqual({ x: 0, y: 152 });
    expect(fresh.get("entity-1")).toEqual({ x: NODE_W + 90, y: 152 });
    expectNoOverlaps(boxes(map, fresh));
  });

  it("a new scene between placed scenes goes in the nearest free space, never on a neighbour", () => {
    const column = Array.from({ length: 10 }, (_, i) => node(`event-${i + 1}`, { x: 0, y: i * 76 }));
    const map: MindMap = { nodes: [...column.slice(0, 5), node("event-99"), ...column.slice(5)], edges: [] };
    const fresh = placeFresh(map, new Map([["event-99", { x: 0, y: 0 }]]));
    expectNoOverlaps(boxes(map, fresh));
    const spot = fresh.get("event-99");
    // Beside the fifth scene (the column below is full), not far away.
    expect(Math.abs((spot?.y ?? 0) - 4 * 76)).toBeLessThanOrEqual(2 * 76);
  });

  it("with nothing placed, keeps the automatic layout as it is", () => {
    const ids = ["event-1", "event-2", "event-3", "entity-1", "entity-2"];
    const out = dagreLayout({
      ids,
      links: [
        ["event-3", "entity-1"],
        ["event-1", "entity-2"],
      ],
    });
    const auto = new Map(out.map(([id, x, y]) => [id, { x, y }]));
    const map: MindMap = { nodes: ids.map((id) => node(id)), edges: [] };
    expect(placeFresh(map, auto)).toEqual(auto);
  });
});

describe("dagreLayout", () => {
  it("lays the events out in story order even when their links would make dagre reorder them", () => {
    const ids = ["event-1", "event-2", "event-3", "event-4", "entity-1", "entity-2", "entity-3"];
    const links: [string, string][] = [
      ["event-4", "entity-1"],
      ["event-1", "entity-3"],
      ["event-3", "entity-1"],
      ["event-2", "entity-2"],
      ["event-4", "entity-3"],
    ];
    const out = new Map(dagreLayout({ ids, links }).map(([id, x, y]) => [id, { x, y }]));
    const events = ids.slice(0, 4).map((id) => out.get(id) as { x: number; y: number });
    const sorted = [...events].sort((a, b) => a.x - b.x || a.y - b.y);
    expect(events).toEqual(sorted);
    expectNoOverlaps([...out].map(([id, p]) => ({ id, ...p, width: NODE_W, height: NODE_H })));
  });
});

describe("nearestFree", () => {
  it("finds the free spot next to a crowded one", () => {
    const space = new Occupancy([{ x: 0, y: 0, width: NODE_W, height: NODE_H }]);
    const spot = nearestFree(space, { x: 0, y: 0 });
    expect(overlaps({ ...spot, width: NODE_W, height: NODE_H }, { x: 0, y: 0, width: NODE_W, height: NODE_H })).toBe(false);
    expect(spot).toEqual({ x: 0, y: NODE_H + 24 });
  });
});
