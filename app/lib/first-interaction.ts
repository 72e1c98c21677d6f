// Issue 11: code the first screen can show without (as server-rendered HTML) loads with the first sign of a
// person using the page: a scroll, wheel, touch, press, key, focus or pointer move. On the server it is at once.

const EVENTS = ["scroll", "wheel", "touchstart", "pointerdown", "pointermove", "keydown", "focusin"] as const;
let first: Promise<void> | undefined;
let resolveFirst: (() => void) | undefined;

export function firstInteraction(): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  first ??= new Promise<void>((resolve) => {
    const done = () => {
      for (const name of EVENTS) window.removeEventListener(name, done, { capture: true });
      resolve();
    };
    resolveFirst = done;
    for (const name of EVENTS) window.addEventListener(name, done, { capture: true, passive: true });
  });
  return first;
}

/** Stop waiting: what waits for the first interaction loads now. */
export function interactionNow() {
  void firstInteraction();
  resolveFirst?.();
}
