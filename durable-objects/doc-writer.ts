import type * as Y from "yjs";
import type { Db } from "../db/client";
import { LIVE_VERSION_COALESCE_MS } from "../db/domain/rules";
import { DocFields, MetaKeys, type SavedMeta } from "../db/domain/rich-text";
import { persistEventText } from "../worker/services/event-text";
import { versionStatements } from "../worker/services/version-record";
import { loadEventRow } from "./doc-d1";
import { type Author, storeDocState } from "./doc-storage";
import { Origins, applyText, checkText, writersClocks } from "./doc-text";

/** What D1 holds for the event, as this doc last wrote or read it. */
export type Persisted = { version: number; title: string; content: string };

/** What the writer needs of the doc's Durable Object. */
export type DocHost = {
  doc(): Y.Doc;
  eventId(): number;
  db(): Db;
  storage: DurableObjectStorage;
  isGone(): boolean;
  /** The event's row is gone: the doc forgets its text (and closes its writers' sockets when `close`). */
  forget(close: boolean): Promise<void>;
  setMeta(key: string, value: unknown): void;
  /** A sealed version landed: everyone is told ('X edited'). */
  tellEdited(who: Author, title: string): void;
};

/**
 * Keeps the shared doc, its stored state and D1 in step: what is valid of the doc's text reaches D1 through the one
 * writer of an event's text (persistEventText), autosaves fold into their author's version, Save and the last
 * writer leaving seal one, and the writers hear in `meta` what D1 holds or what keeps their text out of it.
 */
export class DocWriter {
  persisted: Persisted | null = null;
  /** Who typed since the last write to D1 (the newest last): the version's author. */
  editors = new Map<number, Author>();
  /** Why the doc's text is not all in D1 (an empty title, too long), as last told to the writers. */
  problem: string | null = null;
  /** The newest version is an autosave that a later autosave may still fold into. */
  private unsealed = false;
  private lastAuthor: Author | null = null;
  /** `meta.saved` as this doc last set it (what D1 holds), and the one its stored state holds. */
  private saved: SavedMeta | null = null;
  private storedSaved: SavedMeta | null = null;

  constructor(private host: DocHost) {}

  /** D1 may have moved on while nobody was here (a REST edit, a restore): its text is merged into the doc. */
  async refreshFromD1() {
    const row = await loadEventRow(this.host.db(), this.host.eventId());
    if (!row) return this.host.forget(false);
    if (this.persisted && row.version === this.persisted.version) return;
    applyText(this.host.doc(), row.title, row.content, Origins.d1);
    this.persisted = { version: row.version, title: row.title, content: row.content };
    await this.storeState();
  }

