import { env } from "cloudflare:workers";
import { initProseMirrorDoc, relativePositionToAbsolutePosition } from "@tiptap/y-tiptap";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import * as awarenessProtocol from "y-protocols/awareness";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import { DocFields, MetaKeys, type SaveReply, type SavedMeta, richTextSchema, yDocToMarkdown } from "../../db/domain/rich-text";
import { createEvent, createTimeline, registerUser, shareWith } from "./helpers";
import { upgrade } from "./room-helpers";

// A real Yjs client of an event's shared doc, speaking y-protocols over a WebSocket upgraded
// through the Worker, as the browser's y-partyserver provider does.

const REMOTE = Symbol("remote");

export type DocClient = Awaited<ReturnType<typeof openDoc>>;

export async function openDoc(timelineId: number, eventId: number, token: string, opts: { share?: string; doc?: Y.Doc } = {}) {
  const doc = opts.doc ?? new Y.Doc();
  /** Text frames received: none, the socket carries y-protocols frames only. */
  const textFrames: string[] = [];
  const meta = doc.getMap<unknown>(DocFields.meta);
  /** The server's answers to Save, as they arrived in `meta.reply`. */
  const replies: SaveReply[] = [];
  meta.observe((e) => {
    if (e.keysChanged.has(MetaKeys.reply)) replies.push(meta.get(MetaKeys.reply) as SaveReply);
  });
  const awareness = new awarenessProtocol.Awareness(new Y.Doc());
  const closed: { code?: number; reason?: string } = {};
  /** Update frames received from the doc (not sync answers), and caret (awareness) frames. */
  const frames = { updates: 0, carets: 0 };
  /** This writer's own caret, kept so each move is newer than the last (see `moveCaret`). */
  let caret: awarenessProtocol.Awareness | null = null;
  let ws: WebSocket | null = null;
  let synced = false;

  const send = (build: (e: encoding.Encoder) => void) => {
    if (!ws) return;
    const e = encoding.createEncoder();
    build(e);
    ws.send(encoding.toUint8Array(e));
  };
  doc.on("update", (update: Uint8Array, origin: unknown) => {
    if (origin === REMOTE) return;
    send((e) => {
      encoding.writeVarUint(e, 0);
      syncProtocol.writeUpdate(e, update);
    });
  });

  async function connect() {
    const res = await upgrade(`/ws/${timelineId}/events/${eventId}/doc${opts.share ? `?share=${opts.share}` : ""}`, token);
    if (res.status !== 101) throw new Error(`doc upgrade refused: ${res.status} ${await res.text()}`);
    const socket = res.webSocket!;
    // Binary frames as ArrayBuffers (a Blob would need an async read and could reorder messages).
    (socket as { binaryType?: string }).binaryType = "arraybuffer";
    socket.accept();
    synced = false;
    closed.code = undefined;
    closed.reason = undefined;
    socket.addEventListener("close", (e) => {
      closed.code = e.code;
      closed.reason = e.reason;
      if (ws === socket) ws = null;
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") {
        textFrames.push(event.data);
        return;
      }
      const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
      const type = decoding.readVarUint(decoder);
      if (type === 0) {
        const e = encoding.createEncoder();
        encoding.writeVarUint(e, 0);
        const kind = syncProtocol.readSyncMessage(decoder, e, doc, REMOTE);
        if (kind === syncProtocol.messageYjsSyncStep2) synced = true;
        if (kind === syncProtocol.messageYjsUpdate) frames.updates++;
        if (encoding.length(e) > 1) socket.send(encoding.toUint8Array(e));
      } else if (type === 1) {
        frames.carets++;
        awarenessProtocol.applyAwarenessUpdate(awareness, decoding.readVarUint8Array(decoder), REMOTE);
      }
    });
    ws = socket;
    send((e) => {
      encoding.writeVarUint(e, 0);
      syncProtocol.writeSyncStep1(e, doc);
    });
    await waitUntil(() => synced, "sync");
  }
  await connect();

  return {
    doc,
    textFrames,
    frames,
    replies,
    awareness,
    closed,
    title: () => doc.getText(DocFields.title).toString(),
    markdown: () => yDocToMarkdown(doc),
    /** Types into paragraph `index` (a top-level block) at `offset` (-1: at its end). */
    type(text: string, index = 0, offset = -1) {
      const block = doc.getXmlFragment(DocFields.content).get(index) as Y.XmlElement;
      let t = block.get(0) as Y.XmlText | undefined;
      if (!t) {
        t = new Y.XmlText();
        block.insert(0, [t]);
      }
      t.insert(offset < 0 ? t.length : Math.min(offset, t.length), text);
    },
    /** What D1 holds, as the server last said in `meta.saved`. */
    saved: () => meta.get(MetaKeys.saved) as SavedMeta | undefined,
    /** Why the server is not saving the text (`meta.problem`), or null. */
    problem: () => (meta.get(MetaKeys.problem) as string | null | undefined) ?? null,
    /** Save as the editor asks for it (`meta.save`), answered in `meta.reply`. */
    async save(): Promise<SaveReply> {
      const id = crypto.randomUUID();
      meta.set(MetaKeys.save, { id });
      return waitUntil(() => replies.find((r) => r.id === id), "the answer to Save", 8000);
    },
    /** Sends raw bytes over the socket (a hostile client). */
    sendRaw: (bytes: Uint8Array | string) => ws?.send(bytes),
    /** Sends an awareness state claiming `name`. */
    announce(name: string) {
      const local = new awarenessProtocol.Awareness(doc);
      local.setLocalState({ user: { name, color: "#aa0000" } });
      send((e) => {
        encoding.writeVarUint(e, 1);
        encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(local, [doc.clientID]));
      });
      local.destroy();
    },
    /** Moves this writer's caret to `position` (as an editor does on every keystroke): a newer awareness state each time. */
    moveCaret(position: number) {
      caret ??= new awarenessProtocol.Awareness(doc);
      caret.setLocalState({ user: { name: "Writer", color: "#00aa00" }, cursor: { anchor: position, head: position } });
      send((e) => {
        encoding.writeVarUint(e, 1);
        encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(caret!, [doc.clientID]));
      });
    },
    /** Drops the connection (the doc keeps what is typed meanwhile) … */
    goOffline() {
      const socket = ws;
      ws = null;
      socket?.close(1000, "offline");
    },
    /** … and comes back: the sync exchange merges both ways. */
    reconnect: connect,
    close() {
      ws?.close(1000, "done");
      ws = null;
      caret?.destroy();
    },
    waitForSaved: (pred: (saved: SavedMeta) => boolean, label = "meta.saved", timeout = 8000) =>
      waitUntil(
        () => {
          const saved = meta.get(MetaKeys.saved) as SavedMeta | undefined;
          return saved && pred(saved) ? saved : null;
        },
        label,
        timeout,
      ),
  };
}

