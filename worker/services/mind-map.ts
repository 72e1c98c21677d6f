import { type SQL, and, eq, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { type MapEdge, type MapNode, type User, entities, events, mapEdges, mapNodes, timelineShares, timelines } from "../../db/schema";
import { inCodexOf } from "./entities";
import {
  type CreateMapEdge,
  type CreateMapNode,
  MAP_ADVANCED_IS_PREMIUM,
  MAP_NODE_KEY,
  type MapNodeKind,
  type MapPositions,
  type UpdateMapEdge,
  type UpdateMapNode,
} from "../../db/domain/validation";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { requireRowAccess, requireTimelineAccess, accessColumns, callerShare } from "./access";
import { type Deps, authorOf } from "./deps";
import { customNode, edgeView, keyOf, type MapEdgeView, type MapNodeView } from "./mind-map-view";
import { isPremium } from "./plans";

// The mind map. Read: owner, collaborator, viewer. Positions: owner and
// collaborator on every plan. Idea/group nodes and custom edges: owner and collaborator on Premium
// (the acting writer's plan). Every write tells the room once, as a map-only resync.

export const MAP_NODE_NOT_FOUND = "Map node not found";
export const MAP_EDGE_NOT_FOUND = "Map edge not found";
export const FOREIGN_NODE = "Every node must belong to this timeline";
export const SELF_EDGE = "An edge needs two different nodes";

export { type MapEdgeView, type MapNodeView, type MindMap, getMap, keyOf } from "./mind-map-view";

function parseKey(key: string) {
  const m = MAP_NODE_KEY.exec(key);
  if (!m) throw badRequest(FOREIGN_NODE);
  return { kind: m[1] as MapNodeKind, id: Number(m[2]) };
}

/** Keys → the ids of each kind, deduplicated. */
function byKind(keyList: string[]) {
  const out: Record<MapNodeKind, Set<number>> = { event: new Set(), entity: new Set(), idea: new Set(), group: new Set() };
  for (const key of keyList) {
    const { kind, id } = parseKey(key);
    out[kind].add(id);
  }
  return out;
}

const jsonIds = (ids: Set<number>) => JSON.stringify([...ids]);

const dialect = new SQLiteAsyncDialect();
/** A raw statement for D1's batch (one transaction). */
const raw = (db: Db, query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
};

/** 400 unless every key names an event, entity, idea or group of this timeline. */
async function requireOwnNodes(db: Db, timelineId: number, keyList: string[]) {
  const kinds = byKind(keyList);
  const custom = new Set([...kinds.idea, ...kinds.group]);
  const row = await db
    .select({
      events: sql<number>`(SELECT count(*) FROM ${events} WHERE ${events.timelineId} = ${timelineId}
        AND ${events.id} IN (SELECT value FROM json_each(${jsonIds(kinds.event)})))`,
      entities: sql<number>`(SELECT count(*) FROM ${entities} WHERE ${inCodexOf(timelineId)}
        AND ${entities.id} IN (SELECT value FROM json_each(${jsonIds(kinds.entity)})))`,
      ideas: sql<number>`(SELECT count(*) FROM ${mapNodes} WHERE ${mapNodes.timelineId} = ${timelineId} AND ${mapNodes.kind} = 'idea'
        AND ${mapNodes.id} IN (SELECT value FROM json_each(${jsonIds(kinds.idea)})))`,
      groups: sql<number>`(SELECT count(*) FROM ${mapNodes} WHERE ${mapNodes.timelineId} = ${timelineId} AND ${mapNodes.kind} = 'group'
        AND ${mapNodes.id} IN (SELECT value FROM json_each(${jsonIds(kinds.group)})))`,
    })
    .from(sql`(SELECT 1)`)
    .get();
  if (
    !row ||
    Number(row.events) !== kinds.event.size ||
    Number(row.entities) !== kinds.entity.size ||
    Number(row.ideas) !== kinds.idea.size ||
    Number(row.groups) !== kinds.group.size
  ) {
    throw badRequest(FOREIGN_NODE);
  }
  return { kinds, custom };
}

/** The map_nodes rows of event/entity nodes, made on demand (an edge touches a node not placed yet). */
function ensureRowStatements(db: Db, timelineId: number, kinds: Record<MapNodeKind, Set<number>>) {
  const statements = [];
  if (kinds.event.size) {
    statements.push(
      raw(
        db,
        sql`INSERT INTO map_nodes (timeline_id, kind, event_id)
        SELECT ${timelineId}, 'event', value FROM json_each(${jsonIds(kinds.event)}) WHERE true
        ON CONFLICT (timeline_id, event_id) DO NOTHING`,
      ),
    );
  }
  if (kinds.entity.size) {
    statements.push(
      raw(
        db,
        sql`INSERT INTO map_nodes (timeline_id, kind, entity_id)
        SELECT ${timelineId}, 'entity', value FROM json_each(${jsonIds(kinds.entity)}) WHERE true
        ON CONFLICT (timeline_id, entity_id) DO NOTHING`,
      ),
    );
  }
  return statements;
}

/** Every plan: where nodes sit. Event and entity nodes get their row on first placement. */
export async function savePositions({ db, room }: Deps, user: User, timelineId: number, input: MapPositions, shareCode?: string | null) {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  if (input.positions.length === 0) return { ok: true as const };
  // The last position given for a node wins.
  const latest = new Map(input.positions.map((p) => [p.node, p]));
  await requireOwnNodes(db, timelineId, [...latest.keys()]);
  const rows = [...latest.values()].map((p) => ({ ...parseKey(p.node), x: p.x, y: p.y }));
  const json = (kind: MapNodeKind) => JSON.stringify(rows.filter((r) => r.kind === kind).map((r) => [r.id, r.x, r.y]));
  const now = nowIso();
  await db.$client.batch([
    raw(
      db,
      sql`INSERT INTO map_nodes (timeline_id, kind, event_id, x, y, updated_at)
      SELECT ${timelineId}, 'event', value ->> 0, value ->> 1, value ->> 2, ${now} FROM json_each(${json("event")}) WHERE true
      ON CONFLICT (timeline_id, event_id) DO UPDATE SET x = excluded.x, y = excluded.y, updated_at = excluded.updated_at`,
    ),
    raw(
      db,
      sql`INSERT INTO map_nodes (timeline_id, kind, entity_id, x, y, updated_at)
      SELECT ${timelineId}, 'entity', value ->> 0, value ->> 1, value ->> 2, ${now} FROM json_each(${json("entity")}) WHERE true
      ON CONFLICT (timeline_id, entity_id) DO UPDATE SET x = excluded.x, y = excluded.y, updated_at = excluded.updated_at`,
    ),
    raw(
      db,
      sql`UPDATE map_nodes SET x = j.value ->> 1, y = j.value ->> 2, updated_at = ${now}
      FROM json_each(${JSON.stringify(rows.filter((r) => r.kind === "idea" || r.kind === "group").map((r) => [r.id, r.x, r.y]))}) j
      WHERE map_nodes.id = j.value ->> 0 AND map_nodes.timeline_id = ${timelineId}`,
    ),
  ]);
  room(timelineId, mapChange(user));
  return { ok: true as const };
}

const mapChange = (user: User) => ({ action: "map-changed" as const, by: authorOf(user) });

function requireAdvanced(user: User) {
  if (!isPremium(user)) throw forbidden(MAP_ADVANCED_IS_PREMIUM);
}

/** The id of a group of this timeline, or 400. */
async function groupId(db: Db, timelineId: number, key: string | null | undefined) {
  if (key === undefined) return undefined;
  if (key === null) return null;
  const id = parseKey(key).id;
  const row = await db
    .select({ id: mapNodes.id })
    .from(mapNodes)
    .where(and(eq(mapNodes.id, id), eq(mapNodes.timelineId, timelineId), eq(mapNodes.kind, "group")))
    .get();
  if (!row) throw badRequest(FOREIGN_NODE);
  return row.id;
}

/** A node's group, keyed as `customNode` wants it (parents are always groups). */
const parentKeys = (row: MapNode) => new Map(row.parentId ? [[row.parentId, `group-${row.parentId}`]] : []);

export async function createNode(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: CreateMapNode,
  shareCode?: string | null,
): Promise<MapNodeView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  requireAdvanced(user);
  const parentId = input.kind === "idea" ? await groupId(db, timelineId, input.parentId) : null;
  const now = nowIso();
  const row = await db
    .insert(mapNodes)
    .values({
      timelineId,
      kind: input.kind,
      text: input.text,
      x: input.x,
      y: input.y,
      color: input.color ?? null,
      width: input.width ?? (input.kind === "group" ? 360 : null),
      height: input.height ?? (input.kind === "group" ? 240 : null),
      parentId: parentId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  room(timelineId, mapChange(user));
  return customNode(row, parentKeys(row));
}

/** An idea or group node and the caller's access to its timeline; strangers get 404. */
async function loadCustomNode(db: Db, user: User, nodeId: number, shareCode?: string | null) {
  const row = await db
    .select({ node: mapNodes, ...accessColumns(user) })
    .from(mapNodes)
    .innerJoin(timelines, eq(timelines.id, mapNodes.timelineId))
    .leftJoin(timelineShares, callerShare(user, mapNodes.timelineId))
    .where(eq(mapNodes.id, nodeId))
    .get();
  // Event and entity nodes are not edited here: for this call they do not exist.
  const custom = row && row.node.kind !== "idea" && row.node.kind !== "group" ? undefined : row;
  const { row: found } = requireRowAccess(custom, user, "collaborator", shareCode, MAP_NODE_NOT_FOUND);
  requireAdvanced(user);
  return found.node;
}

export async function updateNode({ db, room }: Deps, user: User, nodeId: number, input: UpdateMapNode, shareCode?: string | null) {
  const node = await loadCustomNode(db, user, nodeId, shareCode);
  const parentId = node.kind === "idea" ? await groupId(db, node.timelineId, input.parentId) : undefined;
  const row = await db
    .update(mapNodes)
    .set({
      ...(input.text !== undefined && { text: input.text }),
      ...(input.x !== undefined && { x: input.x }),
      ...(input.y !== undefined && { y: input.y }),
      ...(input.color !== undefined && { color: input.color }),
      ...(input.width !== undefined && { width: input.width }),
      ...(input.height !== undefined && { height: input.height }),
      ...(parentId !== undefined && { parentId }),
      updatedAt: nowIso(),
    })
    .where(eq(mapNodes.id, nodeId))
    .returning()
    .get();
  if (!row) throw notFound(MAP_NODE_NOT_FOUND);
  room(node.timelineId, mapChange(user));
  return customNode(row, parentKeys(row));
}

/** Its edges go with it (ON DELETE CASCADE); ideas placed in a deleted group stay, outside it (SET NULL). */
export async function deleteNode({ db, room }: Deps, user: User, nodeId: number, shareCode?: string | null) {
  const node = await loadCustomNode(db, user, nodeId, shareCode);
  await db.delete(mapNodes).where(eq(mapNodes.id, nodeId));
  room(node.timelineId, mapChange(user));
  return { success: true as const };
}

export async function createEdge(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: CreateMapEdge,
  shareCode?: string | null,
): Promise<MapEdgeView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  requireAdvanced(user);
  if (input.source === input.target) throw badRequest(SELF_EDGE);
  const { kinds } = await requireOwnNodes(db, timelineId, [input.source, input.target]);
  const ensure = ensureRowStatements(db, timelineId, kinds);
  if (ensure.length) await db.$client.batch(ensure);
  const idOf = async (key: string) => {
    const { kind, id } = parseKey(key);
    if (kind === "idea" || kind === "group") return id;
    const column = kind === "event" ? mapNodes.eventId : mapNodes.entityId;
    const row = await db
      .select({ id: mapNodes.id })
      .from(mapNodes)
      .where(and(eq(mapNodes.timelineId, timelineId), eq(column, id)))
      .get();
    if (!row) throw badRequest(FOREIGN_NODE);
    return row.id;
  };
  const [sourceId, targetId] = [await idOf(input.source), await idOf(input.target)];
  const now = nowIso();
  const row = await db
    .insert(mapEdges)
    .values({ timelineId, sourceId, targetId, label: input.label ?? "", color: input.color ?? null, createdAt: now, updatedAt: now })
    .returning()
    .get();
  room(timelineId, mapChange(user));
  return { id: `edge-${row.id}`, kind: "custom", source: input.source, target: input.target, label: row.label, color: row.color };
}

async function loadEdge(db: Db, user: User, edgeId: number, shareCode?: string | null) {
  const row = await db
    .select({ edge: mapEdges, ...accessColumns(user) })
    .from(mapEdges)
    .innerJoin(timelines, eq(timelines.id, mapEdges.timelineId))
    .leftJoin(timelineShares, callerShare(user, mapEdges.timelineId))
    .where(eq(mapEdges.id, edgeId))
    .get();
  const { row: found } = requireRowAccess(row, user, "collaborator", shareCode, MAP_EDGE_NOT_FOUND);
  requireAdvanced(user);
  return found.edge;
}

async function edgeKeys(db: Db, edge: MapEdge) {
  const rows = await db
    .select({ id: mapNodes.id, kind: mapNodes.kind, eventId: mapNodes.eventId, entityId: mapNodes.entityId })
    .from(mapNodes)
    .where(sql`${mapNodes.id} IN (${edge.sourceId}, ${edge.targetId})`);
  return new Map(rows.map((r) => [r.id, keyOf(r)]));
}

export async function updateEdge({ db, room }: Deps, user: User, edgeId: number, input: UpdateMapEdge, shareCode?: string | null) {
  const edge = await loadEdge(db, user, edgeId, shareCode);
  const row = await db
    .update(mapEdges)
    .set({
      ...(input.label !== undefined && { label: input.label }),
      ...(input.color !== undefined && { color: input.color }),
      updatedAt: nowIso(),
    })
    .where(eq(mapEdges.id, edgeId))
    .returning()
    .get();
  if (!row) throw notFound(MAP_EDGE_NOT_FOUND);
  room(edge.timelineId, mapChange(user));
  return edgeView(row, await edgeKeys(db, row));
}

export async function deleteEdge({ db, room }: Deps, user: User, edgeId: number, shareCode?: string | null) {
  const edge = await loadEdge(db, user, edgeId, shareCode);
  await db.delete(mapEdges).where(eq(mapEdges.id, edgeId));
  room(edge.timelineId, mapChange(user));
  return { success: true as const };
}
