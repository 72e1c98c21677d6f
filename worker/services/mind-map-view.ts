// The mind map as the screens read it: every event and codex entity of the timeline as a node (placed or not), the
// writers' idea and group nodes, the events' codex links and the custom edges, in one batch.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type MapEdge,
  type MapNode,
  type User,
  entities,
  eventDependencies,
  eventEntities,
  events,
  mapEdges,
  mapNodes,
} from "../../db/schema";
import { readableInCodexOf } from "./entities";
import type { MapNodeKind } from "../../db/domain/validation";
import { storedCalendar, storyDisplay } from "../../db/domain/calendar";
import { requireTimelineAccess } from "./access";

export type MapNodeView = {
  id: string;
  kind: MapNodeKind;
  /** The event's or entity's id; null for idea and group nodes (their id is in `id`). */
  refId: number | null;
  label: string;
  /** An event's story time in the calendar's words (or its story label); absent for other nodes. */
  when?: string | null;
  color: string | null;
  /** character / place / thing for entity nodes. */
  entityKind: "character" | "place" | "thing" | null;
  x: number | null;
  y: number | null;
  parentId: string | null;
  width: number | null;
  height: number | null;
};

export type MapEdgeView =
  | { id: string; kind: "link"; source: string; target: string }
  /** A dependency: from the scene followed to the scene that must come after it. */
  | { id: string; kind: "after"; source: string; target: string }
  | { id: string; kind: "custom"; source: string; target: string; label: string; color: string | null };

export type MindMap = { nodes: MapNodeView[]; edges: MapEdgeView[] };

/** A stored node's id on the map. */
export function keyOf(row: Pick<MapNode, "id" | "kind" | "eventId" | "entityId">) {
  if (row.kind === "event") return `event-${row.eventId}`;
  if (row.kind === "entity") return `entity-${row.entityId}`;
  return `${row.kind}-${row.id}`;
}

export const customNode = (row: MapNode, parents: Map<number, string>): MapNodeView => ({
  id: keyOf(row),
  kind: row.kind,
  refId: null,
  label: row.text,
  color: row.color,
  entityKind: null,
  x: row.x,
  y: row.y,
  parentId: row.parentId ? (parents.get(row.parentId) ?? null) : null,
  width: row.width,
  height: row.height,
});

export const edgeView = (row: MapEdge, keys: Map<number, string>): MapEdgeView => ({
  id: `edge-${row.id}`,
  kind: "custom",
  source: keys.get(row.sourceId) ?? "",
  target: keys.get(row.targetId) ?? "",
  label: row.label,
  color: row.color,
});

export async function getMap(db: Db, user: User, timelineId: number, shareCode?: string | null, locale?: string): Promise<MindMap> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const calendar = storedCalendar(timeline.calendar);
  const when = (e: { storyStart: string | null; storyStartText: string | null; storyLabel: string | null }) =>
    e.storyLabel ?? storyDisplay(calendar, e.storyStart, { typed: e.storyStartText, locale });
  const [eventRows, entityRows, nodeRows, linkRows, edgeRows, afterRows] = await db.batch([
    db
      .select({
        id: events.id,
        title: events.title,
        storyStart: events.storyStart,
        storyStartText: events.storyStartText,
        storyLabel: events.storyLabel,
      })
      .from(events)
      .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
      .orderBy(asc(events.position), asc(events.id)),
    db
      .select({ id: entities.id, name: entities.name, color: entities.color, kind: entities.kind })
      .from(entities)
      // A reader of one book of a series sees the codex entries of the books they can read only.
      .where(readableInCodexOf(timelineId, user))
      .orderBy(asc(entities.id)),
    db.select().from(mapNodes).where(eq(mapNodes.timelineId, timelineId)).orderBy(asc(mapNodes.id)),
    db
      .select({ eventId: eventEntities.eventId, entityId: eventEntities.entityId })
      .from(eventEntities)
      .innerJoin(events, eq(events.id, eventEntities.eventId))
      .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt))),
    db.select().from(mapEdges).where(eq(mapEdges.timelineId, timelineId)).orderBy(asc(mapEdges.id)),
    db
      .select({ eventId: eventDependencies.eventId, afterEventId: eventDependencies.afterEventId })
      .from(eventDependencies)
      .innerJoin(events, eq(events.id, eventDependencies.eventId))
      .where(eq(events.timelineId, timelineId)),
  ]);
  const keys = new Map(nodeRows.map((r) => [r.id, keyOf(r)]));
  const placed = new Map(nodeRows.map((r) => [keyOf(r), r]));
  const parentOf = (row?: MapNode) => (row?.parentId ? (keys.get(row.parentId) ?? null) : null);
  const nodes: MapNodeView[] = [
    ...eventRows.map((e): MapNodeView => {
      const row = placed.get(`event-${e.id}`);
      return {
        id: `event-${e.id}`,
        kind: "event",
        refId: e.id,
        label: e.title,
        ...(when(e) && { when: when(e) }),
        color: row?.color ?? null,
        entityKind: null,
        x: row?.x ?? null,
        y: row?.y ?? null,
        parentId: parentOf(row),
        width: null,
        height: null,
      };
    }),
    ...entityRows.map((e): MapNodeView => {
      const row = placed.get(`entity-${e.id}`);
      return {
        id: `entity-${e.id}`,
        kind: "entity",
        refId: e.id,
        label: e.name,
        color: e.color,
        entityKind: e.kind,
        x: row?.x ?? null,
        y: row?.y ?? null,
        parentId: parentOf(row),
        width: null,
        height: null,
      };
    }),
    // Groups first: a child is drawn after its group.
    ...nodeRows.filter((r) => r.kind === "group").map((r) => customNode(r, keys)),
    ...nodeRows.filter((r) => r.kind === "idea").map((r) => customNode(r, keys)),
  ];
  const edges: MapEdgeView[] = [
    ...linkRows.map(
      (l): MapEdgeView => ({
        id: `link-${l.eventId}-${l.entityId}`,
        kind: "link",
        source: `event-${l.eventId}`,
        target: `entity-${l.entityId}`,
      }),
    ),
    ...edgeRows.map((r) => edgeView(r, keys)),
    ...afterRows.map(
      (d): MapEdgeView => ({
        id: `after-${d.eventId}-${d.afterEventId}`,
        kind: "after",
        source: `event-${d.afterEventId}`,
        target: `event-${d.eventId}`,
      }),
    ),
  ];
  // A scene in Trash is not on the map, nor are the arrows to it.
  const shown = new Set(nodes.map((n) => n.id));
  return { nodes, edges: edges.filter((e) => shown.has(e.source) && shown.has(e.target)) };
}
