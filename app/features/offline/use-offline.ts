import { useSyncExternalStore } from "react";

/** Whether the server answers (a tiny file past every cache): a failure means this page is read from the device, and the
 * `online` event comes before requests get through. */
export async function reachable() {
  try {
    const res = await fetch(`/favicon.svg?online=${Date.now()}`, { method: "HEAD", cache: "no-store" });
    return res.ok;
  } catch {
    return false;
  }
}

// One watcher for the whole page, however many controls ask (each would otherwise poll the server on its own).
let offline = false;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
let checking = 0;

async function check() {
  clearTimeout(timer);
  const mine = ++checking;
  // Only a page the service worker serves can be read offline from the device: the server is asked only then.
  const served = navigator.serviceWorker?.controller != null;
  const now = !navigator.onLine || (served && !(await reachable()));
  if (mine !== checking || listeners.size === 0) return;
  if (now !== offline) {
    offline = now;
    for (const listener of listeners) listener();
  }
  if (now) timer = setTimeout(() => void check(), 5_000);
}

const onChange = () => void check();

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.addEventListener("online", onChange);
    window.addEventListener("offline", onChange);
    void check();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
    clearTimeout(timer);
    checking++;
  };
}

/**
 * Whether the app has no network: the browser says so (navigator.onLine false) or the server cannot be reached
 * (a browser may say online on a network that goes nowhere). Checked again every 5 s while offline and at each
 * 'online'/'offline' event. The server render (and the first render in the browser) says online.
 */
export function useOffline() {
  return useSyncExternalStore(
    subscribe,
    () => offline,
    () => false,
  );
}
