import { getServerByName } from "partyserver";
import { createDb } from "../db/client";
import { IdentityHeaders } from "../durable-objects/timeline-room";
import type { Env } from "./env";
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
  const timelineId = url.pathname.split("/")[2] ?? "";
  if (!/^\d{1,12}$/.test(timelineId)) return refuse(404, TIMELINE_NOT_FOUND);
  const db = createDb(env.DB);
  const { session } = await authenticate(request, db, (p) => ctx.waitUntil(p));
  if (!session) return refuse(401, "Not authenticated");
  const share = url.searchParams.get("share");
  const found = await loadTimelineAccess(db, session.user, Number(timelineId), share);
  if (!found || found.access === "none") return refuse(403, "You do not have access to this timeline");

  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) {
    if (name.toLowerCase().startsWith("x-storyweave-")) headers.delete(name);
  }
  headers.set(IdentityHeaders.userId, String(session.user.id));
  headers.set(IdentityHeaders.userName, encodeURIComponent(session.user.name ?? session.user.email));
  headers.set(IdentityHeaders.accessMode, found.access);
  // The room ends the socket when this session is revoked or expires (DESIGN.md §2).
  headers.set(IdentityHeaders.sessionId, session.sessionId);
  headers.set(IdentityHeaders.sessionExpires, session.expiresAt);
  if (share && share === found.timeline.shareCode) headers.set(IdentityHeaders.viaShare, "1");
  const stub = await getServerByName(env.TimelineRoom, timelineId);
  return stub.fetch(new Request(request.url, { headers, method: request.method }));
}
