import type { RoomChange, RoomNotification, ServerMessage } from "./protocol";

// What a write to the timeline means for the room: which resync the others get, and the notice they read.

const actionText: Record<RoomChange["action"], (name: string, subject?: string) => string> = {
  added: (n, s) => `${n} added "${s ?? "an event"}"`,
  edited: (n, s) => `${n} edited "${s ?? "an event"}"`,
  deleted: (n) => `${n} deleted an event`,
  reordered: (n, s) => `${n} moved "${s ?? "an event"}"`,
  "timeline-updated": (n) => `${n} updated the timeline details`,
  "timeline-deleted": (n) => `${n} deleted this timeline`,
  "access-granted": (n) => `${n} changed who can access this timeline`,
  "access-revoked": (n) => `${n} changed who can access this timeline`,
  "entity-added": (n, s) => `${n} added "${s ?? "an entry"}" to the codex`,
  "entity-edited": (n, s) => `${n} edited "${s ?? "an entry"}" in the codex`,
  "entity-deleted": (n, s) => `${n} removed "${s ?? "an entry"}" from the codex`,
  "link-reset": (n) => `${n} reset the share link`,
  "link-off": (n) => `${n} turned off the share link`,
  "link-role": (n) => `${n} changed the share link's access`,
  "sessions-revoked": (n) => `${n} signed out`,
  "access-ended": (n) => `${n} changed who can access this timeline`,
  "map-changed": (n) => `${n} changed the mind map`,
  "chapter-added": (n, s) => `${n} added the chapter "${s ?? "a chapter"}"`,
  "chapter-edited": (n, s) => `${n} changed the chapter "${s ?? "a chapter"}"`,
  "chapter-deleted": (n, s) => `${n} removed the chapter "${s ?? "a chapter"}"`,
  "plotline-added": (n, s) => `${n} added the plotline "${s ?? "a plotline"}"`,
  "plotline-edited": (n, s) => `${n} changed the plotline "${s ?? "a plotline"}"`,
  "plotline-deleted": (n, s) => `${n} removed the plotline "${s ?? "a plotline"}"`,
  "comments-changed": (n) => `${n} commented`,
  "tasks-changed": (n) => `${n} changed a scene's tasks`,
  "relationship-added": (n, s) => `${n} added the relationship "${s ?? "a relationship"}"`,
  "relationship-edited": (n, s) => `${n} changed the relationship "${s ?? "a relationship"}"`,
  "relationship-deleted": (n, s) => `${n} removed the relationship "${s ?? "a relationship"}"`,
  "progression-added": (n, s) => `${n} added what changes about "${s ?? "an entry"}"`,
  "progression-edited": (n, s) => `${n} changed what changes about "${s ?? "an entry"}"`,
  "progression-deleted": (n, s) => `${n} removed a change from "${s ?? "an entry"}"`,
};

/** Chapter writes: everyone reloads the chapters and the scenes' order. */
const chapterActions = new Set<RoomChange["action"]>(["chapter-added", "chapter-edited", "chapter-deleted"]);
/** Plotline writes: everyone reloads the plotlines and the scenes' plotlines. */
const plotlineActions = new Set<RoomChange["action"]>(["plotline-added", "plotline-edited", "plotline-deleted"]);

/** Relationship writes: an open Relationships view refetches them. */
const relationshipActions = new Set<RoomChange["action"]>(["relationship-added", "relationship-edited", "relationship-deleted"]);
/** Progression writes: an entry's open progressions and 'As of' reads refetch them. */
const progressionActions = new Set<RoomChange["action"]>(["progression-added", "progression-edited", "progression-deleted"]);

/** Writes that change who may be here: everyone resyncs, nobody gets a notification. */
const accessActions = new Set<RoomChange["action"]>([
  "access-granted",
  "access-revoked",
  "access-ended",
  "link-reset",
  "link-off",
  "link-role",
]);
/** Mind map writes (a drag saves often), comments and tasks (their panels show them): a scoped refetch, no notification. */
const quietActions = new Set<RoomChange["action"]>([...accessActions, "map-changed", "comments-changed", "tasks-changed"]);

/** The resync every other connection gets after a write: scoped where a part of the screen is enough. */
export function syncFor(change: RoomChange): ServerMessage {
  if (change.action === "map-changed") return { type: "sync", scope: "map" };
  if (change.action === "comments-changed") return { type: "sync", scope: "comments", eventId: change.eventId };
  if (change.action === "tasks-changed") return { type: "sync", scope: "tasks", eventId: change.eventId };
  if (chapterActions.has(change.action)) return { type: "sync", scope: "chapters" };
  if (plotlineActions.has(change.action)) return { type: "sync", scope: "plotlines" };
  if (relationshipActions.has(change.action)) return { type: "sync", scope: "relationships" };
  if (progressionActions.has(change.action)) return { type: "sync", scope: "progressions" };
  return { type: "sync" };
}

const codexActions = new Set<RoomChange["action"]>([
  "entity-added",
  "entity-edited",
  "entity-deleted",
  ...relationshipActions,
  ...progressionActions,
]);

/** The notice the other writers get ('Mara edited "Storm"'), or null for the quiet writes. */
export function noticeFor(change: RoomChange): Omit<RoomNotification, "createdAt"> | null {
  if (quietActions.has(change.action)) return null;
  return {
    type: change.action,
    title: codexActions.has(change.action) ? "Codex updated" : "Timeline updated",
    message: actionText[change.action](change.by.userName, change.subject),
    userId: change.by.userId,
  };
}
