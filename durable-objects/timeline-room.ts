import { type Connection, type ConnectionContext, Server, getServerByName } from "partyserver";
import { createDb } from "../db/client";
import { ROOM_SESSION_RECHECK_MS } from "../db/domain/rules";
import {
  type AccessEnd,
  ClientMessageSchema,
  CloseCodes,
  type ChangeBody,
  CloseReasons,
  MAX_MESSAGE_BYTES,
  MAX_MESSAGES_PER_SECOND,
  type PresenceUser,
  type RoomChange,
  type RoomNotification,
  type ServerMessage,
} from "./protocol";
import { liveSessions } from "../worker/services/live-sessions";
import { type ConnState, connStateFrom, presenceOf } from "./connection-state";
import { noticeFor, syncFor } from "./room-changes";

/** The span over which a sustained flood is measured (see `flooding`). */
const FLOOD_WINDOW_MS = 3000;
/** Storage keys of the timeline's open docs (`open-doc:{eventId}` → the doc's registration token). */
const OPEN_DOC = "open-doc:";

/**
 * One room per timeline (named by its id). Holds only live state: who is here and what they are
 * typing. Everything durable lives in D1.
 */
export class TimelineRoom extends Server {
  static options = { hibernate: true };

  /** Per-connection message timestamps for flood control (in memory; resetting on wake is fine). */
  private rates = new Map<string, number[]>();

  async onConnect(connection: Connection<ConnState>, ctx: ConnectionContext) {
    const state = connStateFrom(ctx.request.headers);
    if (!state) {
      connection.close(CloseCodes.unauthenticated, "Not authenticated");
      return;
    }
    const { userId, userName } = state;
    const alreadyHere = this.userConnections(userId).some((c) => c.id !== connection.id);
    connection.setState(state);
    await this.scheduleSessionCheck(Date.parse(state.sessionExpiresAt!));
    this.broadcastPresence();
    if (!alreadyHere) {
      this.notify({ type: "join", title: "Collaborator joined", message: `${userName} joined the timeline`, userId }, [connection.id]);
    }
  }

  onMessage(connection: Connection<ConnState>, message: string | ArrayBuffer | ArrayBufferView) {
    const me = connection.state;
    if (!me || me.ended) return;
    const size = typeof message === "string" ? message.length : message.byteLength;
    if (typeof message !== "string" || size > MAX_MESSAGE_BYTES) {
      return this.reply(connection, "Message too large or not text");
    }
    const flood = this.flooding(connection.id);
    if (flood === "close") {
      connection.close(CloseCodes.flooding, "Too many messages");
      return;
    }
    if (flood === "drop") return this.reply(connection, "Too many messages; slow down");

    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      return this.reply(connection, "Malformed message");
    }
    const parsed = ClientMessageSchema.safeParse(json);
    if (!parsed.success) return this.reply(connection, "Malformed message");
    const msg = parsed.data;

