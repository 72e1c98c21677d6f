import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { useOffline } from "~/features/offline/use-offline";

export const EMPTY_REFETCH_DELAY_MS = 500;

/**
 * reload the page's data when the window regains focus, and when the events
 * list came back empty, once more after 500 ms (a write may still have been landing).
 * Never with no network: the page was read from the device, and its data request (which the service worker
 * never kept) would fail into the error screen; the look happens once the network is back.
 */
export function useFreshData(listIsEmpty: boolean, key: unknown = null) {
  const { revalidate, state } = useRevalidator();
  const retried = useRef<unknown>(Symbol("none"));
  const offline = useOffline();
  const offlineRef = useRef(offline);
  offlineRef.current = offline;

  useEffect(() => {
    const onFocus = () => {
      if (document.visibilityState === "visible" && !noNetwork(offlineRef.current)) void revalidate();
    };
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [revalidate]);

  useEffect(() => {
    if (!listIsEmpty || retried.current === key || state !== "idle" || offline) return;
    const timer = setTimeout(() => {
      // Asked again when it fires: the network may have gone meanwhile (the page reloaded offline says so late).
      if (noNetwork(offlineRef.current)) return;
      retried.current = key;
      void revalidate();
    }, EMPTY_REFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [listIsEmpty, key, revalidate, state, offline]);
}

/** The app's offline state, or the browser saying so before the app's own check has answered. */
const noNetwork = (offline: boolean) => offline || (typeof navigator !== "undefined" && !navigator.onLine);
