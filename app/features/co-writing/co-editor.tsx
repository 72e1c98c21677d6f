import Collaboration from "@tiptap/extension-collaboration";
import CollaborationCaret from "@tiptap/extension-collaboration-caret";
import { type Editor, EditorContent, useEditor } from "@tiptap/react";
import { ySyncPluginKey } from "@tiptap/y-tiptap";
import { Bold, Heading2, Italic, List, ListOrdered, Minus } from "lucide-react";
import { type ReactNode, Suspense, lazy, useEffect, useId, useMemo, useRef, useState } from "react";
import { IndexeddbPersistence } from "y-indexeddb";
import YProvider from "y-partyserver/provider";
import * as Y from "yjs";
import { accessEndedText } from "~/features/co-writing/access-ended";
import { accessEndOf, caretColor, useCoWrite } from "~/features/co-writing/co-editor-context";
import type { AssistTarget } from "~/features/assistant/scene-assist";
import { Button } from "~/ui/button";
import { Input, Label } from "~/ui/input";
import { cn } from "~/lib/cn";
import { localDocName, markPending } from "~/lib/offline-docs";
import { errorToast, showToast } from "~/lib/toast";
import { CloseCodes } from "../../../durable-objects/close-codes";
import { DocCloseReasons } from "../../../durable-objects/doc-limits";
import {
  DocFields,
  MetaKeys,
  type SaveReply,
  type SavedMeta,
  applyPlainText,
  markdownToJson,
  richTextExtensions,
  yDocToMarkdown,
} from "../../../db/domain/rich-text";
import type { EventView } from "../../../worker/services/events";

// The co-writing editor: a card's edit mode. One Y.Doc per event, shared through the event's
// EventDoc (y-partyserver) and kept in IndexedDB for offline work. Loaded lazily by event-card.tsx.

const SceneAssist = lazy(() => import("~/features/assistant/scene-assist").then((m) => ({ default: m.SceneAssist })));

const LOCAL_COPY = "local-copy";
const OFFLINE_GRACE_MS = 1500;
const SAVE_TIMEOUT_MS = 15_000;
const RELAY_MS = 300;

type Connection = "connecting" | "connected" | "disconnected";

/** Why the doc's socket closed for good (no reconnect), and whether my access ended (the editor then offers my text). */
function endedBy(event: CloseEvent): { why: string; access: boolean } | null {
  const end = accessEndOf(event.code, event.reason);
  if (end) return { why: accessEndedText[end], access: true };
  // The doc's 4404: its event was deleted.
  if (event.code === CloseCodes.timelineDeleted) return { why: "Event not found", access: false };
  // An update the doc refused (nothing of it applied): reopening sends what this browser keeps.
  if (event.code === CloseCodes.docRefused || event.code === CloseCodes.docTooLarge) {
    const fallback = event.code === CloseCodes.docTooLarge ? DocCloseReasons.tooLarge : DocCloseReasons.invalid;
    return { why: DOC_REASONS.has(event.reason) ? event.reason : fallback, access: false };
  }
  return null;
}
const DOC_REASONS = new Set<string>(Object.values(DocCloseReasons));

