import { type RefObject, useEffect } from "react";

/** The CSS variable holding the height of a bar fixed to the window's foot (0 when none): toasts stand above it. */
export const BOTTOM_BAR_VAR = "--sw-bottom-bar";

/**
 * Keeps `--sw-bottom-bar` on the document at the measured height of the bar fixed to the window's foot (the
 * Manuscript's status line), so what floats at the foot on a phone (the toasts) stands above it, never over it.
 */
export function useBottomBar(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const set = () => root.style.setProperty(BOTTOM_BAR_VAR, `${Math.ceil(bar.getBoundingClientRect().height)}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty(BOTTOM_BAR_VAR);
    };
  }, [ref]);
}