    if (msg.type === "join") {
      this.send(connection, { type: "presence", presence: { users: this.presence() } });
      return;
    }
    if (msg.type === "leave") {
      connection.close(1000, "Left");
      return;
    }
    if (msg.type === "editing") {
      if (me.accessMode === "viewer") return this.reply(connection, "Viewers cannot edit this timeline");
      if ((me.editingEventId ?? null) === msg.eventId) return;
      connection.setState({ ...me, editingEventId: msg.eventId });
      this.broadcastPresence();
      return;
    }
    // change: viewers may not edit; everyone else's typing is relayed with their real identity.
    if (me.accessMode === "viewer") return this.reply(connection, "Viewers cannot edit this timeline");
    const out: ServerMessage = {
      type: "change",
      eventId: msg.eventId,
      userId: me.userId,
      userName: me.userName,
      change: msg.change,
    };
    this.broadcast(JSON.stringify(out), [connection.id]);
  }

  onClose(connection: Connection<ConnState>) {
    this.rates.delete(connection.id);
    const me = connection.state;
    this.broadcastPresence(connection.id);
    if (me && this.userConnections(me.userId, connection.id).length === 0) {
      this.notify({ type: "leave", title: "Collaborator left", message: `${me.userName} left the timeline`, userId: me.userId });
    }
  }

  onError(connection: Connection<ConnState>) {
    this.rates.delete(connection.id);
  }

  /**
   * DO RPC from the services after a write to the timeline or its events: everyone resyncs except
   * the author's own connection (its state already shows the change; its other tabs do resync).
   */
  async notifySync(change: RoomChange) {
    if (change.action === "sessions-revoked") {
      return this.endAccess({ sessionIds: change.sessionIds ?? [], reason: "signed-out" });
    }
    if (change.action === "access-ended" && change.ended) {
      await this.endAccess(change.ended);
      if (change.ended.reason === "signed-out") return;
    }
    if (change.action === "access-revoked" && change.userId) {
      await this.endAccess({ userIds: [change.userId], reason: "removed" });
    }
    if (change.action === "timeline-deleted") {
      for (const c of this.getConnections<ConnState>()) c.close(CloseCodes.timelineDeleted, "Timeline deleted");
      return;
    }
    if (change.action === "link-reset" || change.action === "link-off" || change.action === "link-role") {
      await this.applyLinkChange(change);
    }
    this.broadcast(JSON.stringify(syncFor(change)), change.origin ? [change.origin] : []);
    const notice = noticeFor(change);
    if (notice)
      this.notify(
        notice,
        this.userConnections(change.by.userId).map((c) => c.id),
      );
  }

  /**
   * The link was reset or turned off: whoever's access came from it is closed out (4403). A link's new
   * level: users who lost edit rights are closed (4409: they reconnect as viewers and reload read-only);
   * users who gained them edit at once. Other sockets admitted with the link's code reconnect (4409),
   * so the Worker decides their access afresh.
   */
  private async applyLinkChange(change: RoomChange) {
    const userIds = change.userIds ?? [];
    const users = new Set(userIds);
    const lost = change.action !== "link-role" ? "removed" : change.role === "viewer" ? "viewer" : null;
    for (const c of this.getConnections<ConnState>()) {
      const s = c.state;
      if (!s || s.isOwner || s.ended) continue;
      if (users.has(s.userId)) {
        if (!lost) c.setState({ ...s, accessMode: "collaborator" });
      } else if (s.viaShare) {
        c.close(CloseCodes.accessChanged, "Access changed");
      }
    }
    if (lost) await this.endAccess({ userIds, reason: lost, recheckShared: true });
    else this.broadcastPresence();
  }

  /**
   * The one way access ends here: the matching sockets are marked ended (nothing they still send is
   * relayed) and closed with the reason, then every open doc of the timeline is told the same. A writer
   * now a viewer is closed with 4409 and reconnects read-only.
   */
  async endAccess(end: AccessEnd) {
    const users = new Set(end.userIds ?? []);
    const sessionIds = new Set(end.sessionIds ?? []);
    for (const c of this.getConnections<ConnState>()) {
      const s = c.state;
      if (!s || s.ended || !(users.has(s.userId) || (s.sessionId && sessionIds.has(s.sessionId)))) continue;
      c.setState({ ...s, ended: true, accessMode: end.reason === "removed" ? s.accessMode : "viewer" });
      if (end.reason === "signed-out") c.close(CloseCodes.unauthenticated, CloseReasons.signedOut);
      else if (end.reason === "viewer") c.close(CloseCodes.accessChanged, CloseReasons.viewOnly);
      else c.close(CloseCodes.accessRemoved, CloseReasons.accessRemoved);
    }
    await this.tellDocs(end);
  }

  /**
   * DO RPC from an event's shared doc: what its writers are typing, shown live on everyone's cards. The doc is the
   * one channel a scene's text travels by; the writers' identity is the one the doc authenticated.
   */
  async relayTyping(eventId: number, by: { userId: number; userName: string }, changes: ChangeBody[]) {
    for (const change of changes) {
      const out: ServerMessage = { type: "change", eventId, userId: by.userId, userName: by.userName, change };
      this.broadcast(JSON.stringify(out));
    }
  }

  /** An event's doc has writers in it (EventDoc registers itself): access ends reach it from here. */
  async docOpened(eventId: number, token: string) {
    await this.ctx.storage.put(`${OPEN_DOC}${eventId}`, token);
  }

  /** Its last writer left. Only the registration that `token` made is removed (a newer one may have replaced it). */
  async docClosed(eventId: number, token: string) {
    const key = `${OPEN_DOC}${eventId}`;
    if ((await this.ctx.storage.get<string>(key)) === token) await this.ctx.storage.delete(key);
  }

  private async tellDocs(end: AccessEnd) {
    const open = await this.ctx.storage.list<string>({ prefix: OPEN_DOC });
    await Promise.all(
      [...open].map(async ([key, token]) => {
        const eventId = key.slice(OPEN_DOC.length);
        try {
          const doc = await getServerByName(this.env.EventDoc, eventId);
          // A doc that no longer knows the registration (it was evicted without its writers leaving) is forgotten.
          if (!(await doc.endAccess(end)).registered) await this.docClosed(Number(eventId), token);
        } catch (error) {
          console.error("[room] doc access end failed:", String(error));
        }
      }),
    );
  }

  /**
   * Ends sockets whose session ended by expiry (sliding or absolute) or was revoked without telling us.
   * The Worker's expiry is only an upper bound for the alarm: activity may slide it, so D1 decides.
   */
  async onAlarm() {
    const open = [...this.getConnections<ConnState>()].filter((c) => c.state?.sessionId);
    if (open.length === 0) return;
    const live = await liveSessions(
      createDb(this.env.DB),
      open.map((c) => c.state!.sessionId!),
    );
    let next = Number.POSITIVE_INFINITY;
    const expired = new Set<string>();
    for (const c of open) {
      const until = live.get(c.state!.sessionId!);
      if (until === undefined) expired.add(c.state!.sessionId!);
      else next = Math.min(next, until);
    }
    if (expired.size > 0) await this.endAccess({ sessionIds: [...expired], reason: "signed-out" });
    if (next !== Number.POSITIVE_INFINITY) await this.scheduleSessionCheck(next, true);
  }

  /** One alarm for the room: at the earliest session expiry, and at least every ROOM_SESSION_RECHECK_MS. */
  private async scheduleSessionCheck(expiresAt: number, replace = false) {
    const at = Math.min(expiresAt, Date.now() + ROOM_SESSION_RECHECK_MS);
    const current = replace ? null : await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  /** For tests and diagnostics: the deduplicated presence list. */
  async getPresence() {
    return this.presence();
  }

  private presence(closingId?: string): PresenceUser[] {
    return presenceOf(this.getConnections<ConnState>(), closingId);
  }

  private userConnections(userId: number, closingId?: string) {
    return [...this.getConnections<ConnState>()].filter((c) => c.id !== closingId && c.state?.userId === userId);
  }

  private broadcastPresence(closingId?: string) {
    const message = { type: "presence", presence: { users: this.presence(closingId) } } satisfies ServerMessage;
    this.broadcast(JSON.stringify(message), closingId ? [closingId] : []);
  }

  private notify(n: Omit<RoomNotification, "createdAt">, exclude: string[] = []) {
    const message: ServerMessage = { type: "notification", notification: { ...n, createdAt: new Date().toISOString() } };
    this.broadcast(JSON.stringify(message), exclude);
  }

  private send(connection: Connection, message: ServerMessage) {
    connection.send(JSON.stringify(message));
  }

  /** Errors go to the sender only; nobody else is affected. */
  private reply(connection: Connection, error: string) {
    this.send(connection, { type: "error", error });
  }

  /**
   * Over MAX_MESSAGES_PER_SECOND in the last second: the message is dropped (a burst costs only that).
   * Over that rate on average for FLOOD_WINDOW_MS: the connection is closed, so a flooding client
   * stops costing the room; partysocket reconnects it after its backoff.
   */
  private flooding(id: string): "ok" | "drop" | "close" {
    const now = Date.now();
    const recent = (this.rates.get(id) ?? []).filter((t) => now - t < FLOOD_WINDOW_MS);
    recent.push(now);
    this.rates.set(id, recent);
    if (recent.length > (MAX_MESSAGES_PER_SECOND * FLOOD_WINDOW_MS) / 1000) return "close";
    const lastSecond = recent.filter((t) => now - t < 1000).length;
    return lastSecond > MAX_MESSAGES_PER_SECOND ? "drop" : "ok";
  }
}