/** One open editor's doc, socket and local copy. */
class Session {
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
    this.ydoc.on("update", (update: Uint8Array, origin: unknown) => {
      if (this.local && origin !== LOCAL_COPY) Y.applyUpdate(this.local.doc, update, LOCAL_COPY);
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
    // Edits the server has not confirmed are marked, so a reload sends them even if this editor stays closed.
    if (this.local) {
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
    this.cancelUndo.destroy();
    this.provider.awareness.off("change", this.emitNow);
    this.ydoc.getMap(DocFields.meta).unobserve(this.onMeta);
    this.provider.destroy();
    void this.local?.idb.destroy();
    this.ydoc.destroy();
  }
}

/** Re-renders on every change of the session (connection, sync, typing). */
function useSessionTick(session: Session) {
  const [, setTick] = useState(0);
  useEffect(() => session.subscribe(() => setTick((t) => t + 1)), [session]);
}

type Props = {
  event: EventView;
  /** The story fields (links, POV, story time), saved by `onSaveStory` after the text is saved. */
  children?: ReactNode;
  onSaveStory: () => Promise<boolean>;
  onClose: () => void;
  /** The doc's text for the room's live relay (read-mode cards of everyone). */
  onTyping?: (change: { type: "title" | "content"; value: string }) => void;
};

export function CoEditor({ event, children, onSaveStory, onClose, onTyping }: Props) {
  const api = useCoWrite();
  const timelineId = api?.timelineId ?? event.timelineId;
  const shareCode = api?.shareCode ?? null;
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    const s = new Session(timelineId, event.id, shareCode);
    setSession(s);
    return () => {
      setSession(null);
      s.destroy();
    };
  }, [timelineId, event.id, shareCode]);

  // The room says 'X is writing here' while this editor is open.
  const setEditing = api?.setEditing;
  useEffect(() => {
    setEditing?.(event.id, true);
    return () => setEditing?.(event.id, false);
  }, [setEditing, event.id]);

  if (!session) return <p className="text-sm text-stone-600">Opening the editor…</p>;
  return (
    <SessionEditor key={session.eventId} session={session} event={event} onSaveStory={onSaveStory} onClose={onClose} onTyping={onTyping}>
      {children}
    </SessionEditor>
  );
}

function SessionEditor({ session, event, children, onSaveStory, onClose, onTyping }: Props & { session: Session }) {
  const api = useCoWrite();
  useSessionTick(session);
  const [saving, setSaving] = useState(false);
  const myName = api?.myName ?? "";
  const user = useMemo(() => ({ name: myName, color: caretColor(api?.myUserId ?? 0) }), [myName, api?.myUserId]);
  const contentId = `event-${event.id}-content`;
  const editor = useEditor(
    {
      extensions: [
        ...richTextExtensions(),
        Collaboration.configure({ document: session.ydoc, field: DocFields.content }),
        CollaborationCaret.configure({ provider: session.provider, user }),
      ],
      editable: false,
      immediatelyRender: false,
      shouldRerenderOnTransaction: true,
      editorProps: {
        attributes: {
          id: contentId,
          role: "textbox",
          "aria-multiline": "true",
          "aria-label": "Content",
          class:
            "co-editor-content min-h-32 rounded-md border border-stone-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600",
        },
      },
    },
    [session],
  );
  useEffect(() => {
    if (editor && session.ready && !editor.isEditable) editor.setEditable(true);
  });
  useEffect(() => {
    if (editor && user.name) editor.commands.updateUser(user);
  }, [editor, user]);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!session.ended || session.accessEnded) return;
    errorToast(session.ended);
    closeRef.current();
  }, [session.ended, session.accessEnded]);
  const roomEnded = api?.ended ? accessEndedText[api.ended] : null;
  useEffect(() => {
    if (roomEnded) session.endAccess(roomEnded);
  }, [roomEnded, session]);

  // The live relay: my doc's text, debounced, for everyone's read-mode cards.
  const relay = useRef(onTyping);
  relay.current = onTyping;
  const showText = api?.showText;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const sent = { title: event.title, content: event.content };
    const flush = () => {
      const title = session.ydoc.getText(DocFields.title).toString();
      const content = yDocToMarkdown(session.ydoc);
      if (title !== sent.title) relay.current?.({ type: "title", value: title });
      if (content !== sent.content) relay.current?.({ type: "content", value: content });
      sent.title = title;
      sent.content = content;
    };
    // Others' updates too: whoever writes last, every writer's final relay carries the merged text.
    const onUpdate = () => {
      clearTimeout(timer);
      timer = setTimeout(flush, RELAY_MS);
    };
    session.ydoc.on("update", onUpdate);
    return () => {
      session.ydoc.off("update", onUpdate);
      clearTimeout(timer);
    };
  }, [session, event.title, event.content]);

  // My own read-mode card shows the doc's text when the editor closes.
  const closeWithText = () => {
    if (session.ready) {
      showText?.(event.id, { title: session.ydoc.getText(DocFields.title).toString(), content: yDocToMarkdown(session.ydoc) });
    }
    onClose();
  };

  async function save() {
    setSaving(true);
    const result = await session.save();
    if (!result.ok) {
      setSaving(false);
      return errorToast(result.error);
    }
    const ok = await onSaveStory();
    setSaving(false);
    if (ok) closeWithText();
  }

  function cancel() {
    session.cancel();
    closeWithText();
  }

  const target = useMemo<AssistTarget | null>(() => (editor ? editorTarget(editor) : null), [editor]);
  if (session.ended && session.accessEnded) return <EndedEditor why={session.ended} text={session.text()} onClose={onClose} />;
  const others = otherWriters(session);
  const status =
    session.connection !== "connected"
      ? "Offline — changes will sync"
      : session.problem
        ? `Not saved: ${session.problem}`
        : session.allSaved
          ? "All changes saved"
          : "Saving…";

  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`event-${event.id}-title`}>Title</Label>
        <TitleInput id={`event-${event.id}-title`} session={session} />
      </div>
      <div className="space-y-1.5">
        <p className="text-sm font-medium" aria-hidden="true">
          Content
        </p>
        {editor ? <Toolbar editor={editor} /> : null}
        {/* Shown once the doc has synced: nobody types into a doc that is not there yet. */}
        {session.ready ? (
          <EditorContent editor={editor} />
        ) : (
          <div aria-hidden="true" className="min-h-32 animate-pulse rounded-md border border-stone-200 bg-stone-50" />
        )}
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-stone-600">
          <p role="status" data-testid="co-editor-status">
            {session.ready || session.connection !== "connected" ? status : "Connecting…"}
          </p>
          {others.length > 0 ? <p data-testid="co-editor-writers">Also here: {others.join(", ")}</p> : null}
        </div>
        {target ? (
          <Suspense fallback={null}>
            <SceneAssist eventId={event.id} contentId={contentId} target={target} />
          </Suspense>
        ) : null}
      </div>
      {children}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={cancel} disabled={saving}>
          Cancel
        </Button>
        <Button size="sm" onClick={save} disabled={saving || !session.ready}>
          {saving ? "Saving..." : "Save"}
        </Button>
      </div>
    </>
  );
}

