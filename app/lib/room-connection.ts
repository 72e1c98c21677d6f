import { PartySocket } from "partysocket";
import { CloseCodes } from "../../durable-objects/close-codes";
import { type ServerMessage, ServerMessageSchema } from "../../durable-objects/protocol";

// The live room's socket and the protocol's schemas (with zod), loaded by useTimelineRoom's effect: after the
// page has painted and hydrated, never with the first screen's JavaScript.

/** Closed with one of these, the room is over for this page (signed out, access removed, timeline deleted): no reconnect. */
export const FINAL_CLOSE_CODES: readonly number[] = [CloseCodes.unauthenticated, CloseCodes.accessRemoved, CloseCodes.timelineDeleted];

/**
 * partysocket's defaults, bounded: a reconnect waits `min` (jittered, so a restarted server is not hit by every
 * page at once), ×1.3 per failure up to 10 s; a connection that does not open in 4 s is tried again, and only one
 * that stayed up 5 s resets the backoff. Messages sent while closed are dropped, not queued: each is either state
 * the server sends again on join or a moment that may pass.
 */
export function roomSocketOptions(random = Math.random()) {
  return {
    minReconnectionDelay: 500 + random * 500,
    maxReconnectionDelay: 10_000,
    reconnectionDelayGrowFactor: 1.3,
    connectionTimeout: 4000,
    minUptime: 5000,
    maxRetries: Number.POSITIVE_INFINITY,
    maxEnqueuedMessages: 0,
    shouldReconnectOnClose: (event: { code: number }) => !FINAL_CLOSE_CODES.includes(event.code),
  };
}

/** The socket of timeline `timelineId`'s room (`/ws/{id}?_pk={id}`, `&share=` through a share link). */
export function openRoomSocket({ timelineId, shareCode, id }: { timelineId: number; shareCode?: string | null; id: string }) {
  return new PartySocket({
    host: window.location.host,
    protocol: window.location.protocol === "https:" ? "wss" : "ws",
    basePath: `ws/${timelineId}`,
    id,
    query: shareCode ? { share: shareCode } : undefined,
    ...roomSocketOptions(),
  });
}

/** A server message as the protocol defines it, or null (not JSON, or not a message this client knows). */
export function parseServerMessage(data: unknown): ServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(String(data));
  } catch {
    return null;
  }
  const parsed = ServerMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
