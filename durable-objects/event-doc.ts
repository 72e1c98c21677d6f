import { applyPatch, structuredPatch } from "diff";
import { eq, sql } from "drizzle-orm";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { type Connection, type ConnectionContext, getServerByName } from "partyserver";
import { YServer } from "y-partyserver";
import * as Y from "yjs";
import { createDb } from "../db/client";
import { DOC_ACCESS_RECHECK_MS, LIVE_VERSION_COALESCE_MS, limits } from "../db/rules";
import { DocFields, applyMarkdown, applyPlainText, seedFragment, yDocToMarkdown } from "../db/rich-text";
import { events, sessions } from "../db/schema";
import { messages } from "../db/validation";
import { canEdit, loadTimelineAccess } from "../worker/services/access";
import { versionStatements } from "../worker/services/versions";
import { CloseCodes, CloseReasons } from "./close-codes";
import type { AccessEnd } from "./protocol";
import { IdentityHeaders } from "./timeline-room";

/** Kept in the connection's state (beside y-partyserver's awareness ids). */
type DocConn = {
  userId: number;
  userName: string;
  sessionId: string;
  share?: string;
  readOnly?: boolean;
  /** Access ended: nothing this connection still sends is applied or saved (it is closing). */
  ended?: boolean;
};

/** What D1 holds for the event, as this doc last wrote or read it. */
type Persisted = { version: number; title: string; content: string };

type Author = { id: number; name: string; email: string };

/** The custom messages of the doc socket (contract: issue 13). */
export type DocMessage =
  | { type: "saved"; version: number; title: string; content: string }
  | { type: "persisted"; version: number; sv: string }
  | { type: "error"; error: string };

const SESSION_ID = /^[0-9a-f]{64}$/;
/** The doc's Yjs state is stored in slices (a Durable Object value is limited in size). */
const STATE_SLICE = 256 * 1024;
/** A single client message larger than this is refused (the whole event is at most 50,000 characters). */
const MAX_DOC_MESSAGE_BYTES = 2 * 1024 * 1024;
/** Where a change came from when it is not a writer's socket. */
const Origins = { d1: "d1", rest: "rest" } as const;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/**
 * Three-way merge of Markdown by lines (paragraphs): the change from `base` to `theirs` applied to `live`.
 * When it does not apply (the same lines changed on both sides), `theirs` wins; the writers' text is
 * already a version by then, so it can be restored.
 */
function mergeText(base: string, theirs: string, live: string) {
  if (base === live) return theirs;
  const merged = applyPatch(live, structuredPatch("", "", base, theirs), { fuzzFactor: 1 });
  return merged === false ? theirs : merged;
}

/**
 * One shared document per event (issue 13): its title (Y.Text) and content (ProseMirror in a
 * Y.XmlFragment), edited by every writer in it at once and merged by Yjs. The Worker admits only
 * writers with edit access (DESIGN.md §3); the doc writes D1 itself, as Markdown, when edits settle,
 * on Save and when the last writer leaves, recording versions (DESIGN.md §10). The Yjs state is kept
 * in this object's storage so an offline writer's edits merge into the same history later.
 */
export class EventDoc extends YServer {
  static callbackOptions = { debounceWait: 1000, debounceMaxWait: 5000, timeout: 5000 };

  private eventId = 0;
  private timelineId = 0;
  private persisted: Persisted | null = null;
  /** Who typed since the last write to D1 (the newest last): the version's author. */
  private editors = new Map<number, Author>();
  private saving: Promise<unknown> = Promise.resolve();
  private gone = false;
  /** Why the doc's text is not all in D1 (an empty title, too long), as last told to the writers. */
  private problem: string | null = null;
  /** The newest version is an autosave that a later autosave may still fold into. */
  private unsealed = false;
  private lastAuthor: Author | null = null;
  private loading: Promise<void> | null = null;
  /** This doc's registration with the timeline's room while writers are here (see `register`). */
  private registration: { token: string; done: Promise<void> } | null = null;