/**
 * My access ended while I was writing: why, and my text as it stands in this browser (saved or not) in a
 * read-only box to copy from.
 */
function EndedEditor({ why, text, onClose }: { why: string; text: string; onClose: () => void }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      showToast({ title: "Copied to clipboard!" });
    } catch {
      // No clipboard (an insecure page, a refused permission): the text is selected for a manual copy.
      box.current?.focus();
      box.current?.select();
    }
  }
  return (
    <div className="space-y-3" data-testid="co-editor-ended">
      <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950">
        {why}
      </p>
      <div className="space-y-1.5">
        <Label htmlFor={id}>Your text</Label>
        <textarea
          ref={box}
          id={id}
          readOnly
          value={text}
          rows={Math.min(12, Math.max(4, text.split("\n").length + 1))}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full rounded-md border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
        />
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onClose}>
          Close
        </Button>
        <Button size="sm" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
    </div>
  );
}

/** The names of the other people in this editor (from the carets' awareness; the server sets the names). */
function otherWriters(session: Session): string[] {
  const names = new Set<string>();
  for (const [clientId, state] of session.provider.awareness.getStates()) {
    if (clientId === session.ydoc.clientID) continue;
    const name = (state as { user?: { name?: unknown } }).user?.name;
    if (typeof name === "string" && name) names.add(name);
  }
  return [...names];
}

