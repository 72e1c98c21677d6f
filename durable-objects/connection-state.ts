import type { Connection } from "partyserver";
import { type AccessMode, AccessModeSchema, type PresenceUser } from "./protocol";

/**
 * Kept in the WebSocket attachment, so it survives hibernation. `sessionId` (the stored SHA-256 of the
 * session token, never the token) and its expiry let the room end the socket when the session ends;
 * `viaShare` marks a connection admitted with the share link's code.
 */
export type ConnState = {
  userId: number;
  userName: string;
  accessMode: AccessMode;
  isOwner: boolean;
  sessionId?: string;
  sessionExpiresAt?: string;
  viaShare?: boolean;
  /** The event this connection's editor has open (co-writing presence). */
  editingEventId?: number | null;
  /** Access ended: nothing this connection still sends counts (it is closing). */
  ended?: boolean;
};

/** Headers only the Worker sets (it strips any a client sends) after authenticating the upgrade. */
export const IdentityHeaders = {
  userId: "X-StoryWeave-User-Id",
  userName: "X-StoryWeave-User-Name",
  accessMode: "X-StoryWeave-Access",
  sessionId: "X-StoryWeave-Session",
  sessionExpires: "X-StoryWeave-Session-Expires",
  viaShare: "X-StoryWeave-Via-Share",
} as const;

const SESSION_ID = /^[0-9a-f]{64}$/;

/**
 * The connection's state from the identity headers the Worker set after authenticating the upgrade; null when they
 * are missing or malformed (the socket is then refused).
 */
export function connStateFrom(h: Headers): ConnState | null {
  const userId = Number(h.get(IdentityHeaders.userId));
  const access = AccessModeSchema.safeParse(h.get(IdentityHeaders.accessMode));
  if (!Number.isInteger(userId) || userId <= 0 || !access.success) return null;
  const sessionId = h.get(IdentityHeaders.sessionId) ?? "";
  const sessionExpiresAt = h.get(IdentityHeaders.sessionExpires) ?? "";
  if (!SESSION_ID.test(sessionId) || Number.isNaN(Date.parse(sessionExpiresAt))) return null;
  return {
    userId,
    userName: decodeURIComponent(h.get(IdentityHeaders.userName) ?? "") || "Writer",
    accessMode: access.data,
    isOwner: access.data === "owner",
    sessionId,
    sessionExpiresAt,
    viaShare: h.get(IdentityHeaders.viaShare) === "1",
  };
}

/** Who is here, one entry per writer (owner first, then by name), leaving out a connection that is closing. */
export function presenceOf(connections: Iterable<Connection<ConnState>>, closingId?: string): PresenceUser[] {
  const byUser = new Map<number, PresenceUser>();
  for (const c of connections) {
    if (c.id === closingId) continue;
    const s = c.state;
    if (!s) continue;
    const seen = byUser.get(s.userId);
    if (!seen) {
      byUser.set(s.userId, {
        userId: s.userId,
        userName: s.userName,
        accessMode: s.accessMode,
        isOwner: s.isOwner,
        editingEventId: s.editingEventId ?? null,
      });
    } else if (seen.editingEventId === null && s.editingEventId) {
      seen.editingEventId = s.editingEventId;
    }
  }
  return [...byUser.values()].sort((a, b) => Number(b.isOwner) - Number(a.isOwner) || a.userName.localeCompare(b.userName));
}
