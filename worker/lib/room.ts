import { getServerByName } from "partyserver";
import { ROOM_CONNECTION_HEADER, type RoomChange } from "../../durable-objects/protocol";

/**
 * The Worker's bindings, through the global type worker/env.ts declares (importing env.ts here would make the
 * services that take these helpers' types part of an import circle with the Durable Objects).
 */
type Env = Cloudflare.Env;

/**
 * How the services tell a timeline's room about a write. The promise settles (never rejects)
 * once the room has handled it: most writes leave it to run after the response, an access that ends awaits it.
 */
export type RoomNotifier = (timelineId: number, change: Omit<RoomChange, "origin">) => Promise<void>;

/**
 * A notifier for one request. Each call also runs after the response (waitUntil): a room that is down
 * must never fail the write. `origin` is the author's room connection, named by the request's
 * `X-Room-Connection` header, so the room can leave it out of the resync.
 */
export function createRoomNotifier(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, request?: Request, userId?: number): RoomNotifier {
  const origin = roomOrigin(request, userId);
  return (timelineId, change) => {
    const told = (async () => {
      const stub = await getServerByName(env.TimelineRoom, String(timelineId));
      await stub.notifySync(origin ? { ...change, origin } : change);
    })().catch((error) => console.error("[room] notify failed:", String(error)));
    ctx.waitUntil(told);
    return told;
  };
}

/**
 * A room connection's id as the Worker hands it to partyserver: the signed-in user's id, then the id
 * the client chose (partysocket's `_pk`; a fresh one when missing or malformed).
 */
export function roomConnectionId(userId: number, clientId: string | null) {
  const own = clientId && CLIENT_CONNECTION_ID.test(clientId) ? clientId : crypto.randomUUID();
  return `u${userId}-${own}`;
}

const CLIENT_CONNECTION_ID = /^[\w-]{1,64}$/;

/** The writer's own connection only: a header naming anyone else's cannot match (ids are user-scoped). */
function roomOrigin(request?: Request, userId?: number) {
  const value = request?.headers.get(ROOM_CONNECTION_HEADER);
  return userId && value && CLIENT_CONNECTION_ID.test(value) ? roomConnectionId(userId, value) : undefined;
}

/** An event's live shared doc, told about a REST edit of its text: see `EventDoc.applyEdit`. */
export type LiveDocs = (
  eventId: number,
  edit: { title?: string; content?: string; author: { id: number; name: string; email: string } },
) => Promise<{ live: false } | { live: true; version: number }>;

/** Deleted events' shared docs: their writers' sockets close and their stored Yjs state goes (`EventDoc.remove`). */
export type DocRemover = (eventIds: number[]) => Promise<void>;

/**
 * An event's doc for an RPC that needs no loaded doc: not through getServerByName, which starts the object (its
 * onLoad reads D1 and stores the doc). A doc with writers is started already; any other answers without loading.
 */
const docStub = (env: Env, eventId: number) => env.EventDoc.get(env.EventDoc.idFromName(String(eventId)));

/** A few docs at a time; a doc that cannot be reached is logged (its own load finds the row gone and clears it). */
export function createDocRemover(env: Env): DocRemover {
  return async (eventIds) => {
    for (let at = 0; at < eventIds.length; at += 10) {
      await Promise.all(
        eventIds.slice(at, at + 10).map(async (id) => {
          try {
            await docStub(env, id).remove();
          } catch (error) {
            console.error("[doc] remove failed:", String(error));
          }
        }),
      );
    }
  };
}

/** When the doc cannot be reached, the edit goes to D1 as before (the doc merges it when it next loads). */
export function createLiveDocs(env: Env): LiveDocs {
  return async (eventId, edit) => {
    try {
      return await docStub(env, eventId).applyEdit(edit);
    } catch (error) {
      console.error("[doc] live edit failed:", String(error));
      return { live: false };
    }
  };
}

/** The scene's shared doc as one Yjs update, for reading (the doc is started, and stored, if nobody had it open). */
export async function readDocState(env: Env, eventId: number): Promise<Uint8Array | null> {
  const stub = await getServerByName(env.EventDoc, String(eventId));
  return stub.readState();
}