/** The title as plain text in the doc: my typing goes in as a minimal diff, others' keeps my caret in place. */
function TitleInput({ id, session }: { id: string; session: Session }) {
  const ytext = session.ydoc.getText(DocFields.title);
  const [value, setValue] = useState(() => ytext.toString());
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setValue(ytext.toString());
    const observer = (e: Y.YTextEvent) => {
      const next = ytext.toString();
      const input = ref.current;
      if (!input || input.value === next) return setValue(next);
      const map = (at: number) => {
        let pos = 0;
        let out = at;
        for (const op of e.delta) {
          if (op.retain) pos += op.retain;
          else if (typeof op.insert === "string") {
            if (pos < at) out += op.insert.length;
            pos += op.insert.length;
          } else if (op.delete) {
            if (pos < at) out -= Math.min(op.delete, at - pos);
          }
        }
        return out;
      };
      const focused = document.activeElement === input;
      const start = map(input.selectionStart ?? 0);
      const end = map(input.selectionEnd ?? 0);
      input.value = next;
      setValue(next);
      if (focused) input.setSelectionRange(start, end);
    };
    ytext.observe(observer);
    return () => ytext.unobserve(observer);
  }, [ytext]);
  return (
    <Input
      ref={ref}
      id={id}
      value={value}
      maxLength={200}
      disabled={!session.ready}
      onChange={(e) => {
        setValue(e.target.value);
        applyPlainText(ytext, e.target.value);
      }}
    />
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const can = editor.isEditable;
  const tool = (label: string, icon: ReactNode, active: boolean | undefined, run: () => void) => (
    <Button
      key={label}
      type="button"
      size="sm"
      variant="ghost"
      aria-label={label}
      title={label}
      aria-pressed={active}
      disabled={!can}
      className={cn("h-8 px-2", active && "bg-brand-100 text-brand-700")}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      {icon}
    </Button>
  );
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1">
      {tool("Bold", <Bold aria-hidden="true" className="h-4 w-4" />, editor.isActive("bold"), () =>
        editor.chain().focus().toggleBold().run(),
      )}
      {tool("Italic", <Italic aria-hidden="true" className="h-4 w-4" />, editor.isActive("italic"), () =>
        editor.chain().focus().toggleItalic().run(),
      )}
      {tool("Heading", <Heading2 aria-hidden="true" className="h-4 w-4" />, editor.isActive("heading", { level: 2 }), () =>
        editor.chain().focus().toggleHeading({ level: 2 }).run(),
      )}
      {tool("Bullet list", <List aria-hidden="true" className="h-4 w-4" />, editor.isActive("bulletList"), () =>
        editor.chain().focus().toggleBulletList().run(),
      )}
      {tool("Numbered list", <ListOrdered aria-hidden="true" className="h-4 w-4" />, editor.isActive("orderedList"), () =>
        editor.chain().focus().toggleOrderedList().run(),
      )}
      {tool("Scene break", <Minus aria-hidden="true" className="h-4 w-4" />, undefined, () =>
        editor.chain().focus().setHorizontalRule().run(),
      )}
    </div>
  );
}

/** SceneAssist's view of the editor: the selection as text, and results inserted through the editor. */
function editorTarget(editor: Editor): AssistTarget {
  const blocks = (text: string) => markdownToJson(text).content ?? [];
  const inline = (text: string) => {
    const nodes = blocks(text);
    return nodes.length === 1 && nodes[0].type === "paragraph" ? (nodes[0].content ?? []) : nodes;
  };
  return {
    selection: () => {
      const { from, to } = editor.state.selection;
      return { text: editor.state.doc.textBetween(from, to, "\n\n"), from, to };
    },
    replace: (from, to, text) => void editor.chain().focus().insertContentAt({ from, to }, inline(text)).run(),
    insertBelow: (at, text) => {
      const $pos = editor.state.doc.resolve(Math.min(at, editor.state.doc.content.size));
      const after = $pos.depth > 0 ? $pos.after(1) : editor.state.doc.content.size;
      editor.chain().focus().insertContentAt(after, blocks(text)).run();
    },
    append: (text) => void editor.chain().focus().insertContentAt(editor.state.doc.content.size, blocks(text)).run(),
  };
}
