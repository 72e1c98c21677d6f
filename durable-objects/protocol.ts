import { z } from "zod";

// The room's wire protocol (SPEC.md §7 WebSocket messages; DESIGN.md §5). No Workers imports:
// the browser client parses server messages with the same schemas.

export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MAX_MESSAGES_PER_SECOND = 20;

export const AccessModeSchema = z.enum(["owner", "collaborator", "viewer"]);
export type AccessMode = z.infer<typeof AccessModeSchema>;

const ChangeBodySchema = z.object({
  type: z.enum(["title", "content", "position"]),
  value: z.union([z.string().max(50_000), z.number().int().min(0)]),
});
export type ChangeBody = z.infer<typeof ChangeBodySchema>;

// Identity fields are accepted for SPEC.md compatibility and ignored: the room uses the identity
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
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const PresenceUserSchema = z.object({
  userId: z.number(),
  userName: z.string(),
  accessMode: AccessModeSchema,
  isOwner: z.boolean(),
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

export const ServerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("presence"), presence: z.object({ users: z.array(PresenceUserSchema) }) }),
  z.object({
    type: z.literal("change"),
    eventId: z.number(),
    userId: z.number(),
    userName: z.string(),
    change: ChangeBodySchema,
  }),
  z.object({ type: z.literal("sync") }),
  z.object({ type: z.literal("notification"), notification: RoomNotificationSchema }),
  z.object({ type: z.literal("error"), error: z.string() }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

export { CloseCodes } from "./close-codes";
