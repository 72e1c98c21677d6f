import type { Connection, ConnectionContext } from "partyserver";
import { YServer } from "y-partyserver";
import * as awarenessProtocol from "y-protocols/awareness";
import * as Y from "yjs";
import { createDb } from "../db/client";
import { DOC_ACCESS_RECHECK_MS } from "../db/domain/rules";
import { DocFields, MetaKeys, type SaveReply, seedFragment } from "../db/domain/rich-text";
import { createMailer } from "../worker/lib/mailer";
import { CloseCodes } from "./close-codes";
import { keepAsVersion, loadEventRow } from "./doc-d1";
import { DocWriter } from "./doc-writer";
import { type DocConn, accessVerdict, admittedWriter, endAccessOf, endConnection } from "./doc-access";
import { type Frame, awarenessFrame, readAwareness, readFrame } from "./doc-frames";
import { DocGate, Pacing, attributeSuggestions, refuse } from "./doc-gate";
import { GatheredCarets, gatherBroadcasts } from "./doc-broadcast";
import { MAX_DOC_STATE_BYTES } from "./doc-limits";
import { SuggestionWatch } from "./doc-suggestions";
import { RoomLink, TypingRelay } from "./doc-room";
import { type Author, loadDocState } from "./doc-storage";
import { Origins, SAVE_FAILED, applyText, dropInvalidBlocks, markdownOf, mergeText } from "./doc-text";
import type { AccessEnd } from "./protocol";
import { IdentityHeaders } from "./connection-state";

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
  private saving: Promise<unknown> = Promise.resolve();
  private gone = false;
  private loading: Promise<void> | null = null;
  /** This doc's registration with the timeline's room while writers are here, and its notices there. */
  private room = new RoomLink(
    this.env.TimelineRoom,
    (work) => this.ctx.waitUntil(work),
    () => ({ eventId: this.eventId, timelineId: this.timelineId }),
  );
  /** Writers' typing on its way to everyone's cards (set up once the doc is loaded). */
  private typing: TypingRelay | null = null;
  /** The doc's text to D1 and to storage (what D1 holds, who typed since, the autosave being folded into). */
  private writer = new DocWriter({
    doc: () => this.document,
    eventId: () => this.eventId,
    db: () => createDb(this.env.DB),
    storage: this.ctx.storage,
    isGone: () => this.gone,
    forget: async (close) => {
      this.gone = true;
      if (close) for (const c of this.getConnections()) c.close(CloseCodes.timelineDeleted, "Event deleted");
      await this.ctx.storage.deleteAll();
    },
    setMeta: (key, value) => this.setMeta(key, value),
    tellEdited: (who, title) => this.room.tellEdited(who, title),
  });
  /** What reaches the doc from a writer's socket (checked updates, carets bound to their socket, the rate). */
  private gate = new DocGate(() => this.document);
  /** Updates past the rate, held per writer and applied merged at the rate's pace. */
  private pacing = new Pacing((connection, update) => {
    const c = connection as Connection<DocConn>;
    if (c.readyState === WebSocket.OPEN && !c.state?.ended && !this.gone) this.applyChecked(c, update);
  });
  /** Writers' caret changes, sent on to every writer as one frame per CARETS_MS. */
  private carets = new GatheredCarets((clientIds) => {
    const frame = awarenessFrame(this.document.awareness, clientIds);
    for (const c of this.getConnections()) {
      if (c.readyState !== WebSocket.OPEN) continue;
      try {
        c.send(frame);
      } catch {
        // A socket closing meanwhile: its own close handler tidies up.
      }
    }
  });
  /** New suggested edits, told to the timeline's owner once per batch (when the doc saves). */
  private suggestions = new SuggestionWatch();
  /** The site's origin, from the writers' sockets: the links in notification emails. */
  private origin: string | null = null;
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
    this.loaded = true;
  }

  /** Set once onLoad returned: y-partyserver's onStart registers its broadcast next. */
  private loaded = false;
  /** y-partyserver's start, its broadcast of every update to every connection gathered into one per BROADCAST_MS. */
  async onStart() {
    await gatherBroadcasts(
      this.document,
      () => this.loaded,
      async () => {
        await super.onStart();
      },
    );
  }

  private async load() {
    const row = await loadEventRow(createDb(this.env.DB), this.eventId);
    if (!row) {
      this.gone = true;
      await this.ctx.storage.deleteAll();
      return;
    }
    this.timelineId = row.timelineId;
    const stored = await loadDocState(this.ctx.storage);
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
        if (unsavedBy) await keepAsVersion(createDb(this.env.DB), this.eventId, this.document, unsavedBy);
        unsavedBy = null;
        applyText(this.document, row.title, row.content, Origins.d1);
      }
    } else {
      doc.transact(() => {
        doc.getText(DocFields.title).insert(0, row.title);
        seedFragment(doc, row.content);
        doc.getMap(DocFields.meta).set("epoch", crypto.randomUUID());
      }, Origins.d1);
    }
    this.writer.persisted = { version: row.version, title: row.title, content: row.content };
    const problem = doc.getMap(DocFields.meta).get(MetaKeys.problem);
    this.writer.problem = typeof problem === "string" ? problem : null;
    // Unsaved text is written now, before any writer hears 'All changes saved' (and before an API write could win
    // over it). Otherwise this stores the doc and marks it saved (or names what keeps its text out of D1).
    if (unsavedBy) this.writer.editors.set(unsavedBy.id, unsavedBy);
    await this.writer.write({});
    this.suggestions.start(doc);
    this.typing = new TypingRelay(
      () => ({ title: doc.getText(DocFields.title).toString(), content: markdownOf(doc) }),
      { title: row.title, content: row.content },
      (by, changes) => !this.gone && this.room.tellTyping(by, changes),
    );
    doc.on("update", (update: Uint8Array, origin: unknown) => {
      this.gate.observe(update);
      const state = (origin as Connection<DocConn> | null)?.state;
      if (state?.userId) {
        const author = { id: state.userId, name: state.userName, email: state.userName };
        this.writer.editors.delete(state.userId);
        this.writer.editors.set(state.userId, author);
        this.typing?.typed(author);
        this.suggestions.wrote(state.userId, state.userName);
      }
    });
  }

  async onConnect(connection: Connection<DocConn>, ctx: ConnectionContext) {
    const h = ctx.request.headers;
    const writer = admittedWriter(h);
    if (!writer) {
      connection.close(CloseCodes.unauthenticated, "Not authenticated");
      return;
    }
    // The first writer back: D1 may have moved on while nobody was here (a REST edit, a restore).
    if (!this.gone && [...this.getConnections()].every((c) => c.id === connection.id)) await this.writer.refreshFromD1();
    if (this.gone) {
      connection.close(CloseCodes.timelineDeleted, "Event deleted");
      return;
    }
    connection.setState((prev) => ({
      ...prev,
      ...writer,
      userName: decodeURIComponent(h.get(IdentityHeaders.userName) ?? "") || "Writer",
      share: new URL(ctx.request.url).searchParams.get("share") ?? undefined,
    }));
    this.origin ??= new URL(ctx.request.url).origin;
    // The socket opens only after this returns. Once the room knows this doc, it tells it every access
    // that ends; an end between the Worker's check and that moment shows in D1, so access is read again.
    await this.room.register();
    const ended = connection.state?.ended ? null : await this.verdict(connection.state!);
    if (ended) endConnection(connection, ended);
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
    if (bytes.byteLength > MAX_DOC_STATE_BYTES) return refuse(connection, "tooLarge");
    let frame: Frame;
    try {
      frame = readFrame(bytes);
    } catch {
      return refuse(connection, "invalid");
    }
    if (frame.kind === "sync-step-1") return super.handleMessage(connection, bytes);
    if (frame.kind === "awareness") {
      // An editor moves its caret with everyone's typing (its view follows theirs): past the rate, carets are
      // dropped, not the writer (the next one, or the 15 s renewal, puts it right).
      if (this.gate.tooFast(connection, "carets")) return;
      const carets = this.gate.ownCarets(connection, frame.update, state.userName);
      if (carets === "invalid") return refuse(connection, "invalid");
      if (carets) {
        // Applied now (y-partyserver's awareness listener records which clients this socket controls, so its close
        // removes them), sent on gathered instead of one frame per caret move to every writer.
        const { update } = readFrame(carets) as Extract<Frame, { kind: "awareness" }>;
        awarenessProtocol.applyAwarenessUpdate(this.document.awareness, update, connection);
        this.carets.push(readAwareness(update).map((entry) => entry.clientId));
      }
      return;
    }
    if (this.isReadOnly(connection)) return;
    // Past the rate a writer is slowed down, not dropped: their updates wait and are merged into one (pacing).
    if (this.pacing.hold(connection, frame.update, () => this.gate.tooFast(connection, "updates"))) return;
    this.applyChecked(connection, frame.update);
  }

  /** A writer's update, checked on the shadow and applied (and a Save in it answered). */
  private applyChecked(connection: Connection<DocConn>, update: Uint8Array) {
    const state = connection.state!;
    const sender = { userId: state.userId, name: state.userName };
    const checked = this.gate.check(update, sender);
    if ("refused" in checked) return refuse(connection, checked.refused);
    this.gate.apply(update, connection);
    // Suggestions are in the name of who sent them, whatever their ids say.
    if (checked.foreign.length > 0) attributeSuggestions(this.document, checked.foreign, sender, Origins.server);
    if (checked.serverKeys.length > 0) this.reassert(checked.serverKeys);
    if (checked.save) this.answerSave(connection, checked.save);
  }

  /**
   * A writer's update brought back entries of the server's own (a resync after a restart carries what the server
   * wrote before it stopped, and may be stale): where they differ from what this doc knows, its own are written
   * over them, so every writer hears what D1 really holds.
   */
  private reassert(keys: string[]) {
    const meta = this.document.getMap<unknown>(DocFields.meta);
    for (const key of keys) {
      const own = this.writer.ownMeta(key);
      if (own && JSON.stringify(meta.get(key)) !== JSON.stringify(own.value)) this.setMeta(key, own.value);
    }
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
    this.gate.forget(connection.id);
    this.pacing.forget(connection.id);
    const others = [...this.getConnections()].filter((c) => c.id !== connection.id);
    if (others.length === 0) this.room.unregister();
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
      if (ended) endConnection(c, ended);
    }
    await this.ctx.storage.setAlarm(Date.now() + DOC_ACCESS_RECHECK_MS);
  }

  /**
   * DO RPC from the timeline's room when a writer's access ended or shrank (`TimelineRoom.endAccess`): their
   * sockets here are ended at once. After a change of the share link, writers admitted with a code are
   * checked against D1 again. `registered: false` tells the room this doc has no writers it registered.
   */
  async endAccess(end: AccessEnd): Promise<{ registered: boolean }> {
    await endAccessOf(this.getConnections<DocConn>(), end, (s) => this.verdict(s));
    return { registered: this.room.registered };
  }

  private verdict(s: DocConn) {
    return accessVerdict(createDb(this.env.DB), this.timelineId, s);
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
    const base = this.writer.persisted?.content ?? "";
    await this.persist({});
    const live = markdownOf(this.document) ?? base;
    const content = input.content === undefined ? undefined : mergeText(base, input.content, live);
    applyText(this.document, input.title, content, Origins.rest);
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

  /**
   * DO RPC for a reader's comment on the text (`GET /api/events/{id}/doc-state`): the doc's state as one Yjs
   * update, so read mode anchors a comment at the same relative positions as the editor. Null when the event is gone.
   */
  async readState(): Promise<Uint8Array | null> {
    if (this.loading) await this.loading;
    if (this.gone || this.loading === null) return null;
    // Nobody is writing here: D1 may have moved on meanwhile (a REST edit, a restore), so the reader gets that text.
    if ([...this.getConnections()].length === 0) await this.writer.refreshFromD1();
    if (this.gone) return null;
    return Y.encodeStateAsUpdate(this.document);
  }

  /** For tests and diagnostics: the doc as Markdown, and who is connected. */
  async inspect() {
    return {
      title: this.document.getText(DocFields.title).toString(),
      content: markdownOf(this.document) ?? "",
      connections: [...this.getConnections()].length,
      persisted: this.writer.persisted,
    };
  }

  /** One write at a time: a Save during an autosave waits for it. */
  private persist(opts: { author?: Author; explicit?: boolean; announce?: boolean }) {
    const run = this.saving.then(() => this.writer.write(opts));
    this.saving = run.catch(() => undefined);
    // Each save closes a batch of suggestions: their notification leaves after it (never per keystroke).
    this.ctx.waitUntil(
      run.then(() => this.tellSuggestions()).catch((error) => console.error("[doc] suggestion notice failed:", String(error))),
    );
    return run;
  }

  private tellSuggestions() {
    if (this.gone) return;
    const origin = this.origin;
    const mail = origin
      ? { origin, mailer: createMailer(this.env), defer: (p: Promise<unknown>) => this.ctx.waitUntil(p), env: this.env }
      : undefined;
    return this.suggestions.settle(this.document, createDb(this.env.DB), { eventId: this.eventId, timelineId: this.timelineId }, mail);
  }
}