  /**
   * Nothing at start: a REST edit of an event nobody has open must not cost a D1 read and a stored doc.
   * The doc is built from storage and D1 when the first writer connects (`ensureLoaded`).
   */
  async onLoad() {
    this.eventId = Number(this.name);
  }

  private ensureLoaded() {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load() {
    const row = await this.loadRow();
    if (!row) {
      this.gone = true;
      await this.ctx.storage.deleteAll();
      return;
    }
    this.timelineId = row.timelineId;
    const stored = await this.loadState();
    const doc = this.document;
    if (stored) {
      Y.applyUpdate(doc, stored.state, Origins.d1);
      // Written outside the doc since (a REST edit while nobody was here, an import): merged in as a diff.
      if (stored.version !== row.version) this.applyText(row.title, row.content, Origins.d1);
    } else {
      doc.transact(() => {
        doc.getText(DocFields.title).insert(0, row.title);
        seedFragment(doc, row.content);
        doc.getMap(DocFields.meta).set("epoch", crypto.randomUUID());
      }, Origins.d1);
    }
    this.persisted = { version: row.version, title: row.title, content: row.content };
    await this.storeState();
    doc.on("update", (_update: Uint8Array, origin: unknown) => {
      const state = (origin as Connection<DocConn> | null)?.state;
      if (state?.userId) {
        this.editors.delete(state.userId);
        this.editors.set(state.userId, { id: state.userId, name: state.userName, email: state.userName });
      }
    });
  }

  async onConnect(connection: Connection<DocConn>, ctx: ConnectionContext) {
    const h = ctx.request.headers;
    const userId = Number(h.get(IdentityHeaders.userId));
    const sessionId = h.get(IdentityHeaders.sessionId) ?? "";
    const access = h.get(IdentityHeaders.accessMode);
    if (!Number.isInteger(userId) || userId <= 0 || !SESSION_ID.test(sessionId) || (access !== "owner" && access !== "collaborator")) {
      connection.close(CloseCodes.unauthenticated, "Not authenticated");
      return;
    }
    await this.ensureLoaded();
    // The first writer back: D1 may have moved on while nobody was here (a REST edit, a restore).
    if (!this.gone && [...this.getConnections()].every((c) => c.id === connection.id)) await this.refreshFromD1();
    if (this.gone) {
      connection.close(CloseCodes.timelineDeleted, "Event deleted");
      return;
    }
    connection.setState((prev) => ({
      ...prev,
      userId,
      userName: decodeURIComponent(h.get(IdentityHeaders.userName) ?? "") || "Writer",
      sessionId,
      share: new URL(ctx.request.url).searchParams.get("share") ?? undefined,
    }));
    // The socket opens only after this returns. Once the room knows this doc, it tells it every access
    // that ends; an end between the Worker's check and that moment shows in D1, so access is read again.
    await this.register();
    const ended = connection.state?.ended ? null : await this.verdict(connection.state!);
    if (ended) this.end(connection, ended);
    if (connection.state?.ended) return;
    super.onConnect(connection, ctx);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null) await this.ctx.storage.setAlarm(Date.now() + DOC_ACCESS_RECHECK_MS);
  }

  isReadOnly(connection: Connection<DocConn>) {
    return !connection.state?.userId || connection.state.readOnly === true;
  }

  handleMessage(connection: Connection<DocConn>, message: string | ArrayBuffer | ArrayBufferView) {
    // A message that arrives while the doc is still loading waits for it (in order: one promise).
    if (this.loading === null || connection.state?.ended) return;
    void this.loading.then(() => this.handleLoaded(connection, message));
  }

