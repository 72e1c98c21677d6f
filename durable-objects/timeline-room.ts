import { type Connection, type ConnectionContext, Server } from "partyserver";
import type { Env } from "../worker/env";
import type { RoomChange } from "../worker/lib/room";

/**
 * One room per timeline, addressed by the timeline id. The Worker authenticates and authorizes
 * the upgrade before it reaches the room (DESIGN.md §5); identity arrives in headers the Worker sets.
 * The live-collaboration issue adds presence, change relay and notifications.
 */
export class TimelineRoom extends Server<Env> {
  static options = { hibernate: true };

  onConnect(connection: Connection, ctx: ConnectionContext) {
    const userId = ctx.request.headers.get("X-StoryWeave-User-Id");
    if (!userId) {
      connection.close(4401, "Not authenticated");
      return;
    }
    connection.setState({ userId: Number(userId) });
  }

  onMessage(connection: Connection, message: string | ArrayBuffer | ArrayBufferView) {
    if (typeof message !== "string" || message.length > 65_536) return;
    this.broadcast(message, [connection.id]);
  }

  /** Called by the Worker (DO RPC) after a REST mutation of the timeline or its events. */
  async notifySync(_change: RoomChange) {
    this.broadcast(JSON.stringify({ type: "sync" }));
  }
}