export async function waitUntil<T>(
  pred: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  label: string,
  timeout = 5000,
): Promise<T> {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    const hit = await pred();
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${label}`);
}

/** An owner's timeline with one scene, shared with a writing collaborator (Mara). */
export async function setupSharedScene(content = "The storm breaks over the harbour.\n\nMara runs for the boats.") {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token);
  const event = await createEvent(owner.token, timeline.id, { title: "The storm", content });
  const collab = await registerUser({ name: "Mara" });
  await shareWith(timeline.id, owner.user.id, collab.user.id, "collaborator");
  return { owner, timeline, event, collab };
}

/** The scene's row as D1 has it. */
export const storedEvent = async (eventId: number) =>
  (await env.DB.prepare("SELECT title, content, version FROM events WHERE id = ?").bind(eventId).first()) as {
    title: string;
    content: string;
    version: number;
  };

/**
 * A comment's anchor (Yjs relative positions, base64) read back as the editor reads it (comment-anchors.ts
 * rangeOfAnchor): the scene's doc as its Durable Object keeps it, through y-tiptap's mapping to the ProseMirror
 * text. The words it covers and the text before them, or null when either end no longer resolves.
 */
export async function anchoredText(eventId: number, anchor: { from: string; to: string }) {
  const state = await env.EventDoc.get(env.EventDoc.idFromName(String(eventId))).readState();
  const ydoc = new Y.Doc();
  Y.applyUpdate(ydoc, state!);
  const fragment = ydoc.getXmlFragment(DocFields.content);
  const { doc, mapping } = initProseMirrorDoc(fragment, richTextSchema());
  const at = (text: string) =>
    relativePositionToAbsolutePosition(
      ydoc,
      fragment,
      Y.decodeRelativePosition(Uint8Array.from(atob(text), (c) => c.charCodeAt(0))),
      mapping,
    );
  const from = at(anchor.from);
  const to = at(anchor.to);
  if (from === null || to === null) return null;
  return { words: doc.textBetween(from, to, " "), before: doc.textBetween(0, from, " ") };
}
