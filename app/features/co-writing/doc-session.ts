import { IndexeddbPersistence } from "y-indexeddb";
import YProvider from "y-partyserver/provider";
import { ySyncPluginKey } from "@tiptap/y-tiptap";
import { useEffect, useState } from "react";
import * as Y from "yjs";
import { accessEndedText } from "~/features/co-writing/access-ended";
import { accessEndOf } from "~/features/co-writing/co-editor-context";
import { localDocName, markPending, noteLocalDoc } from "~/lib/offline-docs";
import { CloseCodes } from "../../../durable-objects/close-codes";
import { DocCloseReasons } from "../../../durable-objects/doc-limits";
import { DocFields, MetaKeys, type SaveReply, type SavedMeta, yDocToMarkdown } from "../../../db/domain/rich-text";

// One open co-writing editor's Y.Doc, shared through the event's EventDoc (y-partyserver) and kept in
// IndexedDB for offline work: its connection, save state and local copy, outside React.

const LOCAL_COPY = "local-copy";
const OFFLINE_GRACE_MS = 1500;
const SAVE_TIMEOUT_MS = 15_000;

type Connection = "connecting" | "connected" | "disconnected";

/** Why the doc's socket closed for good (no reconnect), and whether my access ended (the editor then offers my text). */
function endedBy(event: CloseEvent): { why: string; access: boolean } | null {
  const end = accessEndOf(event.code, event.reason);
  if (end) return { why: accessEndedText[end], access: true };
  // The doc's 4404: its event was deleted.
  if (event.code === CloseCodes.timelineDeleted) return { why: "Event not found", access: false };
  // Updates faster than the doc takes them: nothing is lost, the provider reconnects and its resync sends them again.
  if (event.code === CloseCodes.docRefused && event.reason === DocCloseReasons.tooFast) return null;
  // An update the doc refused (nothing of it applied: a change no editor of ours makes): reopening sends what this
  // browser keeps.
  if (event.code === CloseCodes.docRefused || event.code === CloseCodes.docTooLarge) {
    const fallback = event.code === CloseCodes.docTooLarge ? DocCloseReasons.tooLarge : DocCloseReasons.invalid;
    return { why: DOC_REASONS.has(event.reason) ? event.reason : fallback, access: false };
  }
  return null;
}
const DOC_REASONS = new Set<string>(Object.values(DocCloseReasons));

/** One open editor's doc, socket and local copy. */
export class Session {
  readonly ydoc = new Y.Doc();
  readonly provider: YProvider;
  readonly cancelUndo: Y.UndoManager;
  connection: Connection = "connecting";
  ready = false;
  persistedSv: Map<number, number> | null = null;
  /** Why the server is not saving the text, until a save succeeds. */
  problem: string | null = null;
  /** The server closed the doc for good (signed out, access removed, event deleted): why. */
  ended: string | null = null;
  /** It closed because my access ended or shrank: the editor shows my text for copying instead of closing. */
  accessEnded = false;
  private local: { doc: Y.Doc; idb: IndexeddbPersistence } | null = null;
  private listeners = new Set<() => void>();
  private waiters = new Set<(reply: SaveReply) => void>();
  private destroyed = false;
  private pendingMarked: boolean | null = null;
  /** Edits went to the local copy since it was last written whole (see writeCopyNow). */
  private copyUnflushed = false;

  constructor(
    timelineId: number,
    readonly eventId: number,
    shareCode: string | null,
  ) {
    this.provider = new YProvider(window.location.host, "doc", this.ydoc, {
      prefix: `/ws/${timelineId}/events/${eventId}/doc`,
      protocol: window.location.protocol === "https:" ? "wss" : "ws",
      params: shareCode ? { share: shareCode } : undefined,
      connect: false,
    });
    // Its copy in this browser is the timeline's: deleted with the rest of it when my access ends.
    noteLocalDoc(timelineId, eventId);
    // Cancel undoes only what this writer did since the editor opened: title input and editor edits.
    this.cancelUndo = new Y.UndoManager([this.ydoc.getText(DocFields.title), this.ydoc.getXmlFragment(DocFields.content)], {
      trackedOrigins: new Set<unknown>([null, ySyncPluginKey]),
      captureTimeout: Number.MAX_SAFE_INTEGER,
    });
    this.provider.on("status", ({ status }: { status: Connection }) => this.set(() => (this.connection = status)));
    this.provider.on("connection-close", (event: CloseEvent | null) => {
      const ended = event ? endedBy(event) : null;
      if (ended) this.provider.disconnect();
      this.set(() => {
        this.connection = "disconnected";
        if (ended && !this.ended) {
          this.ended = ended.why;
          this.accessEnded = ended.access;
        }
      });
    });
    // The server's save state arrives in the doc itself (only standard Yjs frames go over the socket).
    this.ydoc.getMap(DocFields.meta).observe(this.onMeta);
    // Who else is in the editor (their carets' names).
    this.provider.awareness.on("change", this.emitNow);
    // The browser says the network is gone (an open socket may not notice for a long while): work offline.
    window.addEventListener("offline", this.goOffline);
    window.addEventListener("online", this.goOnline);
    // Leaving or hiding the page: what the copy's own writes have not committed yet is written at once.
    window.addEventListener("pagehide", this.writeCopyNow);
    document.addEventListener("visibilitychange", this.onVisibility);
    this.ydoc.on("update", (update: Uint8Array, origin: unknown) => {
      if (this.local && origin !== LOCAL_COPY) {
        Y.applyUpdate(this.local.doc, update, LOCAL_COPY);
        this.copyUnflushed = true;
      }
      this.emit();
    });
    void this.open();
  }

