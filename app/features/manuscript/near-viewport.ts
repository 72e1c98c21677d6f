import { type RefObject, useEffect, useState } from "react";

// One observer for every scene of the manuscript (150 scenes, not 150 observers): a scene is near when it is within
// half a screen of the viewport, so its editor is ready before it scrolls into view.

let observer: IntersectionObserver | null = null;
const listeners = new Map<Element, (near: boolean) => void>();

function sharedObserver() {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: "50% 0px" },
  );
  return observer;
}

export function useNearViewport(ref: RefObject<Element | null>, enabled: boolean) {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!enabled || !el) return;
    listeners.set(el, setNear);
    sharedObserver().observe(el);
    return () => {
      observer?.unobserve(el);
      listeners.delete(el);
    };
  }, [ref, enabled]);
  return near;
}
