import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

export const EMPTY_REFETCH_DELAY_MS = 500;

/**
 * reload the page's data when the window regains focus, and when the events
 * list came back empty, once more after 500 ms (a write may still have been landing).
 */
export function useFreshData(listIsEmpty: boolean, key: unknown = null) {
  const { revalidate, state } = useRevalidator();
  const retried = useRef<unknown>(Symbol("none"));

  useEffect(() => {
    const onFocus = () => {
      if (document.visibilityState === "visible") void revalidate();
    };
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [revalidate]);

  useEffect(() => {
    if (!listIsEmpty || retried.current === key || state !== "idle") return;
    retried.current = key;
    const timer = setTimeout(() => void revalidate(), EMPTY_REFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [listIsEmpty, key, revalidate, state]);
}
