// What the shared doc lets through from a writer's socket: updates checked on a shadow copy first (known parts,
// schema-valid content, under the size cap), at most MAX_DOC_UPDATES_PER_SECOND, and carets bound to their socket.
import type { Connection } from "partyserver";
import * as Y from "yjs";
import { type ContentBlock, DocFields, MetaKeys, checkBlocks, isSaveRequest } from "../db/domain/rich-text";
import { suggestionAuthor, suggestionId } from "../db/domain/suggestions";
import { CloseCodes } from "./close-codes";
import { DocCloseReasons, MAX_DOC_STATE_BYTES, MAX_DOC_UPDATES_PER_SECOND } from "./doc-limits";
import { readAwareness, writeAwareness } from "./doc-frames";

export type Refusal = keyof typeof DocCloseReasons;
/** `foreign`: new suggestion marks whose id names someone other than the writer who sent them. */
type Verdict = { refused: Refusal } | { save: string | null; serverKeys: string[]; foreign: Y.ID[] };
/** Who sent an update: the authenticated writer of its socket. */
export type Sender = { userId: number; name: string };

const isBase64 = (v: unknown, max: number): v is string => typeof v === "string" && v.length <= max && /^[A-Za-z0-9+/]*={0,2}$/.test(v);
/**
 * Entries of `meta` the server writes that a writer may carry back: a writer's copy of the doc holds what the server
 * wrote before a restart, which the restarted server's stored doc may lack. Accepted when well-formed (what the
 * server could have written), and then replaced by the server's own (`EventDoc.reassert`), so a forged one lasts no
 * longer than the update that brought it. The doc's identity (`epoch`) is never a writer's to change.
 */
const SERVER_ENTRIES: Record<string, (value: unknown) => boolean> = {
  [MetaKeys.saved]: (v) => {
    const s = v as { version?: unknown; sv?: unknown } | null;
    return typeof s === "object" && s !== null && Object.keys(s).length === 2 && Number.isSafeInteger(s.version) && isBase64(s.sv, 65_536);
  },
  [MetaKeys.problem]: (v) => v === null || (typeof v === "string" && v.length <= 500),
  [MetaKeys.reply]: (v) => {
    const r = v as { id?: unknown; version?: unknown; error?: unknown } | null;
    if (typeof r !== "object" || r === null || Object.keys(r).length !== 2 || !isSaveRequest({ id: r.id })) return false;
    return "version" in r ? Number.isSafeInteger(r.version) : typeof r.error === "string" && r.error.length <= 500;
  },
};

const KNOWN_ROOTS = new Set<string>(Object.values(DocFields));
/** Caret entries one connection may introduce (a browser's editor has one), and the size of each. */
const MAX_CARETS_PER_CONNECTION = 4;
const MAX_CARET_STATE_CHARS = 4096;

/** Closes a writer's socket over an update the doc did not apply, with the reason the editor shows. */
export function refuse(connection: Connection, why: Refusal) {
  connection.close(why === "tooLarge" ? CloseCodes.docTooLarge : CloseCodes.docRefused, DocCloseReasons[why]);
}

/** One per doc: `document` is the real doc the checked updates go to. */
export class DocGate {
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

  constructor(private readonly document: () => Y.Doc) {}

  /** Every update of the real doc (from the doc's "update" event): the shadow and the size bound follow it. */
  observe(update: Uint8Array) {
    this.sizeBound += update.byteLength;
    if (!this.inShadow && this.shadow) Y.applyUpdate(this.shadow, update);
  }

  /** A checked update into the real doc (it is already in the shadow). */
  apply(update: Uint8Array, origin: unknown) {
    this.inShadow = true;
    try {
      Y.applyUpdate(this.document(), update, origin);
    } finally {
      this.inShadow = false;
    }
  }

  /** The connection closed: its rate and its carets go. */
  forget(connectionId: string) {
    this.arrivals.delete(connectionId);
    for (const [clientId, owner] of this.caretOwners) if (owner === connectionId) this.caretOwners.delete(clientId);
  }

