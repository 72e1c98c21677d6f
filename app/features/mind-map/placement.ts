import type { MapNodeView, MindMap } from "../../../worker/services/mind-map";
import { type LayoutOutput, NODE_H, NODE_W, type Point } from "./types";

/**
 * Where nodes go on the map when nobody placed them. Pure functions (the layout worker and the page both use
 * them): a laid-out graph keeps its events in story order, and nodes added to a map whose other nodes are
 * placed go into free space beside what they belong to, never on top of another node.
 */
export type Box = { x: number; y: number; width: number; height: number };
export type Wanted = { id: string; x: number; y: number };

/** Space kept between a placed node and its neighbours (the free-space test allows a little less: dagre's rounding). */
export const SPACE = 24;
const KEEP = SPACE - 8;
const CELL = 256;

/** The boxes already on the map, bucketed by area so a free-space test looks at its neighbourhood only. */
export class Occupancy {
  private cells = new Map<string, Box[]>();

  constructor(boxes: Box[] = []) {
    for (const box of boxes) this.add(box);
  }

  private keys(box: Box) {
    const keys: string[] = [];
    for (let cx = Math.floor(box.x / CELL); cx <= Math.floor((box.x + box.width) / CELL); cx++) {
      for (let cy = Math.floor(box.y / CELL); cy <= Math.floor((box.y + box.height) / CELL); cy++) keys.push(`${cx},${cy}`);
    }
    return keys;
  }

  add(box: Box) {
    for (const key of this.keys(box)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(box);
      else this.cells.set(key, [box]);
    }
  }

  /** Whether `box`, with room around it, touches nothing placed. */
  isFree(box: Box) {
    const grown = { x: box.x - KEEP, y: box.y - KEEP, width: box.width + 2 * KEEP, height: box.height + 2 * KEEP };
    for (const key of this.keys(grown)) {
      for (const other of this.cells.get(key) ?? []) if (overlaps(grown, other)) return false;
    }
    return true;
  }
}

export const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const STEP_X = (NODE_W + SPACE) / 2;
const STEP_Y = NODE_H + SPACE;
const MAX_RING = 60;

/** The free spot for a node of the given size nearest to where it is wanted (a search outwards, ring by ring). */
export function nearestFree(space: Occupancy, wanted: Point, width = NODE_W, height = NODE_H): Point {
  for (let ring = 0; ring <= MAX_RING; ring++) {
    const spots: Point[] = [];
    for (let i = -ring; i <= ring; i++) {
      for (let j = -ring; j <= ring; j++) {
        if (Math.max(Math.abs(i), Math.abs(j)) !== ring) continue;
        spots.push({ x: Math.round(wanted.x + i * STEP_X), y: Math.round(wanted.y + j * STEP_Y) });
      }
    }
    // Nearest first; on a tie, below before above and right before left (the way a story reads).
    spots.sort((a, b) => dist(a, wanted) - dist(b, wanted) || b.y - a.y || b.x - a.x);
    const free = spots.find((p) => space.isFree({ ...p, width, height }));
    if (free) return free;
  }
  return { x: Math.round(wanted.x), y: Math.round(wanted.y + (MAX_RING + 1) * STEP_Y) };
}

const dist = (a: Point, b: Point) => (a.x - b.x) ** 2 + ((a.y - b.y) * 2) ** 2;

/**
 * A laid-out graph with its events in story order: the slots dagre gave the events are handed out again in
 * story order (top to bottom, column by column), then the other nodes of each column are ordered by where
 * their linked events now are, so links cross as little as they did. Slots are only swapped: nothing overlaps.
 */
