import { createContext, useContext, useMemo, useRef } from "react";
import { ROOM_CONNECTION_HEADER } from "../../../durable-objects/close-codes";
import { type ApiClient, clientWith } from "~/lib/client";

/** What the viewer may do on this timeline (the server decides; this only shapes the screen). */
export type TimelineRole = "owner" | "editor" | "viewer";

/**
 * One timeline as this page works on it: the typed client with the room connection already set, the timeline,
 * the viewer's role and the room. Cards, panels and dialogs take it from context instead of receiving headers
 * through the screen's props. Every write goes through `client`, so the room's resync leaves this page's own
 * connection out (its state already shows the change) while the writer's other tabs still get it.
 */
export type TimelineSession = {
  timelineId: number;
  shareCode?: string | null;
  role: TimelineRole;
  canEdit: boolean;
  /**
   * The typed client: every call names this page's room connection (read when the call is sent). An upload with
   * progress uses it too, with the per-call `fetch` of app/lib/upload-fetch.ts.
   */
  client: ApiClient;
};

/** The header that names a room connection: none until the page has one. */
export function connectionHeaders(connectionId: string | null): Record<string, string> {
  return connectionId ? { [ROOM_CONNECTION_HEADER]: connectionId } : {};
}

/** The viewer's role from the timeline's access level; an ended access reads as a viewer's. */
export function roleOf(accessLevel: string | undefined, canEdit: boolean, ended: boolean): TimelineRole {
  if (accessLevel === "owner" && !ended) return "owner";
  return canEdit ? "editor" : "viewer";
}

/**
 * The session's value, made by the screen that owns the room. The client is one object for the page's life: the
 * connection id is read when a call is sent, so a (re)connection does not render every card again.
 */
export function useTimelineSessionValue({
  timelineId,
  shareCode,
  role,
  canEdit,
  connectionId,
}: {
  timelineId: number;
  shareCode?: string | null;
  role: TimelineRole;
  canEdit: boolean;
  connectionId: string | null;
}): TimelineSession {
  const connection = useRef(connectionId);
  connection.current = connectionId;
  const client = useMemo(() => clientWith(() => connectionHeaders(connection.current)), []);
  return useMemo(() => ({ timelineId, shareCode, role, canEdit, client }), [timelineId, shareCode, role, canEdit, client]);
}

export const TimelineSessionContext = createContext<TimelineSession | null>(null);

/** The timeline session of the screen around; a part that only lives on the timeline screen calls this. */
export function useTimelineSession(): TimelineSession {
  const session = useContext(TimelineSessionContext);
  if (!session) throw new Error("useTimelineSession is used outside the timeline screen");
  return session;
}

/** The session when there is one (a dialog the home screen shares with the timeline screen). */
export function useOptionalTimelineSession(): TimelineSession | null {
  return useContext(TimelineSessionContext);
}
