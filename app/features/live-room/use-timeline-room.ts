import type { PartySocket } from "partysocket";
import { useCallback, useEffect, useRef, useState } from "react";
import type { PresenceUser, RoomNotification } from "../../../durable-objects/protocol";
import { writingHereText } from "~/features/co-writing/co-editor-context";
import type { RoomHandlers } from "~/features/live-room/room-connection";
import { showToast } from "~/lib/toast";
import { whenIdle } from "~/lib/when-idle";

export const BANNER_MS = 5000;

type Options = RoomHandlers & {
  timelineId: number;
  shareCode?: string | null;
  myUserId: number;
};

/**
 * The timeline's live room over partysocket (reconnects with backoff), which loads after the page is up
 * (features/live-room/room-connection.ts). Every server message is checked against the protocol
 * (durable-objects/server-messages.ts) and ignored when it does not match; identity is never sent as a claim the
 * server trusts.
 */
export function useTimelineRoom({ timelineId, shareCode, myUserId, onSync, onRemoteChange, onAccessLost, onViewOnly }: Options) {
  const [connected, setConnected] = useState(false);
  const [users, setUsers] = useState<PresenceUser[]>([]);
  const [notifications, setNotifications] = useState<RoomNotification[]>([]);
  /** The events whose editor this page has open (the room is told the latest one). */
  const openEditors = useRef<number[]>([]);
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const socketRef = useRef<PartySocket | null>(null);
  const handlers = useRef({ onSync, onRemoteChange, onAccessLost, onViewOnly });
  handlers.current = { onSync, onRemoteChange, onAccessLost, onViewOnly };

  useEffect(() => {
    let socket: PartySocket | null = null;
    let left = false;
    // Known before the socket loads: this page's writes name it from the start.
    const id = newConnectionId();
    setConnectionId(id);
    // The room's code (partysocket and the check of the server's messages) loads once the hydrated page is idle, so it never
    // competes with the first screen's JavaScript; a busy page still connects within a second.
    const load = () =>
      import("~/features/live-room/room-connection").then(
        ({ connectRoom }) => {
          if (left) return;
          socket = connectRoom({ timelineId, shareCode, id, myUserId, openEditors, handlers, setConnected, setUsers, setNotifications });
          socketRef.current = socket;
        },
        () => {
          // The socket's code did not load (offline, or a new deployment replaced the chunk): say so once.
          if (left) return;
          showToast({ title: "Connection Error", description: "Failed to connect to the collaboration server", variant: "destructive" });
        },
      );
    const cancelIdle = whenIdle(load, 1000);

    return () => {
      left = true;
      cancelIdle();
      socketRef.current = null;
      setConnectionId(null);
      send(socket, JSON.stringify({ type: "leave", timelineId }));
      socket?.close();
    };
  }, [timelineId, shareCode, myUserId]);

  /** A card's co-writing editor opened or closed: the room shows 'Mara is writing here' to the others. */
  const setEditing = useCallback((eventId: number, open: boolean) => {
    const before = openEditors.current.at(-1) ?? null;
    openEditors.current = openEditors.current.filter((id) => id !== eventId);
    if (open) openEditors.current.push(eventId);
    const now = openEditors.current.at(-1) ?? null;
    if (now !== before) send(socketRef.current, JSON.stringify({ type: "editing", eventId: now }));
  }, []);

  /** 'Mara is writing here' for an event: the other present users with its editor open (null: nobody). */
  const writingHere = useCallback(
    (eventId: number) => {
      const names = new Map<number, string>();
      for (const u of users) if (u.userId !== myUserId && u.editingEventId === eventId) names.set(u.userId, u.userName);
      return writingHereText([...names.values()]);
    },
    [users, myUserId],
  );

  /** Whether this page has a co-writing editor open (its text must not vanish with the page). */
  const editorsOpen = useCallback(() => openEditors.current.length > 0, []);

  return { connected, users, notifications, writingHere, setEditing, connectionId, editorsOpen };
}

/** A connection id the server accepts (`[\w-]{1,64}`); crypto.randomUUID is missing outside secure contexts. */
function newConnectionId() {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** Sends when open; anything else is dropped (see roomSocketOptions). */
function send(socket: PartySocket | null, data: string) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(data);
}