  private handleLoaded(connection: Connection<DocConn>, message: string | ArrayBuffer | ArrayBufferView) {
    const state = connection.state;
    if (!state?.userId || state.ended) return;
    const size = typeof message === "string" ? message.length : message.byteLength;
    if (size > MAX_DOC_MESSAGE_BYTES) {
      connection.close(1009, "Message too large");
      return;
    }
    if (typeof message !== "string") {
      const bytes =
        message instanceof ArrayBuffer ? new Uint8Array(message) : new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
      // Carets carry the writer's name: the authenticated one, whatever the client claims.
      const named = withAuthenticatedName(bytes, state.userName);
      if (!named) return;
      return super.handleMessage(connection, named);
    }
    return super.handleMessage(connection, message);
  }

  onCustomMessage(connection: Connection<DocConn>, message: string) {
    let type: unknown;
    try {
      type = (JSON.parse(message) as { type?: unknown }).type;
    } catch {
      return this.sendJson(connection, { type: "error", error: "Malformed message" });
    }
    if (type !== "save") return this.sendJson(connection, { type: "error", error: "Malformed message" });
    if (this.isReadOnly(connection))
      return this.sendJson(connection, { type: "error", error: "You have view-only access to this timeline" });
    const s = connection.state!;
    void this.persist({ author: { id: s.userId, name: s.userName, email: s.userName }, explicit: true }).then((result) => {
      if ("error" in result) this.sendJson(connection, { type: "error", error: result.error });
      else this.sendJson(connection, { type: "saved", ...result });
    });
  }

  /** Edits settled (y-partyserver's debounce): write what changed. */
  async onSave() {
    if (this.loading) await this.persist({});
  }

  onClose(connection: Connection<DocConn>, code: number, reason: string, wasClean: boolean) {
    super.onClose(connection, code, reason, wasClean);
    const others = [...this.getConnections()].filter((c) => c.id !== connection.id);
    if (others.length === 0) this.unregister();
    // The last writer left: their edits reach D1 now, not after the debounce.
    if (others.length === 0 && !this.gone && this.loading) this.ctx.waitUntil(this.persist({ announce: true }));
  }

  /**
   * Access can end while a socket is open (a collaborator removed, the link reset, a session revoked):
   * checked against D1 every DOC_ACCESS_RECHECK_MS while writers are here.
   */
  async onAlarm() {
    const open = [...this.getConnections<DocConn>()].filter((c) => c.state?.userId && !c.state.ended);
    if (open.length === 0 || this.gone) return;
    for (const c of open) {
      const ended = await this.verdict(c.state!);
      if (ended) this.end(c, ended);
    }
    await this.ctx.storage.setAlarm(Date.now() + DOC_ACCESS_RECHECK_MS);
  }

  /**
   * DO RPC from the timeline's room when a writer's access ended or shrank (`TimelineRoom.endAccess`): their
   * sockets here are ended at once. After a change of the share link, writers admitted with a code are
   * checked against D1 again. `registered: false` tells the room this doc has no writers it registered.
   */
  async endAccess(end: AccessEnd): Promise<{ registered: boolean }> {
    const users = new Set(end.userIds ?? []);
    const sessionIds = new Set(end.sessionIds ?? []);
    const recheck: Connection<DocConn>[] = [];
    for (const c of this.getConnections<DocConn>()) {
      const s = c.state;
      if (!s?.userId || s.ended) continue;
      if (users.has(s.userId) || sessionIds.has(s.sessionId)) this.end(c, end.reason);
      else if (end.recheckShared && s.share) recheck.push(c);
    }
    for (const c of recheck) {
      const ended = await this.verdict(c.state!);
      if (ended && !c.state?.ended) this.end(c, ended);
    }
    return { registered: this.registration !== null };
  }

  /** What D1 says of a writer's socket now: null while they may still edit here, or why it ends. */
  private async verdict(s: DocConn): Promise<AccessEnd["reason"] | null> {
    const db = createDb(this.env.DB);
    const session = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(sql`${sessions.id} = ${s.sessionId} AND ${sessions.expiresAt} > ${new Date().toISOString()}`)
      .get();
    if (!session) return "signed-out";
    const found = await loadTimelineAccess(db, { id: s.userId }, this.timelineId, s.share);
    if (!found || found.access === "none") return "removed";
    return canEdit(found.access) ? null : "viewer";
  }

