import { useSyncExternalStore } from "react";
import { errorMessage, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import { type ApiContext, type ChapterView, queryOf } from "./chapters-api";

type State = { chapters: ChapterView[]; loaded: boolean; collapsed: ReadonlySet<number> };

const byPosition = (list: ChapterView[]) => [...list].sort((a, b) => a.position - b.position || a.id - b.id);
const collapsedKey = (timelineId: number) => `storyweave:collapsed-chapters:${timelineId}`;

function readCollapsed(timelineId: number): Set<number> {
  try {
    const saved = JSON.parse(window.localStorage.getItem(collapsedKey(timelineId)) ?? "[]");
    return new Set(Array.isArray(saved) ? saved.filter((x): x is number => typeof x === "number") : []);
  } catch {
    return new Set();
  }
}

/**
 * The chapters of one timeline screen, beside the events' store: the server's list with our own changes shown
 * at once (a failed one is undone by the next load), and which chapters this browser has collapsed.
 */
export class ChaptersStore {
  private state: State;
  private listeners = new Set<() => void>();
  private loadSeq = 0;
  /** After a change to the chapters, what else must reload (the events: a chapter move moves its scenes). */
  onChanged: () => void = () => {};

  constructor(
    readonly timelineId: number,
    private readonly api: ApiContext,
  ) {
    this.state = { chapters: [], loaded: false, collapsed: readCollapsed(timelineId) };
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  get = () => this.state;

  private set(next: Partial<State>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  async load() {
    const seq = ++this.loadSeq;
    try {
      const data = await unwrap(this.api.client.api.timelines[":id"].chapters.$get({ param: this.param, query: queryOf(this.api) }));
      if (seq === this.loadSeq) this.set({ chapters: byPosition(data), loaded: true });
    } catch {
      if (seq === this.loadSeq) this.set({ loaded: true });
    }
  }

  /** A write: shown at once by `local`, then the server's lists (chapters and events) are read again. */
  private async write(local: ChapterView[] | null, run: () => Promise<unknown>, success?: string): Promise<boolean> {
    if (local) this.set({ chapters: byPosition(local) });
    try {
      await run();
      if (success) showToast({ title: "Success", description: success });
      return true;
    } catch (error) {
      errorToast(errorMessage(error, "Failed to update chapter"));
      return false;
    } finally {
      await this.load();
      this.onChanged();
    }
  }

  private get param() {
    return { id: String(this.timelineId) };
  }

  private patch(id: number, json: { title?: string; targetWords?: number | null; position?: number }) {
    return unwrap(this.api.client.api.chapters[":id"].$patch({ param: { id: String(id) }, query: queryOf(this.api), json }));
  }

  create(title: string) {
    return this.write(
      null,
      () =>
        unwrap(
          this.api.client.api.timelines[":id"].chapters.$post({
            param: this.param,
            query: queryOf(this.api),
            json: { title: title.trim() },
          }),
        ),
      "Chapter added",
    );
  }

  update(id: number, changes: { title?: string; targetWords?: number | null }) {
    const local = this.state.chapters.map((c) => (c.id === id ? { ...c, ...changes } : c));
    return this.write(local, () => this.patch(id, changes));
  }

  /** One place up (-1) or down (+1) in the book; its scenes follow it. */
  move(id: number, step: number) {
    const list = this.state.chapters;
    const from = list.findIndex((c) => c.id === id);
    const to = from + step;
    if (from < 0 || to < 0 || to >= list.length) return Promise.resolve(false);
    return this.moveTo(id, to);
  }

  moveTo(id: number, to: number) {
    const list = [...this.state.chapters];
    const from = list.findIndex((c) => c.id === id);
    if (from < 0 || from === to) return Promise.resolve(false);
    list.splice(to, 0, ...list.splice(from, 1));
    const local = list.map((c, position) => ({ ...c, position }));
    return this.write(local, () => this.patch(id, { position: to }));
  }

  remove(id: number) {
    const local = this.state.chapters.filter((c) => c.id !== id);
    return this.write(
      local,
      () => unwrap(this.api.client.api.chapters[":id"].$delete({ param: { id: String(id) }, query: queryOf(this.api) })),
      "Chapter deleted",
    );
  }

  toggle(id: number) {
    const collapsed = new Set(this.state.collapsed);
    if (!collapsed.delete(id)) collapsed.add(id);
    try {
      window.localStorage.setItem(collapsedKey(this.timelineId), JSON.stringify([...collapsed]));
    } catch {
      // Private mode: collapsed for this visit only.
    }
    this.set({ collapsed });
  }
}

export const useChapters = (store: ChaptersStore) => useSyncExternalStore(store.subscribe, store.get, store.get);
