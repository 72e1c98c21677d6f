import { type RefObject, useEffect, useState } from "react";

type DndModule = typeof import("./timeline-dnd");

/**
 * Drag and drop loads for editors as soon as a pointer or the focus reaches the list (a handle is hovered or
 * focused before it is pressed), so a press normally lands on dnd-kit's own listeners. A press quicker than the
 * module is kept in the row store, and timeline-dnd.tsx gives that same event to the listeners once the row has
 * them (nothing is re-dispatched).
 */
let module: DndModule | null = null;
let loading: Promise<DndModule> | null = null;
const load = () =>
  (loading ??= import("./timeline-dnd").then((m) => {
    module = m;
    return m;
  }));

const triggers = ["pointerover", "focusin", "touchstart", "keydown"] as const;

export function useListDnd(listRef: RefObject<HTMLOListElement | null>, wanted: boolean) {
  const [loaded, setLoaded] = useState<DndModule | null>(module);
  useEffect(() => {
    if (!wanted || loaded) return;
    const list = listRef.current;
    if (!list) return;
    let cancelled = false;
    const start = () => {
      load().then((m) => {
        if (!cancelled) setLoaded(m);
      });
    };
    for (const t of triggers) list.addEventListener(t, start, { once: true, passive: true });
    return () => {
      cancelled = true;
      for (const t of triggers) list.removeEventListener(t, start);
    };
  }, [wanted, loaded, listRef]);
  return loaded;
}