  async write({
    author,
    explicit,
    announce,
  }: {
    author?: Author;
    explicit?: boolean;
    announce?: boolean;
  }): Promise<Persisted | { error: string }> {
    if (this.host.isGone() || !this.persisted) return { error: "Event not found" };
    const doc = this.host.doc();
    // Only what is valid reaches D1 (each part on its own); the doc keeps everything (nothing typed is lost).
    // The writers' clocks are read with the text: what arrives while D1 is written is not in D1, so not saved.
    const { title, content, problem } = checkText(doc);
    const clocks = writersClocks(doc);
    const nextTitle = title ?? this.persisted.title;
    const nextContent = content ?? this.persisted.content;
    // Writers hear once what keeps their text out of D1 (the page shows it instead of 'All changes saved').
    if (problem !== this.problem) {
      this.problem = problem;
      this.host.setMeta(MetaKeys.problem, problem);
    }

    const who = author ?? [...this.editors.values()].at(-1) ?? this.lastAuthor ?? undefined;
    const typed = new Map(this.editors);
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
      // Who typed before the text was read is in D1 now; who typed during the write is still to be saved.
      for (const [id, by] of typed) if (this.editors.get(id) === by) this.editors.delete(id);
      this.lastAuthor = who;
      this.unsealed = !seal;
      // Save, REST and the last writer leaving tell everyone (cards refetch, 'X edited' notice); autosaves
      // do not: open cards already show the text through the room's live relay.
      if (seal) this.host.tellEdited(who, result.title);
    } else if (explicit && this.unsealed) {
      // Save with nothing new since an autosave: that version (this very text) is the Save's; no later autosave
      // folds into it. A copy would show the same text twice in History, or not, by whether the autosave came first.
      this.unsealed = false;
    } else if (announce && this.unsealed && this.lastAuthor) {
      // Nothing new since an autosave, whose version a later autosave could still fold into: the last writer
      // leaving keeps this text as a version of its own.
      const db = this.host.db();
      await db.batch(versionStatements(db, { eventId: this.host.eventId(), author: this.lastAuthor }));
      this.unsealed = false;
    }
    if (!problem) {
      // The writers' clocks D1 now holds, as `meta.saved` (set only when it changed, so it schedules no save).
      const saved: SavedMeta = { version: result.version, sv: clocks };
      this.saved = saved;
      const current = doc.getMap(DocFields.meta).get(MetaKeys.saved) as SavedMeta | undefined;
      if (current?.version !== saved.version || current.sv !== saved.sv) this.host.setMeta(MetaKeys.saved, saved);
    }
    // Stored again with the marker (a writer's copy of the doc never holds a server entry storage lacks for long),
    // and marked unsaved when text arrived during the write: D1 holds exactly the stored text, or the next load writes it.
    if (changed || this.storedSaved !== this.saved) await this.storeState();
    if (problem) return explicit ? { error: problem } : result;
    return result;
  }

  /**
   * The server's own entries in `meta` as it last wrote them: a writer's copy (carried back by a resync after a
   * restart, or forged) is replaced by these when it differs.
   */
  ownMeta(key: string): { value: unknown } | null {
    if (key === MetaKeys.problem) return { value: this.problem };
    if (key === MetaKeys.saved) return this.saved ? { value: this.saved } : null;
    return null;
  }

  /**
   * UPDATE guarded by the version this doc last saw, with its version record in the same batch. When the
   * row moved on without us (a restore or import while nobody was connected), its text is merged into the
   * doc first and the write is tried again.
   */
  private async writeD1(title: string, content: string, author: Author, coalesce: boolean): Promise<Persisted | null> {
    const db = this.host.db();
    const eventId = this.host.eventId();
    for (let attempt = 0; attempt < 3; attempt++) {
      const written = await persistEventText(db, {
        eventId,
        author,
        title,
        content,
        baseVersion: this.persisted!.version,
        coalesceWithinMs: coalesce ? LIVE_VERSION_COALESCE_MS : undefined,
      });
      if (written) {
        this.persisted = { version: written.version, title: written.title, content: written.content };
        return this.persisted;
      }
      const row = await loadEventRow(this.host.db(), eventId);
      if (!row) {
        await this.host.forget(true);
        return null;
      }
      this.persisted = { version: row.version, title: row.title, content: row.content };
      applyText(this.host.doc(), row.title, row.content, Origins.d1);
      const merged = checkText(this.host.doc());
      title = merged.title ?? row.title;
      content = merged.content ?? row.content;
      if (title === row.title && content === row.content) return this.persisted;
    }
    return this.persisted;
  }

  /**
   * The doc to storage, beside the D1 version it matches. When its text differs from what D1 holds (typed since the
   * last write, or while it was being written) it is marked unsaved by who typed last, so a restart writes it first.
   */
  async storeState(unsavedBy?: Author | null) {
    if (this.host.isGone() || !this.persisted) return;
    const doc = this.host.doc();
    let by = unsavedBy;
    if (by === undefined) {
      const { title, content } = checkText(doc);
      const { persisted } = this;
      const unsaved = (title ?? persisted.title) !== persisted.title || (content ?? persisted.content) !== persisted.content;
      by = unsaved ? ([...this.editors.values()].at(-1) ?? this.lastAuthor) : null;
    }
    const saved = this.saved;
    await storeDocState(this.host.storage, doc, this.persisted.version, by);
    this.storedSaved = saved;
  }
}
