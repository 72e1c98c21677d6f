import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CloseCodes, ROOM_CONNECTION_HEADER } from "../../durable-objects/close-codes";
import type { ChangeBody, PresenceUser, RoomNotification, ServerMessage } from "../../durable-objects/protocol";
import { type AccessEnd, accessEndOf, writingHereText } from "~/components/co-editor-context";
import { RoomSocket } from "~/lib/room-socket";
import { showToast } from "~/lib/toast";

export const BANNER_MS = 5000;
export const RECENT_NOTIFICATIONS = 5;

type Options = {
  timelineId: number;
  shareCode?: string | null;
  myUserId: number;
  /** The server says someone else changed data (any write but our own), or we reconnected; "map": only the mind map. */
  onSync: (scope?: "map") => void;
  /** Someone else typed into an event: show their text (SPEC.md §4). */
  onRemoteChange: (eventId: number, change: ChangeBody) => void;
  /** The room closed us for good: access removed or signed out (`why`, in the page's words), or the timeline deleted (null). */
  onAccessLost: (why: AccessEnd | null) => void;
  /** My edit rights ended (made a viewer): the room reconnects me read-only; `why` in the page's words. */
  onViewOnly: (why: AccessEnd) => void;
};

/**
 * The timeline's live room (lib/room-socket.ts: reconnects with backoff). Parses every server message
 * with the protocol schema; identity is never sent as a claim the server trusts.
 */
export function useTimelineRoom({ timelineId, shareCode, myUserId, onSync, onRemoteChange, onAccessLost, onViewOnly }: Options) {
  const [connected, setConnected] = useState(false);
  const [users, setUsers] = useState<PresenceUser[]>([]);
  const [notifications, setNotifications] = useState<RoomNotification[]>([]);
  /** The events whose editor this page has open (the room is told the latest one; issue 13). */
  const openEditors = useRef<number[]>([]);
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const socketRef = useRef<RoomSocket | null>(null);
  const handlers = useRef({ onSync, onRemoteChange, onAccessLost, onViewOnly });
  handlers.current = { onSync, onRemoteChange, onAccessLost, onViewOnly };

  useEffect(() => {
    let opened = 0;
    let errorShown = false;
    const socket = new RoomSocket(
      `ws/${timelineId}`,
      shareCode ? { share: shareCode } : {},
      {
        open: () => {
          // The room's news renders as a transition: it never holds up typing or scrolling (issue 11).
          startTransition(() => setConnected(true));
          errorShown = false;
          socket.send(JSON.stringify({ type: "join", timelineId }));
          // The room forgets us on a reconnect: say again which editor is open.
          const open = openEditors.current.at(-1);
          if (open !== undefined) socket.send(JSON.stringify({ type: "editing", eventId: open }));
          // After a reconnect we may have missed syncs: refetch.
          if (opened++ > 0) handlers.current.onSync();
        },
        close: (code, reason) => {
          setConnected(false);
          setUsers([]);
          const why = accessEndOf(code, reason);
          if (code === CloseCodes.accessRemoved || code === CloseCodes.timelineDeleted || code === CloseCodes.unauthenticated) {
            socket.close();
            handlers.current.onAccessLost(code === CloseCodes.timelineDeleted ? null : why);
          } else if (code === CloseCodes.accessChanged && why) {
            handlers.current.onViewOnly(why);
          }
        },
        error: () => {
          setConnected(false);
          if (!errorShown) {
            errorShown = true;
            showToast({ title: "Connection Error", description: "Failed to connect to the collaboration server", variant: "destructive" });
          }
        },
        message: (data) => {
          let json: unknown;
          try {
            json = JSON.parse(String(data));
          } catch {
            return;
          }
          const msg = asServerMessage(json);
          if (!msg) return;
          switch (msg.type) {
            case "presence":
              startTransition(() => setUsers(msg.presence.users));
              break;
            case "sync":
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
        },
      },
      { min: 500 + Math.random() * 500, max: 10_000 },
    );
    socketRef.current = socket;
    setConnectionId(socket.id);

    return () => {
      socketRef.current = null;
      setConnectionId(null);
      socket.send(JSON.stringify({ type: "leave", timelineId }));
      socket.close();
    };
  }, [timelineId, shareCode, myUserId]);

  const sendChange = useCallback(
    (eventId: number, change: ChangeBody) => {
      socketRef.current?.send(JSON.stringify({ type: "change", timelineId, eventId, change }));
    },
    [timelineId],
  );

  /** A card's co-writing editor opened or closed: the room shows 'Mara is writing here' to the others. */
  const setEditing = useCallback((eventId: number, open: boolean) => {
    const before = openEditors.current.at(-1) ?? null;
    openEditors.current = openEditors.current.filter((id) => id !== eventId);
    if (open) openEditors.current.push(eventId);
    const now = openEditors.current.at(-1) ?? null;
    if (now !== before) socketRef.current?.send(JSON.stringify({ type: "editing", eventId: now }));
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

/**
 * The room is our own server, so a structural check is enough here (the server validates with zod;
 * keeping zod out of this hook keeps it out of the timeline page's bundle).
 */
function asServerMessage(json: unknown): ServerMessage | null {
  if (!json || typeof json !== "object") return null;
  const m = json as Record<string, unknown>;
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object";
  switch (m.type) {
    case "sync":
      // "map": only the mind map changed; the lists (and the page's data) need no reload.
      return m.scope === "map" ? { type: "sync", scope: "map" } : { type: "sync" };
    case "presence":
      return isObject(m.presence) && Array.isArray(m.presence.users) ? (m as ServerMessage) : null;
    case "change":
      return typeof m.eventId === "number" && typeof m.userId === "number" && isObject(m.change) && typeof m.change.type === "string"
        ? (m as ServerMessage)
        : null;
    case "notification":
      return isObject(m.notification) && typeof m.notification.message === "string" ? (m as ServerMessage) : null;
    case "error":
      return typeof m.error === "string" ? (m as ServerMessage) : null;
    default:
      return null;
  }
}
