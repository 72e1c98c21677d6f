import { getServerByName } from "partyserver";
import type { Env } from "../env";

export type RoomChange = {
  action: "added" | "edited" | "deleted" | "reordered" | "timeline-updated" | "timeline-deleted" | "access-changed";
  by: { userId: number; userName: string };
  subject?: string;
  /** access-changed: the user whose open connections must be re-checked. */
  userId?: number;
};

/**
 * Tells the timeline's room that REST changed something, so connected clients resync (DESIGN.md §1).
 * Runs after the response (waitUntil); a room that is down must never fail the write.
 */
export function notifyRoom(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, timelineId: number, change: RoomChange) {
  ctx.waitUntil(
    (async () => {
      const stub = await getServerByName(env.TimelineRoom, String(timelineId));
      await stub.notifySync(change);
    })().catch((error) => console.error("[room] notify failed:", String(error))),
  );
}
