import { ACCESS_MODES, CHANGE_TYPES, MAX_CHANGE_TEXT, SYNC_SCOPES } from "./close-codes";
import type { ChangeBody, PresenceUser, RoomNotification, ServerMessage } from "./protocol";

// The room's messages to the browser, checked without zod: the page's socket code reads every message with
// `serverMessageOf`, not with the zod schemas (zod would be most of the socket's JavaScript). `ServerMessageSchema`
// in protocol.ts stays the protocol's definition, used by the server's tests; tests/integration/server-messages.test.ts
// holds the two to the same answer for every message, valid or not. Both read the protocol's lists from close-codes.ts.

type Fields = Record<string, unknown>;

/** A JSON object (as zod's `z.object`: not null, not an array). */
const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
/** As zod's `z.number()`: a finite number. */
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === "string" && (list as readonly string[]).includes(value);

function changeBodyOf(value: unknown): ChangeBody | null {
  if (!isObject(value) || !isOneOf(CHANGE_TYPES, value.type)) return null;
  const text = value.value;
  const ok =
    typeof text === "string" ? text.length <= MAX_CHANGE_TEXT : typeof text === "number" && Number.isSafeInteger(text) && text >= 0;
  return ok ? { type: value.type, value: text as string | number } : null;
}

function presenceUserOf(value: unknown): PresenceUser | null {
  if (!isObject(value)) return null;
  const { userId, userName, accessMode, isOwner, editingEventId } = value;
  if (!isNumber(userId) || !isString(userName) || !isOneOf(ACCESS_MODES, accessMode) || typeof isOwner !== "boolean") return null;
  if (editingEventId !== null && !isNumber(editingEventId)) return null;
  return { userId, userName, accessMode, isOwner, editingEventId };
}

function notificationOf(value: unknown): RoomNotification | null {
  if (!isObject(value)) return null;
  const { type, title, message, createdAt, userId } = value;
  if (!isString(type) || !isString(title) || !isString(message) || !isString(createdAt)) return null;
  if (userId !== undefined && !isNumber(userId)) return null;
  return { type, title, message, createdAt, ...(userId === undefined ? {} : { userId }) };
}

/**
 * A server message as the protocol defines it (`ServerMessageSchema`), or null: anything else (another shape, a
 * wrong type anywhere, an unknown `type`) is not a message this client acts on. What it returns is built afresh from
 * the checked fields only; nothing else of the input is kept.
 */
export function serverMessageOf(json: unknown): ServerMessage | null {
  if (!isObject(json)) return null;
  switch (json.type) {
    case "presence": {
      const presence = json.presence;
      if (!isObject(presence) || !Array.isArray(presence.users)) return null;
      const users: PresenceUser[] = [];
      for (const entry of presence.users) {
        const user = presenceUserOf(entry);
        if (!user) return null;
        users.push(user);
      }
      return { type: "presence", presence: { users } };
    }
    case "change": {
      const { eventId, userId, userName } = json;
      const change = changeBodyOf(json.change);
      if (!isNumber(eventId) || !isNumber(userId) || !isString(userName) || !change) return null;
      return { type: "change", eventId, userId, userName, change };
    }
    case "sync": {
      const { scope, eventId } = json;
      if (scope !== undefined && !isOneOf(SYNC_SCOPES, scope)) return null;
      if (eventId !== undefined && !isNumber(eventId)) return null;
      return { type: "sync", ...(scope === undefined ? {} : { scope }), ...(eventId === undefined ? {} : { eventId }) };
    }
    case "notification": {
      const notification = notificationOf(json.notification);
      return notification ? { type: "notification", notification } : null;
    }
    case "error":
      return isString(json.error) ? { type: "error", error: json.error } : null;
    default:
      return null;
  }
}
