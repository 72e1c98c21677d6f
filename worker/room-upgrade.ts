import { getServerByName } from "partyserver";
import { createDb } from "../db/client";
import { IdentityHeaders } from "../durable-objects/timeline-room";
import type { Env } from "./env";
import { roomConnectionId } from "./lib/room";
import { TIMELINE_NOT_FOUND, loadTimelineAccess } from "./services/access";
import { authenticate } from "./services/sessions";

const refuse = (status: number, error: string) => Response.json({ error }, { status });

/**
 * `/ws/{timelineId}` (`?share=` in shared mode): authenticate and authorize before any socket
 * opens, then hand the upgrade to the timeline's room with the identity in headers only this
 * Worker sets (DESIGN.md §5).
 */
export async function handleRoomUpgrade(request: Request, env: Env, ctx: ExecutionContext) {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return refuse(426, "Expected a WebSocket upgrade");
  }
  const url = new URL(request.url);
  // One spelling per room: `/ws/01` or `/ws/1/x` would otherwise reach another room name than `/ws/1`.
  const timelineId = /^\/ws\/([1-9]\d{0,11})$/.exec(url.pathname)?.[1];
  if (!timelineId) return refuse(404, TIMELINE_NOT_FOUND);
  // Browsers always send Origin on a WebSocket upgrade: a cookie-carrying one from another site is refused.
  // Non-browser clients (bearer token, no Origin) stay allowed.
  const origin = request.headers.get("Origin");
  if (origin && origin !== url.origin) return refuse(403, "Cross-site WebSocket refused");
  const db = createDb(env.DB);
  const { session } = await authenticate(request, db, (p) => ctx.waitUntil(p));
  if (!session) return refuse(401, "Not authenticated");
  const share = url.searchParams.get("share");
  const found = await loadTimelineAccess(db, session.user, Number(timelineId), share);
  if (!found || found.access === "none") return refuse(403, "You do not have access to this timeline");

  // Only headers this Worker sets reach the room: partyserver reads x-partykit-* (room name, props),
  // and the room trusts x-storyweave-* as identity.
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) {
    const lower = name.toLowerCase();
    if (lower.startsWith("x-storyweave-") || lower.startsWith("x-partykit-")) headers.delete(name);
  }
  headers.set(IdentityHeaders.userId, String(session.user.id));
  headers.set(IdentityHeaders.userName, encodeURIComponent(session.user.name ?? session.user.email));
  headers.set(IdentityHeaders.accessMode, found.access);
  // The room ends the socket when this session is revoked or expires (DESIGN.md §2).
  headers.set(IdentityHeaders.sessionId, session.sessionId);
  headers.set(IdentityHeaders.sessionExpires, session.expiresAt);
  if (share && share === found.timeline.shareCode) headers.set(IdentityHeaders.viaShare, "1");
  // partyserver takes the connection id from `_pk`. Scoped to the signed-in user, a client-chosen id
  // can never equal another writer's connection (nor can X-Room-Connection name one: lib/room.ts).
  url.searchParams.set("_pk", roomConnectionId(session.user.id, url.searchParams.get("_pk")));
  const stub = await getServerByName(env.TimelineRoom, timelineId);
  return stub.fetch(new Request(url, { headers, method: request.method }));
}
