import { z } from "zod";
import { ACCESS_MODES, CHANGE_TYPES, MAX_CHANGE_TEXT, SYNC_SCOPES } from "./close-codes";

// The room's wire protocol. No Workers imports. The browser checks the server's messages without zod, with
// server-messages.ts (its tests hold it to ServerMessageSchema's answers).

export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MAX_MESSAGES_PER_SECOND = 20;

export const AccessModeSchema = z.enum(ACCESS_MODES);
export type AccessMode = z.infer<typeof AccessModeSchema>;

export { MAX_CHANGE_TEXT };

const ChangeBodySchema = z.object({
  type: z.enum(CHANGE_TYPES),
  value: z.union([z.string().max(MAX_CHANGE_TEXT), z.number().int().min(0)]),
});
export type ChangeBody = z.infer<typeof ChangeBodySchema>;

// Identity fields are accepted for compatibility with older clients and ignored: the room uses the identity
// the Worker authenticated.
export const ClientMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("join"),
    timelineId: z.union([z.number(), z.string()]).optional(),
    userId: z.unknown().optional(),
    userName: z.unknown().optional(),
    accessMode: z.unknown().optional(),
  }),
  z.object({
    type: z.literal("change"),
    timelineId: z.union([z.number(), z.string()]).optional(),
    eventId: z.number().int().positive(),
    userId: z.unknown().optional(),
    userName: z.unknown().optional(),
    change: ChangeBodySchema,
  }),
  z.object({ type: z.literal("leave"), timelineId: z.union([z.number(), z.string()]).optional() }),
  // Co-writing: the event whose editor this connection has open (null: none). Shown as
  // 'Mara is writing here' on that card for everyone else.
  z.object({ type: z.literal("editing"), eventId: z.number().int().positive().nullable() }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const PresenceUserSchema = z.object({
  userId: z.number(),
  userName: z.string(),
  accessMode: AccessModeSchema,
  isOwner: z.boolean(),
  /** The event this user has open in an editor (any of their tabs), or null. */
  editingEventId: z.number().nullable(),
});
export type PresenceUser = z.infer<typeof PresenceUserSchema>;

export const RoomNotificationSchema = z.object({
  type: z.string(),
  title: z.string(),
  message: z.string(),
  createdAt: z.string(),
  userId: z.number().optional(),
});
export type RoomNotification = z.infer<typeof RoomNotificationSchema>;

/** What a `sync` says changed; absent: anything (reload everything). */
export const SyncScopeSchema = z.enum(SYNC_SCOPES);
export type SyncScope = z.infer<typeof SyncScopeSchema>;

export const ServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("presence"), presence: z.object({ users: z.array(PresenceUserSchema) }) }),
  z.object({
    type: z.literal("change"),
    eventId: z.number(),
    userId: z.number(),
    userName: z.string(),
    change: ChangeBodySchema,
  }),
  // scope "map": only the mind map changed (positions, idea nodes, custom edges); lists need no reload.
  // scope "chapters": the chapters changed (and with them maybe the scenes' order): reload both.
  // scope "plotlines": the plotlines changed (and with them maybe the scenes' plotlineIds): reload both.
  // scope "comments": a scene's comments changed (`eventId`): its open editors refresh their panel; lists need no reload.
  // scope "tasks": a scene's tasks changed (`eventId`): its open editors refresh their tasks; the lists reload (assignees).
  // scope "relationships": the codex's relationships changed: an open Relationships view refetches; lists need no reload.
  // scope "progressions": an entry's progressions changed: its open 'From this scene on' and 'As of' reads refetch.
  z.object({ type: z.literal("sync"), scope: SyncScopeSchema.optional(), eventId: z.number().optional() }),
  z.object({ type: z.literal("notification"), notification: RoomNotificationSchema }),
  z.object({ type: z.literal("error"), error: z.string() }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/**
 * What a write tells the timeline's room (DO RPC from the services, never from a client). The room
 * turns it into a `sync` for everyone but the author's own connection, and a notification.
 */
export type RoomChange = {
  action:
    | "added"
    | "edited"
    | "deleted"
    | "reordered"
    | "timeline-updated"
    | "timeline-deleted"
    | "access-granted"
    | "access-revoked"
    | "entity-added"
    | "entity-edited"
    | "entity-deleted"
    | "link-reset"
    | "link-off"
    | "link-role"
    | "sessions-revoked"
    | "access-ended"
    | "map-changed"
    | "chapter-added"
    | "chapter-edited"
    | "chapter-deleted"
    | "plotline-added"
    | "plotline-edited"
    | "plotline-deleted"
    | "comments-changed"
    | "tasks-changed"
    | "relationship-added"
    | "relationship-edited"
    | "relationship-deleted"
    | "progression-added"
    | "progression-edited"
    | "progression-deleted";
  by: { userId: number; userName: string };
  subject?: string;
  /** access-revoked: the user whose open connections are closed. */
  userId?: number;
  /** link-reset / link-off: users whose access through the link ended; link-role: users whose level changed. */
  userIds?: number[];
  /** link-role: the link's new level. */
  role?: "viewer" | "collaborator";
  /** sessions-revoked (logout, password reset): the revoked sessions' ids; their sockets are closed. */
  sessionIds?: string[];
  /** access-ended: whose access ended or shrank, and why (see `AccessEnd`). */
  ended?: AccessEnd;
  /** comments-changed / tasks-changed: the scene whose comments (tasks) changed. */
  eventId?: number;
  /** The author's room connection (partysocket id), left out of the `sync`: its own state already shows the change. */
  origin?: string;
};

/**
 * A writer's access to a timeline ended or shrank: the room and every open doc of the timeline close the
 * matching sockets at once and ignore anything those connections still send. A socket matches by its user
 * (`userIds`) or by the session it was opened with (`sessionIds`).
 */
export type AccessEnd = {
  userIds?: number[];
  sessionIds?: string[];
  /** removed: no access left; viewer: edit rights gone (the room reconnects them as viewers); signed-out: the session ended. */
  reason: "removed" | "viewer" | "signed-out";
  /** The share link changed (reset, off, new level): docs re-check against D1 every writer admitted with a code. */
  recheckShared?: boolean;
};

export { CloseCodes, CloseReasons, ROOM_CONNECTION_HEADER } from "./close-codes";