  /** Marks the socket ended (its later messages are dropped unread) and closes it, saying why. */
  private end(c: Connection<DocConn>, reason: AccessEnd["reason"]) {
    c.setState((prev) => ({ ...prev!, ended: true }));
    if (reason === "signed-out") c.close(CloseCodes.unauthenticated, CloseReasons.signedOut);
    else c.close(CloseCodes.accessRemoved, reason === "viewer" ? CloseReasons.viewOnly : CloseReasons.accessRemoved);
  }

  /** The first writer in: the room records this doc (one registration while writers stay, awaited by each). */
  private register() {
    if (!this.registration) {
      const token = crypto.randomUUID();
      const done = (async () => {
        const room = await getServerByName(this.env.TimelineRoom, String(this.timelineId));
        await room.docOpened(this.eventId, token);
      })().catch((error) => console.error("[doc] room registration failed:", String(error)));
      this.registration = { token, done };
    }
    return this.registration.done;
  }

  /** The last writer left: the room forgets this doc (only this registration, never a newer one). */
  private unregister() {
    const registration = this.registration;
    if (!registration) return;
    this.registration = null;
    this.ctx.waitUntil(
      (async () => {
        await registration.done;
        const room = await getServerByName(this.env.TimelineRoom, String(this.timelineId));
        await room.docClosed(this.eventId, registration.token);
      })().catch((error) => console.error("[doc] room registration failed:", String(error))),
    );
  }

  /**
   * DO RPC for `PATCH /api/events/{id}` and restores while writers are here (issue 13): the new text is
   * applied INTO the doc as the smallest change (what others are typing elsewhere survives) and written
   * at once. `live: false` when nobody is here: the caller writes D1 itself (this doc diffs it in on load).
   */
  async applyEdit(input: { title?: string; content?: string; author: Author }): Promise<{ live: false } | { live: true; version: number }> {
    if (this.gone || this.loading === null || [...this.getConnections()].length === 0) return { live: false };
    await this.loading;
    // What the writers typed so far becomes a version first, then the API client's change is merged: its
    // edit (from the stored text to its text) is applied to the live text, so typing elsewhere survives.
    const base = this.persisted?.content ?? "";
    await this.persist({});
    const live = yDocToMarkdown(this.document);
    const content = input.content === undefined ? undefined : mergeText(base, input.content, live);
    this.applyText(input.title, content, Origins.rest);
    const result = await this.persist({ author: input.author, explicit: true });
    if ("error" in result) return { live: false };
    return { live: true, version: result.version };
  }

  /** For tests and diagnostics: the doc as Markdown, and who is connected. */
  async inspect() {
    return {
      title: this.document.getText(DocFields.title).toString(),
      content: yDocToMarkdown(this.document),
      connections: [...this.getConnections()].length,
      persisted: this.persisted,
    };
  }

  private async refreshFromD1() {
    const row = await this.loadRow();
    if (!row) {
      this.gone = true;
      await this.ctx.storage.deleteAll();
      return;
    }
    if (this.persisted && row.version === this.persisted.version) return;
    this.applyText(row.title, row.content, Origins.d1);
    this.persisted = { version: row.version, title: row.title, content: row.content };
    await this.storeState();
  }

  private applyText(title: string | undefined, content: string | undefined, origin: string) {
    this.document.transact(() => {
      if (title !== undefined) applyPlainText(this.document.getText(DocFields.title), title);
      if (content !== undefined) applyMarkdown(this.document, content, origin);
    }, origin);
  }

  /** One write at a time: a Save during an autosave waits for it. */
  private persist(opts: { author?: Author; explicit?: boolean; announce?: boolean }) {
    const run = this.saving.then(() => this.write(opts));
    this.saving = run.catch(() => undefined);
    return run;
  }