  /** Local copy first (read aside), then the server; the copy is merged only if it belongs to the server's doc. */
  private async open() {
    const doc = new Y.Doc();
    const idb = new IndexeddbPersistence(localDocName(this.eventId), doc);
    await idb.whenSynced.catch(() => undefined);
    if (this.destroyed) return void idb.destroy();
    const hasCopy = doc.store.clients.size > 0;
    let merged = false;
    const merge = () => {
      if (merged || this.destroyed) return;
      merged = true;
      if (hasCopy) {
        const serverEpoch = this.ydoc.getMap(DocFields.meta).get("epoch");
        const localEpoch = doc.getMap(DocFields.meta).get("epoch");
        if (this.provider.synced && serverEpoch !== localEpoch) {
          // The server's doc was rebuilt since this copy was made: merging would duplicate the text.
          this.set(() => (this.ready = true));
          void idb.clearData().then(() => {
            if (this.destroyed) return;
            const fresh = new Y.Doc();
            Y.applyUpdate(fresh, Y.encodeStateAsUpdate(this.ydoc));
            this.local = { doc: fresh, idb: new IndexeddbPersistence(localDocName(this.eventId), fresh) };
          });
          return;
        }
        Y.applyUpdate(this.ydoc, Y.encodeStateAsUpdate(doc), LOCAL_COPY);
      }
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(this.ydoc), LOCAL_COPY);
      this.local = { doc, idb };
      this.set(() => (this.ready = true));
    };
    this.provider.on("synced", (synced: boolean) => synced && merge());
    // Offline with a copy from an earlier visit: work on it now, it merges when the socket comes back.
    if (hasCopy) {
      setTimeout(() => {
        if (!this.provider.synced && this.connection !== "connected") merge();
      }, OFFLINE_GRACE_MS);
    }
    if (navigator.onLine) void this.provider.connect();
    else this.set(() => (this.connection = "disconnected"));
  }

  private onMeta = (event: Y.YMapEvent<unknown>) => {
    const meta = this.ydoc.getMap<unknown>(DocFields.meta);
    // Why the server could not keep the text in D1 (an empty title, too long): in the status line until fixed.
    if (event.keysChanged.has(MetaKeys.problem)) {
      const problem = meta.get(MetaKeys.problem);
      this.problem = typeof problem === "string" ? problem : null;
    }
    const saved = meta.get(MetaKeys.saved) as SavedMeta | undefined;
    if (event.keysChanged.has(MetaKeys.saved) && typeof saved?.sv === "string") {
      try {
        this.persistedSv = Y.decodeStateVector(Uint8Array.from(atob(saved.sv), (c) => c.charCodeAt(0)));
      } catch {
        // A malformed vector changes nothing.
      }
    }
    const reply = meta.get(MetaKeys.reply) as SaveReply | undefined;
    if (event.keysChanged.has(MetaKeys.reply) && typeof reply?.id === "string") for (const waiter of this.waiters) waiter(reply);
    this.emit();
  };

  /** Everything I typed is in the server's persisted doc. */
  get allSaved() {
    const mine = Y.getState(this.ydoc.store, this.ydoc.clientID);
    return this.connection === "connected" && this.provider.synced && (this.persistedSv?.get(this.ydoc.clientID) ?? 0) >= mine;
  }

  /** Asks the server to persist now (a version by me), through the doc's `meta`; resolves with its reply. */
  save(): Promise<{ ok: true } | { ok: false; error: string }> {
    if (this.connection !== "connected")
      return Promise.resolve({ ok: false, error: "You are offline. Your changes will sync when you reconnect." });
    return new Promise((resolve) => {
      const done = (result: { ok: true } | { ok: false; error: string }) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(result);
      };
      const id = crypto.randomUUID();
      const waiter = (reply: SaveReply) => {
        if (reply.id !== id) return;
        done(
          "error" in reply ? { ok: false, error: typeof reply.error === "string" ? reply.error : "Failed to update event" } : { ok: true },
        );
      };
      const timer = setTimeout(() => done({ ok: false, error: "Failed to update event" }), SAVE_TIMEOUT_MS);
      this.waiters.add(waiter);
      this.ydoc.getMap(DocFields.meta).set(MetaKeys.save, { id });
    });
  }

  private goOffline = () => {
    this.provider.disconnect();
    this.set(() => (this.connection = "disconnected"));
  };
  private goOnline = () => {
    if (!this.destroyed) void this.provider.connect();
  };

  /**
   * Writes the whole local copy to IndexedDB in one transaction committed now. y-indexeddb stores every edit as it
   * happens, but in a transaction that commits only after the current task: a page left right after a keystroke
   * (closed, navigated away) could lose its last edits with it. Called when the page is hidden or left.
   */
  private writeCopyNow = () => {
    const db = this.local?.idb.db;
    if (!this.local || !db || !this.copyUnflushed) return;
    this.copyUnflushed = false;
    try {
      const tx = db.transaction("updates", "readwrite");
      tx.objectStore("updates").add(Y.encodeStateAsUpdate(this.local.doc));
      tx.commit?.();
    } catch {
      // A closing or deleted database (Logout, the timeline forgotten): the copy's own writes stand.
    }
  };
  private onVisibility = () => {
    if (document.visibilityState === "hidden") this.writeCopyNow();
  };

  /** The room said my access ended: nothing more goes to the server, the editor offers my text. */
  endAccess(why: string) {
    if (this.ended) return;
    this.provider.disconnect();
    this.set(() => {
      this.ended = why;
      this.accessEnded = true;
    });
  }

  /** My text as it stands here (title, then the content as Markdown), for copying. */
  text() {
    const title = this.ydoc.getText(DocFields.title).toString();
    const content = yDocToMarkdown(this.ydoc);
    return title ? `${title}\n\n${content}` : content;
  }

  cancel() {
    while (this.cancelUndo.undoStack.length > 0) this.cancelUndo.undo();
  }

  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  private set(change: () => unknown) {
    change();
    this.emit();
  }
  private emit() {
    // Edits the server has not confirmed are marked, so a reload sends them even if this editor stays closed. A
    // closing editor marks nothing more (its marker is already right, and at Logout it was just deleted).
    if (this.local && !this.destroyed) {
      const pending = !this.allSaved && Y.getState(this.ydoc.store, this.ydoc.clientID) > 0;
      if (pending !== this.pendingMarked && (pending || this.allSaved)) {
        this.pendingMarked = pending;
        markPending(this.eventId, pending);
      }
    }
    for (const listener of this.listeners) listener();
  }
  private emitNow = () => this.emit();

  destroy() {
    this.destroyed = true;
    window.removeEventListener("offline", this.goOffline);
    window.removeEventListener("online", this.goOnline);
    window.removeEventListener("pagehide", this.writeCopyNow);
    document.removeEventListener("visibilitychange", this.onVisibility);
    this.cancelUndo.destroy();
    this.provider.awareness.off("change", this.emitNow);
    this.ydoc.getMap(DocFields.meta).unobserve(this.onMeta);
    this.provider.destroy();
    void this.local?.idb.destroy();
    this.ydoc.destroy();
  }
}

/** Re-renders on every change of the session (connection, sync, typing). */
export function useSessionTick(session: Session) {
  const [, setTick] = useState(0);
  useEffect(() => session.subscribe(() => setTick((t) => t + 1)), [session]);
}

/** The names of the other people in this editor (from the carets' awareness; the server sets the names). */
export function otherWriters(session: Session): string[] {
  const names = new Set<string>();
  for (const [clientId, state] of session.provider.awareness.getStates()) {
    if (clientId === session.ydoc.clientID) continue;
    const name = (state as { user?: { name?: unknown } }).user?.name;
    if (typeof name === "string" && name) names.add(name);
  }
  return [...names];
}
