import { getServerByName } from "partyserver";
import { createDb } from "../db/client";
import { IdentityHeaders } from "../durable-objects/connection-state";
import type { Env } from "./env";
import { roomConnectionId } from "./lib/room";
import { HttpError } from "./lib/errors";
import { TIMELINE_NOT_FOUND, loadTimelineAccess } from "./services/access";
import { EVENT_NOT_FOUND, loadEventWithAccess } from "./services/events";
import { authenticate } from "./services/sessions";

const refuse = (status: number, error: string) => Response.json({ error }, { status });

/**
 * `/ws/{timelineId}` (`?share=` in shared mode): authenticate and authorize before any socket
 * opens, then hand the upgrade to the timeline's room with the identity in headers only this
 * Worker sets. `/ws/{timelineId}/events/{eventId}/doc` is an event's shared text
 *: writers with edit access only.
 */
export async function handleRoomUpgrade(request: Request, env: Env, ctx: ExecutionContext) {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return refuse(426, "Expected a WebSocket upgrade");
  }
  const url = new URL(request.url);
  // One spelling per room: `/ws/01` or `/ws/1/x` would otherwise reach another room name than `/ws/1`.
  const path = /^\/ws\/([1-9]\d{0,11})(?:\/events\/([1-9]\d{0,11})\/doc)?$/.exec(url.pathname);
  if (!path) return refuse(404, TIMELINE_NOT_FOUND);
  const [, timelineId, eventId] = path;
  // Browsers always send Origin on a WebSocket upgrade: a cookie-carrying one from another site is refused.
  // Non-browser clients (bearer token, no Origin) stay allowed.
  const origin = request.headers.get("Origin");
  if (origin && origin !== url.origin) return refuse(403, "Cross-site WebSocket refused");
  const db = createDb(env.DB);
  const { session } = await authenticate(request, db, (p) => ctx.waitUntil(p));
  if (!session) return refuse(401, "Not authenticated");
  const share = url.searchParams.get("share");
  let access: "owner" | "collaborator" | "viewer";
  let timelineShareCode: string | null;
  if (eventId) {
    try {
      const found = await loadEventWithAccess(db, session.user, Number(eventId), "collaborator", share);
      if (found.event.timelineId !== Number(timelineId)) return refuse(404, EVENT_NOT_FOUND);
      access = found.access;
      // The doc re-checks access with the code itself (EventDoc.onAlarm); it has no use for 'via share'.
      timelineShareCode = null;
    } catch (error) {
      if (error instanceof HttpError) return refuse(error.status, error.message);
      throw error;
    }
  } else {
    const found = await loadTimelineAccess(db, session.user, Number(timelineId), share);
    if (!found || found.access === "none") return refuse(403, "You do not have access to this timeline");
    access = found.access;
    timelineShareCode = found.timeline.shareCode;
  }

  // Only headers this Worker sets reach the room: partyserver reads x-partykit-* (room name, props),
  // and the room trusts x-storyweave-* as identity.
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) {
    const lower = name.toLowerCase();
    if (lower.startsWith("x-storyweave-") || lower.startsWith("x-partykit-")) headers.delete(name);
  }
  headers.set(IdentityHeaders.userId, String(session.user.id));
  headers.set(IdentityHeaders.userName, encodeURIComponent(session.user.name ?? session.user.email));
  headers.set(IdentityHeaders.accessMode, access);
  // The room ends the socket when this session is revoked or expires.
  headers.set(IdentityHeaders.sessionId, session.sessionId);
  headers.set(IdentityHeaders.sessionExpires, session.expiresAt);
  if (share && share === timelineShareCode) headers.set(IdentityHeaders.viaShare, "1");
  // partyserver takes the connection id from `_pk`. Scoped to the signed-in user, a client-chosen id
  // can never equal another writer's connection (nor can X-Room-Connection name one: lib/room.ts).
  url.searchParams.set("_pk", roomConnectionId(session.user.id, url.searchParams.get("_pk")));
  const stub = eventId ? await getServerByName(env.EventDoc, eventId) : await getServerByName(env.TimelineRoom, timelineId);
  return stub.fetch(new Request(url, { headers, method: request.method }));
}