  /** More than MAX_DOC_UPDATES_PER_SECOND of this kind within the last second. */
  tooFast(connection: Connection, kind: "updates" | "carets") {
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
      const state = Y.encodeStateAsUpdate(this.document());
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
  check(update: Uint8Array, sender: Sender): Verdict {
    const shadow = this.shadowDoc();
    // The update's transaction, and any the doc runs after it (Yjs cleans up formatting in one of its own).
    const changes: Y.Transaction[] = [];
    const grab = (tr: Y.Transaction) => {
      changes.push(tr);
    };
    shadow.on("afterTransaction", grab);
    let verdict: Verdict;
    const roots = new Set(shadow.share.keys());
    try {
      Y.applyUpdate(shadow, update);
      verdict = inspectChange(shadow, changes, this.checkedBlocks, roots, sender);
      if (!("refused" in verdict) && this.sizeBound + update.byteLength > MAX_DOC_STATE_BYTES) {
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
  ownCarets(connection: Connection, update: Uint8Array, name: string): Uint8Array | "invalid" | null {
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
}

/** What a writer's update changed in the shadow, when all of it is allowed (see `DocGate.check`). */
function inspectChange(
  shadow: Y.Doc,
  changes: Y.Transaction[],
  checked: WeakSet<ContentBlock>,
  rootsBefore: Set<string>,
  sender: Sender,
): Verdict {
  for (const name of shadow.share.keys()) if (!KNOWN_ROOTS.has(name) && !rootsBefore.has(name)) return { refused: "invalid" };
  if (changes.length === 0) return { save: null, serverKeys: [], foreign: [] };
  const title = shadow.getText(DocFields.title);
  const content = shadow.getXmlFragment(DocFields.content);
  const meta = shadow.getMap<unknown>(DocFields.meta);
  const touched = new Set<unknown>();
  const blocks = new Set<unknown>();
  let save: string | null = null;
  const serverKeys: string[] = [];
  for (const [type, keys] of changes.flatMap((tr) => [...tr.changed])) {
    let root: unknown = type;
    for (let t: Y.AbstractType<any> | null = type; t; t = t.parent) root = t;
    if (root === meta) {
      // A writer sets only its Save request, as plain JSON, or brings back a copy of a server entry.
      if ((type as unknown) !== meta) return { refused: "invalid" };
      for (const key of keys) {
        const value = meta.get(key ?? "");
        if (key === MetaKeys.save && isSaveRequest(value)) save = value.id;
        else if (key && SERVER_ENTRIES[key]?.(value)) serverKeys.push(key);
        else return { refused: "invalid" };
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
  // Characters typed into text a checked block already had keep it valid and carry no suggestion marks: a long
  // paragraph is not copied and checked again per keystroke (100 writers typing in one were 500 copies a second).
  const plain = touched.has(content) && plainTyping(changes);
  if (touched.has(content)) {
    // Blocks this update touched or added (new ones are not yet among the checked).
    const toCheck = content.toArray().filter((b) => !checked.has(b) || (blocks.has(b) && !plain));
    checkBlocks(toCheck);
    for (const b of toCheck) checked.add(b);
  }
  const foreign = touched.has(content) && !plain ? foreignSuggestions(changes, sender) : [];
  if (foreign === "malformed") return { refused: "invalid" };
  return { save, serverKeys, foreign };
}

/**
 * Whether the change only typed plain characters (string items, no formatting, nothing deleted) into text nodes that
 * already held text before it: such text is valid wherever it was valid before.
 */
function plainTyping(changes: Y.Transaction[]) {
  const before = changes[0].beforeState;
  const isOld = (id: Y.ID) => id.clock < (before.get(id.client) ?? 0);
  const hadText = new Set<Y.XmlText>();
  for (const tr of changes) {
    if (tr.deleteSet.clients.size > 0) return false;
    for (const [client, after] of tr.afterState) {
      const from = tr.beforeState.get(client) ?? 0;
      if (after <= from) continue;
      const structs = tr.doc.store.clients.get(client);
      if (!structs) return false;
      for (let i = Y.findIndexSS(structs, from); i < structs.length && structs[i].id.clock < after; i++) {
        const item = structs[i];
        if (!(item instanceof Y.Item) || !(item.content instanceof Y.ContentString) || !(item.parent instanceof Y.XmlText)) return false;
        const text = item.parent;
        if (hadText.has(text)) continue;
        if (!text._item || !isOld(text._item.id)) return false;
        // Text it held before this change (an empty text node may sit where no text is allowed).
        let found = false;
        for (let at = text._start; at && !found; at = at.right)
          found = !at.deleted && at.content instanceof Y.ContentString && isOld(at.id);
        if (!found) return false;
        hadText.add(text);
      }
    }
  }
  return true;
}

/** A suggestion mark's key in the shared doc (a mark that may overlap itself gets a `--hash` suffix). */
const SUGGESTION_KEY = /^(insertion|deletion|modification)(--.*)?$/;

/**
 * A suggestion mark's value: `own` when its id names `sender` as they are named, `foreign` when it names anyone
 * else, `malformed` when it is no suggestion id at all (the editor never writes one).
 */
const suggestionBy = (value: unknown, sender: Sender): "own" | "foreign" | "malformed" => {
  const id = (value as { id?: unknown } | null)?.id;
  if (typeof value !== "object" || Array.isArray(value) || typeof id !== "string") return "malformed";
  const author = suggestionAuthor(id);
  if (author.userId === null || author.at === null) return "malformed";
  return author.userId === sender.userId && author.name === (sender.name.slice(0, 60) || "Someone") ? "own" : "foreign";
};

/**
 * The suggestion marks a writer's change added that name someone else: a mark's id says who suggested it ('Suggested
 * by Olive Owner'), and a writer could write any id. A mark that is no suggestion id at all refuses the update. Such marks are applied and then put in the writer's own name
 * (`attributeSuggestions`), rather than refused: a resync after a restart may bring back another writer's marks the
 * stored doc lost, and refusing it would lock that writer out.
 */
function foreignSuggestions(changes: Y.Transaction[], sender: Sender): Y.ID[] | "malformed" {
  const before = changes[0].beforeState;
  const isNew = (item: Y.Item) => item.id.clock >= (before.get(item.id.client) ?? 0);
  const found: Y.ID[] = [];
  let malformed = false;
  // Types made in this change are not among `changed`: they are reached through their parents.
  const scan = (type: Y.AbstractType<any>) => {
    for (let item = type._start; item; item = item.right) {
      if (item.deleted || !isNew(item)) continue;
      const content = item.content;
      if (content instanceof Y.ContentType) scan(content.type);
      else if (content instanceof Y.ContentFormat && SUGGESTION_KEY.test(content.key) && content.value !== null) {
        const by = suggestionBy(content.value, sender);
        if (by === "malformed") malformed = true;
        else if (by === "foreign") found.push(item.id);
      }
    }
  };
  for (const tr of changes) for (const type of tr.changed.keys()) scan(type);
  return malformed ? "malformed" : found;
}

/**
 * Puts suggestion marks (by their format items' ids, from `DocGate.check`) in the sender's name: the same time and
 * random part, so the parts of one suggestion stay one, with the sender's id and name. `origin` marks the change
 * as the server's.
 */
export function attributeSuggestions(doc: Y.Doc, ids: Y.ID[], sender: Sender, origin: unknown) {
  const renamed = new Map<string, string>();
  const own = (id: unknown) => {
    const key = typeof id === "string" ? id : JSON.stringify(id ?? null);
    let next = renamed.get(key);
    if (!next) {
      const parts = typeof id === "string" ? id.split(":") : [];
      const at = Number(parts[2]);
      const random = /^[a-z0-9]{1,12}$/.test(parts[3] ?? "") ? parts[3] : null;
      next =
        parts[0] === "s" && Number.isSafeInteger(at) && at > 0 && random
          ? `s:${sender.userId}:${at}:${random}:${sender.name.slice(0, 60)}`
          : suggestionId(sender.userId, sender.name);
      renamed.set(key, next);
    }
    return next;
  };
  doc.transact(() => {
    for (const id of ids) {
      let start: Y.Item;
      try {
        start = Y.getItem(doc.store, id) as Y.Item;
      } catch {
        continue;
      }
      const text = start.parent;
      if (start.deleted || !(start.content instanceof Y.ContentFormat) || !(text instanceof Y.XmlText)) continue;
      const { key, value } = start.content;
      let index = 0;
      for (let n = text._start; n && n !== start; n = n.right) if (!n.deleted && n.countable) index += n.length;
      let length = 0;
      for (let n = start.right; n; n = n.right) {
        if (n.content instanceof Y.ContentFormat && n.content.key === key && !n.deleted) break;
        if (!n.deleted && n.countable) length += n.length;
      }
      const attrs = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
      if (length > 0) text.format(index, length, { [key]: { ...attrs, id: own((value as { id?: unknown } | null)?.id) } });
    }
  }, origin);
}

/** How often held updates are applied (merged into one) while a writer is over the rate. */
export const PACING_MS = 250;
/** Held updates past these a writer is closed with 'Too many changes at once' (the editor reconnects and resyncs). */
const MAX_HELD_UPDATES = 2000;
const MAX_HELD_BYTES = 1024 * 1024;

/**
 * A writer typing or pasting faster than MAX_DOC_UPDATES_PER_SECOND is slowed down, never dropped: from the update
 * past the rate on, their updates are held in order and applied every PACING_MS merged into one (one check, one
 * change for everyone), until none are left. Only a flood past MAX_HELD_UPDATES / MAX_HELD_BYTES closes the socket.
 */
export class Pacing {
  private held = new Map<string, { connection: Connection; updates: Uint8Array[]; bytes: number; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly apply: (connection: Connection, update: Uint8Array) => void) {}

  /** True when the update is held (or the writer closed for flooding); false when it is to be applied now. */
  hold(connection: Connection, update: Uint8Array, tooFast: () => boolean): boolean {
    const queue = this.held.get(connection.id);
    if (queue) {
      queue.updates.push(update);
      queue.bytes += update.byteLength;
      if (queue.updates.length > MAX_HELD_UPDATES || queue.bytes > MAX_HELD_BYTES) {
        this.forget(connection.id);
        refuse(connection, "tooFast");
      }
      return true;
    }
    if (!tooFast()) return false;
    const timer = setTimeout(() => this.release(connection.id), PACING_MS);
    this.held.set(connection.id, { connection, updates: [update], bytes: update.byteLength, timer });
    return true;
  }

  private release(connectionId: string) {
    const queue = this.held.get(connectionId);
    if (!queue) return;
    this.held.delete(connectionId);
    let merged: Uint8Array;
    try {
      merged = queue.updates.length === 1 ? queue.updates[0] : Y.mergeUpdates(queue.updates);
    } catch {
      return refuse(queue.connection, "invalid");
    }
    this.apply(queue.connection, merged);
  }

  forget(connectionId: string) {
    const queue = this.held.get(connectionId);
    if (queue) clearTimeout(queue.timer);
    this.held.delete(connectionId);
  }
}
