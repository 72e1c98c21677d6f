import { PartySocket } from "partysocket";
import { type Dispatch, type RefObject, type SetStateAction, startTransition } from "react";
import { CloseCodes } from "../../../durable-objects/close-codes";
import type { ChangeBody, PresenceUser, RoomNotification, ServerMessage, SyncScope } from "../../../durable-objects/protocol";
import { serverMessageOf } from "../../../durable-objects/server-messages";
import { type AccessEnd, accessEndOf } from "~/features/co-writing/co-editor-context";
import { showToast } from "~/lib/toast";

/** How many of the room's recent notifications the page keeps. */
export const RECENT_NOTIFICATIONS = 5;

// The live room's socket and the check of what it hears (server-messages.ts, without zod), loaded by
// useTimelineRoom's effect: after the page has painted and hydrated, never with the first screen's JavaScript.

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

/**
 * A server message as the protocol defines it, or null (not JSON, or not a message this client knows): a malformed
 * or hostile message is ignored.
 */
export function parseServerMessage(data: unknown): ServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(String(data));
  } catch {
    return null;
  }
  return serverMessageOf(json);
}

/** What the page does with the room's news. */
export type RoomHandlers = {
  /**
   * The server says someone else changed data (any write but our own), or we reconnected; "map": only the mind map;
   * "comments": only the comments of scene `eventId`.
   */
  onSync: (scope?: SyncScope, eventId?: number) => void;
  /** Someone else typed into an event: show their text. */
  onRemoteChange: (eventId: number, change: ChangeBody) => void;
  /** The room closed us for good: access removed or signed out (`why`, in the page's words), or the timeline deleted (null). */
  onAccessLost: (why: AccessEnd | null) => void;
  /** My edit rights ended (made a viewer): the room reconnects me read-only; `why` in the page's words. */
  onViewOnly: (why: AccessEnd) => void;
};

type RoomState = {
  timelineId: number;
  shareCode?: string | null;
  /** This page's connection id (its writes carry it). */
  id: string;
  myUserId: number;
  /** The events whose editor this page has open (the room is told the latest one). */
  openEditors: RefObject<number[]>;
  handlers: RefObject<RoomHandlers>;
  setConnected: Dispatch<SetStateAction<boolean>>;
  setUsers: Dispatch<SetStateAction<PresenceUser[]>>;
  setNotifications: Dispatch<SetStateAction<RoomNotification[]>>;
};

/** Opens the room's socket and turns what it hears into the page's state (useTimelineRoom's effect calls it). */
export function connectRoom({
  timelineId,
  shareCode,
  id,
  myUserId,
  openEditors,
  handlers,
  setConnected,
  setUsers,
  setNotifications,
}: RoomState) {
  let opened = 0;
  let errorShown = false;
  const room = openRoomSocket({ timelineId, shareCode, id });
  room.addEventListener("open", () => {
    // The room's news renders as a transition: it never holds up typing or scrolling.
    startTransition(() => setConnected(true));
    errorShown = false;
    room.send(JSON.stringify({ type: "join", timelineId }));
    // The room forgets us on a reconnect: say again which editor is open.
    const open = openEditors.current.at(-1);
    if (open !== undefined) room.send(JSON.stringify({ type: "editing", eventId: open }));
    // After a reconnect we may have missed syncs: refetch.
    if (opened++ > 0) handlers.current.onSync();
  });
  room.addEventListener("close", ({ code, reason }) => {
    setConnected(false);
    setUsers([]);
    const why = accessEndOf(code, reason);
    // partysocket does not reconnect after these (its shouldReconnectOnClose).
    if (FINAL_CLOSE_CODES.includes(code)) {
      room.close();
      handlers.current.onAccessLost(code === CloseCodes.timelineDeleted ? null : why);
    } else if (code === CloseCodes.accessChanged && why) {
      handlers.current.onViewOnly(why);
    }
  });
  room.addEventListener("error", () => {
    setConnected(false);
    if (!errorShown) {
      errorShown = true;
      showToast({
        title: "Connection Error",
        description: "Failed to connect to the collaboration server",
        variant: "destructive",
      });
    }
  });
  room.addEventListener("message", (event) => {
    const msg = parseServerMessage(event.data);
    if (!msg) return;
    switch (msg.type) {
      case "presence":
        startTransition(() => setUsers(msg.presence.users));
        break;
      case "sync":
        // scope "map": only the mind map changed; the lists (and the page's data) need no reload.
        handlers.current.onSync(msg.scope, msg.eventId);
        break;
      case "change":
        // Live typing only: a move reaches us as the server's `sync` after it is saved.
        if (msg.userId === myUserId || msg.change.type === "position") break;
        handlers.current.onRemoteChange(msg.eventId, msg.change);
        break;
      case "notification":
        if (msg.notification.userId === myUserId) break;
        startTransition(() => setNotifications((list) => [msg.notification, ...list].slice(0, RECENT_NOTIFICATIONS)));
        break;
      case "error":
        break;
    }
  });
  return room;
}