  private async write({
    author,
    explicit,
    announce,
  }: {
    author?: Author;
    explicit?: boolean;
    announce?: boolean;
  }): Promise<Persisted | { error: string }> {
    if (this.gone || !this.persisted) return { error: "Event not found" };
    await this.storeState();
    const doc = this.document;
    const title = doc.getText(DocFields.title).toString().trim();
    const content = yDocToMarkdown(doc).trim();
    // Only what is valid reaches D1; the doc keeps everything (nothing typed is lost).
    let problem: string | null = null;
    if (!title || !content) problem = messages.eventFields;
    else if (title.length > limits.eventTitle) problem = `Title must be at most ${limits.eventTitle} characters`;
    else if (content.length > limits.eventContent) problem = `Content must be at most ${limits.eventContent} characters`;
    const nextTitle = title && title.length <= limits.eventTitle ? title : this.persisted.title;
    const nextContent = content && content.length <= limits.eventContent ? content : this.persisted.content;
    // Writers hear once what keeps their text out of D1 (the page shows it instead of 'All changes saved').
    if (problem !== this.problem) {
      this.problem = problem;
      if (problem) this.broadcastJson({ type: "error", error: problem });
    }

    const who = author ?? [...this.editors.values()].at(-1);
    let result = this.persisted;
    if ((nextTitle !== this.persisted.title || nextContent !== this.persisted.content) && who) {
      // Autosaves fold into the author's newest version when that is an autosave of this session (never into a
      // create, a Save, a REST edit or a restore); Save, REST and the last writer leaving add their own.
      const seal = explicit || announce;
      const written = await this.writeD1(nextTitle, nextContent, who, !seal && this.unsealed);
      if (!written) return { error: "Event not found" };
      result = written;
      this.editors.clear();
      this.lastAuthor = who;
      this.unsealed = !seal;
      // Save, REST and the last writer leaving tell everyone (cards refetch, 'X edited' notice); autosaves
      // do not: open cards already show the text through the room's live relay.
      if (seal) this.tellRoom(who, result.title);
    } else if ((explicit || announce) && this.unsealed && this.lastAuthor) {
      // Nothing new since an autosave, whose version a later autosave could still fold into: Save and the last
      // writer leaving keep this text as a version of its own (DESIGN.md §10).
      const db = createDb(this.env.DB);
      await db.batch(versionStatements(db, { eventId: this.eventId, author: author ?? this.lastAuthor }));
      this.unsealed = false;
    }
    if (problem) return explicit ? { error: problem } : result;
    this.broadcastJson({ type: "persisted", version: result.version, sv: toBase64(Y.encodeStateVector(doc)) });
    return result;
  }

  /**
   * UPDATE guarded by the version this doc last saw, with its version record in the same batch. When the
   * row moved on without us (a restore or import while nobody was connected), its text is merged into the
   * doc first and the write is tried again.
   */
  private async writeD1(title: string, content: string, author: Author, coalesce: boolean): Promise<Persisted | null> {
    const db = createDb(this.env.DB);
    for (let attempt = 0; attempt < 3; attempt++) {
      const base = this.persisted!.version;
      const guard = sql`(SELECT version FROM events WHERE id = ${this.eventId}) = ${base}`;
      const update = db
        .update(events)
        .set({ title, content, version: sql`${events.version} + 1`, updatedAt: new Date().toISOString() })
        .where(sql`${events.id} = ${this.eventId} AND ${events.version} = ${base}`)
        .returning({ version: events.version, title: events.title, content: events.content });
      const record = versionStatements(db, {
        eventId: this.eventId,
        author,
        title,
        content,
        when: guard,
        coalesceWithinMs: coalesce ? LIVE_VERSION_COALESCE_MS : undefined,
      });
      const rows = (await db.batch([...record, update] as unknown as [typeof update])).at(-1) as Persisted[];
      if (rows[0]) {
        this.persisted = rows[0];
        await this.storeState();
        return this.persisted;
      }
      const row = await this.loadRow();
      if (!row) {
        this.gone = true;
        for (const c of this.getConnections()) c.close(CloseCodes.timelineDeleted, "Event deleted");
        await this.ctx.storage.deleteAll();
        return null;
      }
      this.persisted = { version: row.version, title: row.title, content: row.content };
      this.applyText(row.title, row.content, Origins.d1);
      title = this.document.getText(DocFields.title).toString().trim() || row.title;
      const merged = yDocToMarkdown(this.document).trim();
      content = merged && merged.length <= limits.eventContent ? merged : row.content;
      if (title === row.title && content === row.content) return this.persisted;
    }
    return this.persisted;
  }

