import { client } from "~/lib/client";

// The bell's live count, loaded after hydration: the unread count is read again while the page is in view (every
// BELL_POLL_MS, and whenever the window is focused or shown again), so a mention arrives without navigating.

export const BELL_POLL_MS = 30_000;

/** Calls `set` with the unread count as it changes; returns the stop. */
export function watchUnread(set: (unread: number) => void) {
  let stopped = false;
  let busy = false;
  const check = async () => {
    if (stopped || busy || document.visibilityState !== "visible" || !navigator.onLine) return;
    busy = true;
    try {
      const res = await client.api.notifications.$get();
      if (!res.ok) return;
      const body = await res.json();
      if (!stopped && typeof body.unread === "number") set(body.unread);
    } catch {
      // Offline or the server busy: the bell keeps its count until the next look.
    } finally {
      busy = false;
    }
  };
  const onShown = () => void check();
  const timer = setInterval(onShown, BELL_POLL_MS);
  window.addEventListener("focus", onShown);
  document.addEventListener("visibilitychange", onShown);
  return () => {
    stopped = true;
    clearInterval(timer);
    window.removeEventListener("focus", onShown);
    document.removeEventListener("visibilitychange", onShown);
  };
}
