import { applyPatch, structuredPatch } from "diff";
import { eq } from "drizzle-orm";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { type Connection, type ConnectionContext, getServerByName } from "partyserver";
import { YServer } from "y-partyserver";
import * as Y from "yjs";
import { createDb } from "../db/client";
import { DOC_ACCESS_RECHECK_MS, LIVE_VERSION_COALESCE_MS } from "../db/domain/rules";
import {
  DocFields,
  MetaKeys,
  type SaveReply,
  type SavedMeta,
  applyMarkdown,
  applyPlainText,
  type ContentBlock,
  checkBlocks,
  isSaveRequest,
  seedFragment,
  yDocToMarkdown,
} from "../db/domain/rich-text";
import { events } from "../db/schema";
import { EventContentSchema, EventTitleSchema, messages } from "../db/domain/validation";
import { canEdit, loadTimelineAccess } from "../worker/services/access";
import { persistEventText } from "../worker/services/events";
import { liveSessions } from "../worker/services/live-sessions";
import { versionStatements } from "../worker/services/version-record";
import { CloseCodes, CloseReasons } from "./close-codes";
import { DocCloseReasons, MAX_DOC_STATE_BYTES, MAX_DOC_UPDATES_PER_SECOND } from "./doc-limits";
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
/** Beside the sliced Yjs state: D1's version it matches, and whether it holds text D1 has not got. */
type StoredMeta = { slices: number; version: number; unsavedBy?: Author | null };

const SESSION_ID = /^[0-9a-f]{64}$/;
/** The doc's Yjs state is stored in slices (a Durable Object value is limited in size). */
const STATE_SLICE = 256 * 1024;
/** Where a change came from when it is not a writer's socket. */
const Origins = { d1: "d1", rest: "rest", server: "server" } as const;
const KNOWN_ROOTS = new Set<string>(Object.values(DocFields));
/** Caret entries one connection may introduce (a browser's editor has one), and the size of each. */
const MAX_CARETS_PER_CONNECTION = 4;
const MAX_CARET_STATE_CHARS = 4096;
/** What a writer is told when a Save could not be written (the doc keeps the text). */
const SAVE_FAILED = "Failed to update event";

