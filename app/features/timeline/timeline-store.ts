import type { EventPage, EventView } from "../../../worker/services/events";

/**
 * The events of one timeline screen: the last list the server gave, and the local writes on top of it.
 * Every change to what the screen shows goes through `reduceEvents`; `mergeEvents` is the one place where
 * a server list meets the writes still pending.
 *
 * Time is a counter the screen keeps (its write clock): it ticks when a write starts and when one lands.
 * A server list is stamped with the clock at the moment it was asked for (`asOf`): a write that landed at
 * or before that moment is in the list; one that landed after it (or is still in flight) is not, so it is
 * applied on top.
 */

/** What a local write changes in the list until the server's list has it. */
export type LocalChange =
  /** The server's answer to a save, a restore or a link: the event as it is now. */
  | { kind: "event"; event: EventView }
  /** A scene added from the outbox (made offline), as the server made it: at the end until a list has it. */
  | { kind: "create"; event: EventView }
  /** Moved to index `to` of the list in story order (a drag and drop). */
  | { kind: "move"; eventId: number; to: number }
  | { kind: "delete"; eventId: number };

export type PendingWrite = {
  id: number;
  change: LocalChange;
  /** The clock when the write landed; null while it is in flight. */
  landed: number | null;
};

export type EventsState = {
  /** What the screen shows, in story order. */
  events: EventView[];
  /** Every event of the timeline is here (not only the first screenful). */
  complete: boolean;
  /** The server's latest list, with the live patches (room typing, an editor's text) applied. */
  server: EventView[];
  /** The clock of the server's latest list. */
  asOf: number;
  pending: PendingWrite[];
  /** A drag in progress: the list under the pointer keeps its order and items until the drop. */
  dragging: boolean;
};

export type EventsAction =
  /** The whole list from the server, asked for when the clock read `asOf`. */
  | { type: "server"; list: EventView[]; asOf: number }
  /** A write started (with its change shown at once when it has one: a move). */
  | { type: "write"; id: number; change?: LocalChange }
  /** A write landed at clock `at`; `change` is what the server answered (or the write's own change). */
  | { type: "landed"; id: number; at: number; change?: LocalChange }
  /** A write failed: its change is undone. */
  | { type: "failed"; id: number }
  /** Live text or fields for one event (room typing, the co-editor's text, attachments): the next server list decides. */
  | { type: "patch"; eventId: number; fields: Partial<EventView> | ((event: EventView) => Partial<EventView>) }
  | { type: "drag"; active: boolean };

export const byPosition = (list: EventView[]) => [...list].sort((a, b) => a.position - b.position || a.id - b.id);

export function arrayMove<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** `next`, with each event equal to the one `current` has kept as that object (`current` itself if nothing changed). */
export function keepUnchanged(current: EventView[], next: EventView[]): EventView[] {
  const held = new Map(current.map((e) => [e.id, e]));
  let same = current.length === next.length;
  const merged = next.map((e, i) => {
    const old = held.get(e.id);
    const kept = old !== undefined && (old === e || JSON.stringify(old) === JSON.stringify(e)) ? old : e;
    if (kept !== current[i]) same = false;
    return kept;
  });
  return same ? current : merged;
}

function applyChange(list: EventView[], change: LocalChange): EventView[] {
  switch (change.kind) {
    case "event":
      return list.map((e) => (e.id === change.event.id ? change.event : e));
    case "create":
      return list.some((e) => e.id === change.event.id) ? list : [...list, change.event];
    case "delete":
      return list.filter((e) => e.id !== change.eventId);
    case "move": {
      const from = list.findIndex((e) => e.id === change.eventId);
      if (from < 0) return list;
      const to = Math.min(change.to, list.length - 1);
      return arrayMove(list, from, to).map((e, i) => (e.position === i ? e : { ...e, position: i }));
    }
  }
}

/** The list to show: the server's list in story order, then every pending write's change in the order they were made. */
export function mergeEvents(server: EventView[], pending: PendingWrite[]): EventView[] {
  return pending.reduce((list, write) => applyChange(list, write.change), byPosition(server));
}

export function initEvents(page: EventPage): EventsState {
  return {
    events: page.events,
    complete: page.events.length === page.all,
    server: page.events,
    asOf: 0,
    pending: [],
    dragging: false,
  };
}

function shown(state: EventsState): EventsState {
  if (state.dragging) return state;
  return { ...state, events: keepUnchanged(state.events, mergeEvents(state.server, state.pending)) };
}

export function reduceEvents(state: EventsState, action: EventsAction): EventsState {
  switch (action.type) {
    case "server": {
      // An answer to an older question than the list already held says nothing new.
      if (action.asOf < state.asOf) return state;
      // Writes the list already has are done; those that landed later (or are in flight) stay on top.
      const pending = state.pending.filter((w) => w.landed === null || w.landed > action.asOf);
      return shown({ ...state, server: action.list, asOf: action.asOf, pending, complete: true });
    }
    case "write":
      if (!action.change) return state;
      return shown({ ...state, pending: [...state.pending, { id: action.id, change: action.change, landed: null }] });
    case "landed": {
      const held = state.pending.find((w) => w.id === action.id);
      const change = action.change ?? held?.change;
      if (!change) return state;
      const write = { id: action.id, change, landed: action.at };
      const pending = held ? state.pending.map((w) => (w.id === action.id ? write : w)) : [...state.pending, write];
      return shown({ ...state, pending });
    }
    case "failed":
      if (!state.pending.some((w) => w.id === action.id)) return state;
      return shown({ ...state, pending: state.pending.filter((w) => w.id !== action.id) });
    case "patch": {
      const { fields } = action;
      const patched = (e: EventView): EventView => ({ ...e, ...(typeof fields === "function" ? fields(e) : fields) });
      const patch = (list: EventView[]) => list.map((e) => (e.id === action.eventId ? patched(e) : e));
      const onWrite = (w: PendingWrite): PendingWrite =>
        w.change.kind === "event" && w.change.event.id === action.eventId
          ? { ...w, change: { kind: "event", event: patched(w.change.event) } }
          : w;
      // Shown at once, even mid-drag (text changes nothing under the pointer).
      return { ...state, server: patch(state.server), events: patch(state.events), pending: state.pending.map(onWrite) };
    }
    case "drag":
      if (state.dragging === action.active) return state;
      return shown({ ...state, dragging: action.active });
  }
}
