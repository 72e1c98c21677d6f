import { getServerByName } from "partyserver";
import { ROOM_CONNECTION_HEADER, type RoomChange } from "../../durable-objects/protocol";
import type { Env } from "../env";

/** How the services tell a timeline's room about a write (DESIGN.md §1). */
export type RoomNotifier = (timelineId: number, change: Omit<RoomChange, "origin">) => void;

/**
 * A notifier for one request. Each call runs after the response (waitUntil): a room that is down
 * must never fail the write. `origin` is the author's room connection, named by the request's
 * `X-Room-Connection` header, so the room can leave it out of the resync.
 */
export function createRoomNotifier(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, request?: Request): RoomNotifier {
  const origin = roomOrigin(request);
  return (timelineId, change) => {
    ctx.waitUntil(
      (async () => {
        const stub = await getServerByName(env.TimelineRoom, String(timelineId));
        await stub.notifySync(origin ? { ...change, origin } : change);
      })().catch((error) => console.error("[room] notify failed:", String(error))),
    );
  };
}

function roomOrigin(request?: Request) {
  const value = request?.headers.get(ROOM_CONNECTION_HEADER);
  return value && /^[\w-]{1,64}$/.test(value) ? value : undefined;
}
