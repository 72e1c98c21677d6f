import type { PartySocket } from "partysocket";
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CloseCodes, ROOM_CONNECTION_HEADER } from "../../durable-objects/close-codes";
import type { ChangeBody, PresenceUser, RoomNotification } from "../../durable-objects/protocol";
import { type AccessEnd, accessEndOf, writingHereText } from "~/components/co-editor-context";
import { showToast } from "~/lib/toast";

export const BANNER_MS = 5000;
export const RECENT_NOTIFICATIONS = 5;

type Options = {
  timelineId: number;
  shareCode?: string | null;
  myUserId: number;
  /** The server says someone else changed data (any write but our own), or we reconnected; "map": only the mind map. */
  onSync: (scope?: "map") => void;
  /** Someone else typed into an event: show their text. */
  onRemoteChange: (eventId: number, change: ChangeBody) => void;
  /** The room closed us for good: access removed or signed out (`why`, in the page's words), or the timeline deleted (null). */
  onAccessLost: (why: AccessEnd | null) => void;
  /** My edit rights ended (made a viewer): the room reconnects me read-only; `why` in the page's words. */
  onViewOnly: (why: AccessEnd) => void;
};

/**
 * The timeline's live room over partysocket (reconnects with backoff), which loads with the protocol's
 * schemas after the page is up (lib/room-connection.ts). Every server message is parsed with those schemas;
 * identity is never sent as a claim the server trusts.
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
    let opened = 0;
    let errorShown = false;
    let socket: PartySocket | null = null;
    let left = false;
    // Known before the socket loads: this page's writes name it from the start.
    const id = newConnectionId();
    setConnectionId(id);
    import("~/lib/room-connection").then(
      ({ openRoomSocket, parseServerMessage, FINAL_CLOSE_CODES }) => {
        if (left) return;
        const room = openRoomSocket({ timelineId, shareCode, id });
        socket = room;
        socketRef.current = room;
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
            showToast({ title: "Connection Error", description: "Failed to connect to the collaboration server", variant: "destructive" });
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
              handlers.current.onSync(msg.scope);
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
      },
      () => {
        // The socket's code did not load (offline, or a new deployment replaced the chunk): say so once.
        if (left) return;
        showToast({ title: "Connection Error", description: "Failed to connect to the collaboration server", variant: "destructive" });
      },
    );

    return () => {
      left = true;
      socketRef.current = null;
      setConnectionId(null);
      send(socket, JSON.stringify({ type: "leave", timelineId }));
      socket?.close();
    };
  }, [timelineId, shareCode, myUserId]);

  const sendChange = useCallback(
    (eventId: number, change: ChangeBody) => {
      send(socketRef.current, JSON.stringify({ type: "change", timelineId, eventId, change }));
    },
    [timelineId],
  );

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

  /**
   * Headers for this page's writes: they name our room connection, so the server's resync leaves
   * it out (our own state already shows the change) while our other tabs still get it.
   */
  const writeHeaders = useMemo(
    (): Record<string, string> => (connectionId ? { [ROOM_CONNECTION_HEADER]: connectionId } : {}),
    [connectionId],
  );

  /** Whether this page has a co-writing editor open (its text must not vanish with the page). */
  const editorsOpen = useCallback(() => openEditors.current.length > 0, []);

  return { connected, users, notifications, writingHere, setEditing, sendChange, writeHeaders, editorsOpen };
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
