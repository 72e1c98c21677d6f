import type { CSSProperties, SyntheticEvent } from "react";

/** What a row's sortable binding (timeline-dnd.tsx) hands it: the handle's listeners and the row's movement. */
export type Sortable = { handleProps: Record<string, unknown>; style: CSSProperties; dragging: boolean };

/** A real press on a handle that came before dnd-kit's listeners were on it (a keydown or a pointerdown). */
export type Press = { eventId: number; event: SyntheticEvent };

export type RowStore = ReturnType<typeof createRowStore>;

/** Rows register their nodes here and read their sortable state from here (one store per list). */
export function createRowStore() {
  const states = new Map<number, Sortable>();
  const listeners = new Map<number, Set<() => void>>();
  return {
    nodes: new Map<number, HTMLLIElement>(),
    handles: new Map<number, HTMLElement>(),
    press: null as Press | null,
    get: (id: number) => states.get(id),
    set(id: number, state: Sortable | undefined) {
      if (state) states.set(id, state);
      else states.delete(id);
      for (const notify of listeners.get(id) ?? []) notify();
    },
    subscribe(id: number, notify: () => void) {
      const set = listeners.get(id) ?? new Set();
      listeners.set(id, set);
      set.add(notify);
      return () => void set.delete(notify);
    },
  };
}
