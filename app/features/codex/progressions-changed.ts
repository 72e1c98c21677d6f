import { useEffect, useState } from "react";

// The room's word that the codex's progressions changed, as tasks-changed.ts is for tasks: the live hook says it, and
// what lists progressions listens (the entry dialog's section, the 'As of' dialog, the lanes and the map), each
// loaded on first use.

/** A window event: the room says progressions of the codex changed; open progression lists and 'As of' reads refetch. */
export const PROGRESSIONS_CHANGED = "storyweave:progressions-changed";

/** Bumped on every PROGRESSIONS_CHANGED: a list fetched with it as a dependency refetches. */
export function useProgressionsTick() {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((t) => t + 1);
    window.addEventListener(PROGRESSIONS_CHANGED, bump);
    return () => window.removeEventListener(PROGRESSIONS_CHANGED, bump);
  }, []);
  return tick;
}