type Refusal = keyof typeof DocCloseReasons;

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
 * One shared document per event: its title (Y.Text) and content (ProseMirror in a
 * Y.XmlFragment), edited by every writer in it at once and merged by Yjs. The Worker admits only
 * writers with edit access; the doc writes D1 itself, as Markdown, when edits settle,
 * on Save and when the last writer leaves, recording versions. The Yjs state is kept
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
   * A copy of the doc that every writer's update is applied to first: only an update that leaves it valid
   * (known parts, schema-valid content, under the size cap) reaches the real doc. Rebuilt after a refusal.
   */
  private shadow: Y.Doc | null = null;
  /** The shadow's top-level blocks already checked (a block is checked again when an update touches it). */
  private checkedBlocks = new WeakSet<ContentBlock>();
  /** The real doc's update being applied is already in the shadow. */
  private inShadow = false;
  /** An upper bound of the doc's encoded size: exact after each measure, plus every update since. */
  private sizeBound = 0;
  /** Which connection introduced each caret (awareness) entry: only it may change or remove it. */
  private caretOwners = new Map<number, string>();
  /** Per connection, when its last updates and caret updates arrived (a sliding second). */
  private arrivals = new Map<string, { updates: number[]; carets: number[] }>();

  /**
   * The doc from storage and D1, once, when the first writer connects (y-partyserver's onLoad, run by partyserver's
   * onStart before the first socket is handled). The Worker's RPCs that need no doc (a REST edit while nobody is
   * here, a delete) reach this object without starting it (see worker/lib/room.ts), so they cost no D1 read and
   * store no doc. Not hibernatable: the state kept per writer here (authors of unsaved edits, caret owners, the
   * room registration, the autosave being folded into) lives in memory only.
   */
  async onLoad() {
    this.eventId = Number(this.name);
    this.loading = this.load();
    await this.loading;
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
    let unsavedBy: Author | null = null;
    if (stored) {
      Y.applyUpdate(doc, stored.state, Origins.d1);
      dropInvalidBlocks(doc);
      // The doc was stored with text D1 never got (the server stopped between the two writes): it is unsaved.
      if (stored.unsavedBy) unsavedBy = stored.unsavedBy;
      if (stored.version !== row.version) {
        // Written outside the doc since (a REST edit while nobody was here, an import): merged in as a diff. Text
        // the doc never saved is kept as a version by its writer first, so History can bring it back.
        if (unsavedBy) await this.keepAsVersion(unsavedBy);
        unsavedBy = null;
        this.applyText(row.title, row.content, Origins.d1);
      }
    } else {
      doc.transact(() => {
        doc.getText(DocFields.title).insert(0, row.title);
        seedFragment(doc, row.content);
        doc.getMap(DocFields.meta).set("epoch", crypto.randomUUID());
      }, Origins.d1);
    }
    this.persisted = { version: row.version, title: row.title, content: row.content };
    const problem = doc.getMap(DocFields.meta).get(MetaKeys.problem);
    this.problem = typeof problem === "string" ? problem : null;
    // Unsaved text is written now, before any writer hears 'All changes saved' (and before an API write could win
    // over it). Otherwise this stores the doc and marks it saved (or names what keeps its text out of D1).
    if (unsavedBy) this.editors.set(unsavedBy.id, unsavedBy);
    await this.write({});
    doc.on("update", (update: Uint8Array, origin: unknown) => {
      this.sizeBound += update.byteLength;
      if (!this.inShadow && this.shadow) Y.applyUpdate(this.shadow, update);
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
    // A connection whose access ended is never heard again, whatever it still sends.
    if (!state?.userId || state.ended || connection.readyState !== WebSocket.OPEN) return;
    // Only y-protocols frames (binary) go over this socket: a text frame is no message of it.
    if (typeof message === "string") return;
    const bytes =
      message instanceof ArrayBuffer ? new Uint8Array(message) : new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
    if (bytes.byteLength > MAX_DOC_STATE_BYTES) return this.refuse(connection, "tooLarge");
    let frame: Frame;
    try {
      frame = readFrame(bytes);
    } catch {
      return this.refuse(connection, "invalid");
    }
    if (frame.kind === "sync-step-1") return super.handleMessage(connection, bytes);
    if (frame.kind === "awareness") {
      // An editor moves its caret with everyone's typing (its view follows theirs): past the rate, carets are
      // dropped, not the writer (the next one, or the 15 s renewal, puts it right).
      if (this.tooFast(connection, "carets")) return;
      const carets = this.ownCarets(connection, frame.update, state.userName);
      if (carets === "invalid") return this.refuse(connection, "invalid");
      if (carets) super.handleMessage(connection, carets);
      return;
    }
    if (this.isReadOnly(connection)) return;
    if (this.tooFast(connection, "updates")) return this.refuse(connection, "tooFast");
    const checked = this.checkUpdate(frame.update);
    if ("refused" in checked) return this.refuse(connection, checked.refused);
    this.inShadow = true;
    try {
      Y.applyUpdate(this.document, frame.update, connection);
    } finally {
      this.inShadow = false;
    }
    if (checked.save) this.answerSave(connection, checked.save);
  }

  /** Closes a writer's socket over an update the doc did not apply, with the reason the editor shows. */
  private refuse(connection: Connection<DocConn>, why: Refusal) {
    connection.close(why === "tooLarge" ? CloseCodes.docTooLarge : CloseCodes.docRefused, DocCloseReasons[why]);
  }

  /** More than MAX_DOC_UPDATES_PER_SECOND of this kind within the last second. */
  private tooFast(connection: Connection, kind: "updates" | "carets") {
    const now = Date.now();
    let seen = this.arrivals.get(connection.id);
    if (!seen) this.arrivals.set(connection.id, (seen = { updates: [], carets: [] }));
    const times = seen[kind];
    times.push(now);
    if (times.length <= MAX_DOC_UPDATES_PER_SECOND) return false;
    return now - (times.shift() ?? 0) < 1000;
  }

  private shadowDoc() {
    if (!this.shadow) {
      const shadow = new Y.Doc();
      shadow.getText(DocFields.title);
      shadow.getXmlFragment(DocFields.content);
      shadow.getMap(DocFields.meta);
      const state = Y.encodeStateAsUpdate(this.document);
      Y.applyUpdate(shadow, state);
      this.shadow = shadow;
      this.checkedBlocks = new WeakSet();
      this.sizeBound = state.byteLength;
    }
    return this.shadow;
  }

  /**
   * Applies a writer's update to the shadow and checks what it changed. Refused (and the shadow dropped)
   * when it adds a part the doc does not have, content the editor's schema does not allow, meta other
   * than a Save request, or takes the state past MAX_DOC_STATE_BYTES. A Save request's id comes back.
   */
  private checkUpdate(update: Uint8Array): { refused: Refusal } | { save: string | null } {
    const shadow = this.shadowDoc();
    let change: Y.Transaction | null = null;
    const grab = (tr: Y.Transaction) => {
      change = tr;
    };
    shadow.on("afterTransaction", grab);
    let verdict: { refused: Refusal } | { save: string | null };
    const roots = new Set(shadow.share.keys());
    try {
      Y.applyUpdate(shadow, update);
      verdict = inspectChange(shadow, change, this.checkedBlocks, roots);
      if ("save" in verdict && this.sizeBound + update.byteLength > MAX_DOC_STATE_BYTES) {
        // The bound says it may be too big: measure (the update may also have replaced or removed content).
        const size = Y.encodeStateAsUpdate(shadow).byteLength;
        this.sizeBound = size - update.byteLength;
        if (size > MAX_DOC_STATE_BYTES) verdict = { refused: "tooLarge" };
      }
    } catch {
      verdict = { refused: "invalid" };
    } finally {
      shadow.off("afterTransaction", grab);
    }
    if ("refused" in verdict) this.shadow = null;
    return verdict;
  }

  /**
   * Caret (awareness) entries bound to the connection that introduced them: entries for a client id
   * another connection holds are dropped, as are entries past MAX_CARETS_PER_CONNECTION or oversized. The
   * writer's name is the authenticated one, whatever the client claims. Null when nothing is left to apply.
   */
  private ownCarets(connection: Connection<DocConn>, update: Uint8Array, name: string): Uint8Array | "invalid" | null {
    let entries: Array<{ clientId: number; clock: number; state: string }>;
    try {
      entries = readAwareness(update);
    } catch {
      return "invalid";
    }
    const kept: typeof entries = [];
    for (const entry of entries) {
      const owner = this.caretOwners.get(entry.clientId);
      if (owner !== undefined && owner !== connection.id) continue;
      if (owner === undefined) {
        const owned = [...this.caretOwners.values()].filter((id) => id === connection.id).length;
        if (owned >= MAX_CARETS_PER_CONNECTION) continue;
      }
      if (entry.state.length > MAX_CARET_STATE_CHARS) continue;
      let state: unknown;
      try {
        state = JSON.parse(entry.state);
      } catch {
        return "invalid";
      }
      this.caretOwners.set(entry.clientId, connection.id);
      const s = typeof state === "object" && state !== null && !Array.isArray(state) ? (state as Record<string, unknown>) : null;
      const user = s && typeof s.user === "object" && s.user ? { ...(s.user as object), name } : undefined;
      kept.push({ ...entry, state: JSON.stringify(s && user ? { ...s, user } : s) });
    }
    return kept.length > 0 ? writeAwareness(kept) : null;
  }

  /** A writer's Save: a version by them now, answered in `meta.reply` whatever happens. */
  private answerSave(connection: Connection<DocConn>, id: string) {
    const s = connection.state!;
    void this.persist({ author: { id: s.userId, name: s.userName, email: s.userName }, explicit: true })
      .then(
        (result): SaveReply => ("error" in result ? { id, error: result.error } : { id, version: result.version }),
        (error): SaveReply => {
          console.error("[doc] save failed:", String(error));
          return { id, error: SAVE_FAILED };
        },
      )
      .then((reply) => this.setMeta(MetaKeys.reply, reply));
  }

  private setMeta(key: string, value: unknown) {
    if (this.gone) return;
    this.document.transact(() => this.document.getMap(DocFields.meta).set(key, value), Origins.server);
  }

  /** Edits settled (y-partyserver's debounce): write what changed. */
  async onSave() {
    if (this.loading) await this.persist({});
  }

  onClose(connection: Connection<DocConn>, code: number, reason: string, wasClean: boolean) {
    super.onClose(connection, code, reason, wasClean);
    this.arrivals.delete(connection.id);
    for (const [clientId, owner] of this.caretOwners) if (owner === connection.id) this.caretOwners.delete(clientId);
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
    if (!(await liveSessions(db, [s.sessionId])).has(s.sessionId)) return "signed-out";
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
   * DO RPC for `PATCH /api/events/{id}` and restores while writers are here: the new text is
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
    const live = markdownOf(this.document) ?? base;
    const content = input.content === undefined ? undefined : mergeText(base, input.content, live);
    this.applyText(input.title, content, Origins.rest);
    const result = await this.persist({ author: input.author, explicit: true });
    if ("error" in result) return { live: false };
    return { live: true, version: result.version };
  }

  /**
   * DO RPC for deleting the event or its timeline: the writers' sockets close ('Event not found' in the
   * editor) and the stored doc goes with the row, so nothing of the text stays behind.
   */
  async remove() {
    this.gone = true;
    for (const c of this.getConnections()) c.close(CloseCodes.timelineDeleted, "Event deleted");
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** For tests and diagnostics: the doc as Markdown, and who is connected. */
  async inspect() {
    return {
      title: this.document.getText(DocFields.title).toString(),
      content: markdownOf(this.document) ?? "",
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

  /** The doc's text as a version by `author` (nothing else changes): kept before D1's newer text replaces it. */
  private async keepAsVersion(author: Author) {
    const text = checkText(this.document);
    if (text.problem) return;
    const { title, content } = text;
    const db = createDb(this.env.DB);
    await db.batch(versionStatements(db, { eventId: this.eventId, author, title, content }));
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
    const doc = this.document;
    // Only what is valid reaches D1 (each part on its own); the doc keeps everything (nothing typed is lost).
    const { title, content, problem } = checkText(doc);
    const nextTitle = title ?? this.persisted.title;
    const nextContent = content ?? this.persisted.content;
    // Writers hear once what keeps their text out of D1 (the page shows it instead of 'All changes saved').
    if (problem !== this.problem) {
      this.problem = problem;
      this.setMeta(MetaKeys.problem, problem);
    }

    const who = author ?? [...this.editors.values()].at(-1);
    const changed = nextTitle !== this.persisted.title || nextContent !== this.persisted.content;
    // Stored first, marked unsaved: should the server stop before D1 has it, the next load writes it.
    await this.storeState(changed && who ? who : null);
    let result = this.persisted;
    if (changed && who) {
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
      // writer leaving keep this text as a version of its own.
      const db = createDb(this.env.DB);
      await db.batch(versionStatements(db, { eventId: this.eventId, author: author ?? this.lastAuthor }));
      this.unsealed = false;
    }
    if (problem) return explicit ? { error: problem } : result;
    this.setSaved(result.version);
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
      const written = await persistEventText(db, {
        eventId: this.eventId,
        author,
        title,
        content,
        baseVersion: this.persisted!.version,
        coalesceWithinMs: coalesce ? LIVE_VERSION_COALESCE_MS : undefined,
      });
      if (written) {
        this.persisted = { version: written.version, title: written.title, content: written.content };
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
      const merged = checkText(this.document);
      title = merged.title ?? row.title;
      content = merged.content ?? row.content;
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

  private async loadState(): Promise<{ state: Uint8Array; version: number; unsavedBy: Author | null } | null> {
    const meta = await this.ctx.storage.get<StoredMeta>("doc-meta");
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
    return { state, version: meta.version, unsavedBy: meta.unsavedBy ?? null };
  }

  /** `unsavedBy`: the doc holds text D1 does not have yet, typed last by this writer. */
  private async storeState(unsavedBy: Author | null = null) {
    if (this.gone || !this.persisted) return;
    const state = Y.encodeStateAsUpdate(this.document);
    const entries: Record<string, unknown> = {};
    let slices = 0;
    for (let at = 0; at < state.byteLength || slices === 0; at += STATE_SLICE)
      entries[`doc-state-${slices++}`] = state.slice(at, at + STATE_SLICE);
    entries["doc-meta"] = { slices, version: this.persisted.version, unsavedBy } satisfies StoredMeta;
    await this.ctx.storage.put(entries);
  }

  /**
   * `meta.saved`: D1's version and the writers' clocks it holds. The doc's own clock is left out, so that
   * writing `saved` (a change of the doc, which schedules another save) does not change `saved` again.
   */
  private setSaved(version: number) {
    const clocks = Y.decodeStateVector(Y.encodeStateVector(this.document));
    clocks.delete(this.document.clientID);
    const saved: SavedMeta = { version, sv: toBase64(Y.encodeStateVector(clocks)) };
    const current = this.document.getMap(DocFields.meta).get(MetaKeys.saved) as SavedMeta | undefined;
    if (current?.version !== saved.version || current.sv !== saved.sv) this.setMeta(MetaKeys.saved, saved);
  }
}

type Frame = { kind: "sync-step-1" } | { kind: "update"; update: Uint8Array } | { kind: "awareness"; update: Uint8Array };

/** A y-protocols frame (sync step 1, sync step 2 or update, awareness), read whole. Throws when malformed. */
function readFrame(bytes: Uint8Array): Frame {
  const decoder = decoding.createDecoder(bytes);
  const type = decoding.readVarUint(decoder);
  if (type === 1) return { kind: "awareness", update: decoding.readVarUint8Array(decoder) };
  if (type !== 0) throw new Error("Unknown message type");
  const step = decoding.readVarUint(decoder);
  if (step === 0) {
    Y.decodeStateVector(decoding.readVarUint8Array(decoder));
    return { kind: "sync-step-1" };
  }
  if (step === 1 || step === 2) return { kind: "update", update: decoding.readVarUint8Array(decoder) };
  throw new Error("Unknown sync message");
}

/** What a writer's update changed in the shadow, when all of it is allowed (see `EventDoc.checkUpdate`). */
function inspectChange(
  shadow: Y.Doc,
  change: Y.Transaction | null,
  checked: WeakSet<ContentBlock>,
  rootsBefore: Set<string>,
): { refused: Refusal } | { save: string | null } {
  for (const name of shadow.share.keys()) if (!KNOWN_ROOTS.has(name) && !rootsBefore.has(name)) return { refused: "invalid" };
  if (!change) return { save: null };
  const title = shadow.getText(DocFields.title);
  const content = shadow.getXmlFragment(DocFields.content);
  const meta = shadow.getMap<unknown>(DocFields.meta);
  const touched = new Set<unknown>();
  const blocks = new Set<unknown>();
  let save: string | null = null;
  for (const [type, keys] of (change as Y.Transaction).changed) {
    let root: unknown = type;
    for (let t: Y.AbstractType<any> | null = type; t; t = t.parent) root = t;
    if (root === meta) {
      // A writer sets only its Save request, as plain JSON.
      if ((type as unknown) !== meta) return { refused: "invalid" };
      for (const key of keys) {
        const value = meta.get(key ?? "");
        if (key !== MetaKeys.save || !isSaveRequest(value)) return { refused: "invalid" };
        save = value.id;
      }
    } else if (root === title || root === content) {
      // The text and the fragment hold a sequence only, never keyed entries of their own.
      if (type === root && [...keys].some((k) => k !== null)) return { refused: "invalid" };
      touched.add(root);
      // The top-level block this change is in.
      let block: Y.AbstractType<any> = type;
      while (block.parent && block.parent !== content) block = block.parent;
      if (block !== content) blocks.add(block);
    } else return { refused: "invalid" };
  }
  if (
    touched.has(title) &&
    title.toDelta().some((op: { insert?: unknown; attributes?: unknown }) => typeof op.insert !== "string" || op.attributes)
  )
    return { refused: "invalid" };
  if (touched.has(content)) {
    // Blocks this update touched or added (new ones are not yet among the checked).
    const toCheck = content.toArray().filter((b) => blocks.has(b) || !checked.has(b));
    checkBlocks(toCheck);
    for (const b of toCheck) checked.add(b);
  }
  return { save };
}

/**
 * A doc stored before writers' updates were checked may hold blocks the editor's schema refuses (which made
 * every save throw): they go. D1 never had them; everything valid stays.
 */
function dropInvalidBlocks(doc: Y.Doc) {
  const fragment = doc.getXmlFragment(DocFields.content);
  const blocks = fragment.toArray();
  try {
    checkBlocks(blocks);
    return;
  } catch {
    // Found below, block by block.
  }
  doc.transact(() => {
    for (let i = blocks.length - 1; i >= 0; i--) {
      try {
        checkBlocks([blocks[i]]);
      } catch {
        fragment.delete(i, 1);
      }
    }
  }, Origins.d1);
}

/**
 * The doc's title and content checked with the event schemas: each valid part (trimmed), and why the rest cannot
 * reach D1 (content that does not convert, an empty part, a part over its limit), as the writers are told.
 */
function checkText(doc: Y.Doc): { title?: string; content?: string; problem: string | null } {
  const title = EventTitleSchema.safeParse(doc.getText(DocFields.title).toString());
  const markdown = markdownOf(doc);
  // Never throws on a doc state: content that does not convert keeps D1's text and says so.
  if (markdown === undefined) return { title: title.data, problem: SAVE_FAILED };
  const content = EventContentSchema.safeParse(markdown);
  const issues = [title.error?.issues[0]?.message, content.error?.issues[0]?.message].filter((m) => m !== undefined);
  const problem = issues.includes(messages.eventFields) ? messages.eventFields : (issues[0] ?? null);
  return { title: title.data, content: content.data, problem };
}

/** The doc's content as Markdown, or undefined when it does not convert (never written over D1's text). */
function markdownOf(doc: Y.Doc) {
  try {
    return yDocToMarkdown(doc);
  } catch (error) {
    console.error("[doc] content does not convert:", String(error));
    return undefined;
  }
}

type CaretEntry = { clientId: number; clock: number; state: string };

/** The entries of a y-protocols awareness update. Throws when malformed. */
function readAwareness(update: Uint8Array): CaretEntry[] {
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  const entries: CaretEntry[] = [];
  for (let i = 0; i < count; i++) {
    entries.push({ clientId: decoding.readVarUint(decoder), clock: decoding.readVarUint(decoder), state: decoding.readVarString(decoder) });
  }
  return entries;
}

/** A y-protocols awareness frame (type 1) of these entries. */
function writeAwareness(entries: CaretEntry[]): Uint8Array {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, entries.length);
  for (const e of entries) {
    encoding.writeVarUint(update, e.clientId);
    encoding.writeVarUint(update, e.clock);
    encoding.writeVarString(update, e.state);
  }
  const out = encoding.createEncoder();
  encoding.writeVarUint(out, 1);
  encoding.writeVarUint8Array(out, encoding.toUint8Array(update));
  return encoding.toUint8Array(out);
}