export function inStoryOrder(out: LayoutOutput, events: string[], links: [string, string][]): LayoutOutput {
  const at = new Map(out.map(([id, x, y]) => [id, { x, y }]));
  const storyEvents = events.filter((id) => at.has(id));
  const slots = storyEvents.map((id) => at.get(id) as Point).sort((a, b) => a.x - b.x || a.y - b.y);
  for (const [i, id] of storyEvents.entries()) at.set(id, slots[i]);
  const isEvent = new Set(storyEvents);
  const neighbours = new Map<string, string[]>();
  for (const [a, b] of links) {
    if (isEvent.has(a) && !isEvent.has(b)) neighbours.set(b, [...(neighbours.get(b) ?? []), a]);
    if (isEvent.has(b) && !isEvent.has(a)) neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
  }
  const columns = new Map<number, string[]>();
  for (const [id, p] of at) if (!isEvent.has(id)) columns.set(p.x, [...(columns.get(p.x) ?? []), id]);
  for (const ids of columns.values()) {
    const centre = (id: string) => {
      const ys = (neighbours.get(id) ?? []).map((e) => (at.get(e) as Point).y);
      return ys.length ? ys.reduce((s, y) => s + y, 0) / ys.length : (at.get(id) as Point).y;
    };
    const order = ids.map((id) => ({ id, c: centre(id) })).sort((a, b) => a.c - b.c);
    const ys = ids.map((id) => (at.get(id) as Point).y).sort((a, b) => a - b);
    for (const [i, { id }] of order.entries()) at.set(id, { x: (at.get(id) as Point).x, y: ys[i] });
  }
  return out.map(([id]) => {
    const p = at.get(id) as Point;
    return [id, p.x, p.y];
  });
}

/** Nodes without a saved position → where they go: the automatic layout when nothing is placed, else free space. */
export function placeFresh(map: MindMap, auto: Map<string, Point>): Map<string, Point> {
  const isSaved = (n: MapNodeView) => n.x !== null && n.y !== null;
  const fresh = map.nodes.filter((n) => !isSaved(n));
  if (fresh.length === 0) return new Map();
  const at = new Map<string, Point>();
  const fixed: Box[] = [];
  for (const n of map.nodes) {
    if (!isSaved(n)) continue;
    const box = { x: n.x as number, y: n.y as number, width: n.width ?? NODE_W, height: n.height ?? NODE_H };
    at.set(n.id, box);
    fixed.push(box);
  }
  const bottom = fixed.length ? Math.max(...fixed.map((b) => b.y + b.height)) : 0;
  const left = fixed.length ? Math.min(...fixed.map((b) => b.x)) : 0;
  const events = map.nodes.filter((n) => n.kind === "event").map((n) => n.id);
  const linked = new Map<string, string[]>();
  for (const e of map.edges) if (e.kind === "link") linked.set(e.target, [...(linked.get(e.target) ?? []), e.source]);

  // Where a node belongs: an event under the scene before it (or above the one after it), an entry beside its
  // first placed scene; otherwise where the automatic layout put it (nothing placed yet), or under the map.
  const wanted = (n: MapNodeView): Point => {
    if (n.kind === "event" && fixed.length) {
      const i = events.indexOf(n.id);
      const before = events.slice(0, i).findLast((id) => at.has(id));
      if (before) return { x: (at.get(before) as Point).x, y: (at.get(before) as Point).y + STEP_Y };
      const after = events.slice(i + 1).find((id) => at.has(id));
      if (after) return { x: (at.get(after) as Point).x, y: (at.get(after) as Point).y - STEP_Y };
    }
    if (n.kind === "entity" && fixed.length) {
      const scene = (linked.get(n.id) ?? []).find((id) => at.has(id));
      if (scene) return { x: (at.get(scene) as Point).x + NODE_W + 90, y: (at.get(scene) as Point).y };
    }
    return (!fixed.length && auto.get(n.id)) || { x: left, y: bottom + STEP_Y };
  };

  const space = new Occupancy(fixed);
  const out = new Map<string, Point>();
  // Events first, in story order, so each new scene can go under the one before it.
  for (const n of [...fresh.filter((f) => f.kind === "event"), ...fresh.filter((f) => f.kind !== "event")]) {
    const width = n.width ?? NODE_W;
    const height = n.height ?? NODE_H;
    const spot = nearestFree(space, wanted(n), width, height);
    space.add({ ...spot, width, height });
    at.set(n.id, spot);
    out.set(n.id, spot);
  }
  return out;
}
