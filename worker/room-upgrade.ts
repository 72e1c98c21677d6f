import { getServerByName } from "partyserver";
import { createDb } from "../db/client";
import type { Env } from "./env";
import { authenticate } from "./lib/request-auth";

/**
 * `/ws/{timelineId}`: authenticate before any socket opens, then hand the upgrade to the
 * timeline's room with the identity in headers only this Worker sets.
 */
export async function handleRoomUpgrade(request: Request, env: Env, ctx: ExecutionContext) {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return Response.json({ error: "Expected a WebSocket upgrade" }, { status: 426 });
  }
  const url = new URL(request.url);
  const timelineId = url.pathname.split("/")[2] ?? "";
  if (!/^\d{1,12}$/.test(timelineId)) return Response.json({ error: "Not found" }, { status: 404 });
  const db = createDb(env.DB);
  const { session } = await authenticate(request, db, (p) => ctx.waitUntil(p));
  if (!session) return Response.json({ error: "Not authenticated" }, { status: 401 });

  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) {
    if (name.toLowerCase().startsWith("x-storyweave-")) headers.delete(name);
  }
  headers.set("X-StoryWeave-User-Id", String(session.user.id));
  headers.set("X-StoryWeave-User-Name", encodeURIComponent(session.user.name ?? session.user.email));
  const stub = await getServerByName(env.TimelineRoom, timelineId);
  return stub.fetch(new Request(request.url, { headers, method: request.method }));
}