  private tellRoom(author: Author, subject: string) {
    this.ctx.waitUntil(
      (async () => {
        const room = await getServerByName(this.env.TimelineRoom, String(this.timelineId));
        await room.notifySync({ action: "edited", by: { userId: author.id, userName: author.name }, subject });
      })().catch((error) => console.error("[doc] room notify failed:", String(error))),
    );
  }

  private loadRow() {
    return createDb(this.env.DB)
      .select({ timelineId: events.timelineId, title: events.title, content: events.content, version: events.version })
      .from(events)
      .where(eq(events.id, this.eventId))
      .get();
  }

  private async loadState(): Promise<{ state: Uint8Array; version: number } | null> {
    const meta = await this.ctx.storage.get<{ slices: number; version: number }>("doc-meta");
    if (!meta) return null;
    const keys = Array.from({ length: meta.slices }, (_, i) => `doc-state-${i}`);
    const slices = await this.ctx.storage.get<Uint8Array>(keys);
    const parts = keys.map((k) => slices.get(k));
    if (parts.some((p) => !p)) return null;
    const state = new Uint8Array(parts.reduce((n, p) => n + p!.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      state.set(p!, at);
      at += p!.byteLength;
    }
    return { state, version: meta.version };
  }

  private async storeState() {
    if (this.gone || !this.persisted) return;
    const state = Y.encodeStateAsUpdate(this.document);
    const entries: Record<string, unknown> = {};
    let slices = 0;
    for (let at = 0; at < state.byteLength || slices === 0; at += STATE_SLICE)
      entries[`doc-state-${slices++}`] = state.slice(at, at + STATE_SLICE);
    entries["doc-meta"] = { slices, version: this.persisted.version };
    await this.ctx.storage.put(entries);
  }

  private sendJson(connection: Connection, message: DocMessage) {
    this.sendCustomMessage(connection, JSON.stringify(message));
  }

  private broadcastJson(message: DocMessage) {
    this.broadcastCustomMessage(JSON.stringify(message));
  }
}

/**
 * A y-protocols awareness message (type 1) with every state's `user.name` set to the writer's authenticated
 * name; other messages pass unchanged. Null for a malformed awareness message (dropped).
 */
function withAuthenticatedName(bytes: Uint8Array, name: string): Uint8Array | null {
  try {
    const outer = decoding.createDecoder(bytes);
    if (decoding.readVarUint(outer) !== 1) return bytes;
    const inner = decoding.createDecoder(decoding.readVarUint8Array(outer));
    const update = encoding.createEncoder();
    const count = decoding.readVarUint(inner);
    encoding.writeVarUint(update, count);
    for (let i = 0; i < count; i++) {
      encoding.writeVarUint(update, decoding.readVarUint(inner));
      encoding.writeVarUint(update, decoding.readVarUint(inner));
      const state = JSON.parse(decoding.readVarString(inner)) as Record<string, unknown> | null;
      const user = state && typeof state.user === "object" && state.user ? { ...(state.user as object), name } : undefined;
      encoding.writeVarString(update, JSON.stringify(state && user ? { ...state, user } : state));
    }
    const out = encoding.createEncoder();
    encoding.writeVarUint(out, 1);
    encoding.writeVarUint8Array(out, encoding.toUint8Array(update));
    return encoding.toUint8Array(out);
  } catch {
    return null;
  }
}
