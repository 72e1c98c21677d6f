import { useSyncExternalStore } from "react";

// Which chapters this browser has collapsed on a timeline: the screen's view state, kept in localStorage.

const collapsedKey = (timelineId: number) => `storyweave:collapsed-chapters:${timelineId}`;
const held = new Map<number, ReadonlySet<number>>();
const listeners = new Set<() => void>();
const NONE: ReadonlySet<number> = new Set();

function read(timelineId: number): ReadonlySet<number> {
  let set = held.get(timelineId);
  if (set) return set;
  try {
    const saved = JSON.parse(window.localStorage.getItem(collapsedKey(timelineId)) ?? "[]");
    set = new Set(Array.isArray(saved) ? saved.filter((x): x is number => typeof x === "number") : []);
  } catch {
    set = new Set();
  }
  held.set(timelineId, set);
  return set;
}

export function toggleCollapsed(timelineId: number, chapterId: number) {
  const collapsed = new Set(read(timelineId));
  if (!collapsed.delete(chapterId)) collapsed.add(chapterId);
  try {
    window.localStorage.setItem(collapsedKey(timelineId), JSON.stringify([...collapsed]));
  } catch {
    // Private mode: collapsed for this visit only.
  }
  held.set(timelineId, collapsed);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The chapters collapsed on this timeline (none in the server's render). */
export function useCollapsedChapters(timelineId: number) {
  return useSyncExternalStore(
    subscribe,
    () => read(timelineId),
    () => NONE,
  );
}
