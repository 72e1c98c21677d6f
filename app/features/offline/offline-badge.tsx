import { useEffect, useState } from "react";

/** Asks the server for a tiny file past every cache: a failure means this page is read from the device. */
async function reachable() {
  try {
    const res = await fetch(`/favicon.svg?online=${Date.now()}`, { method: "HEAD", cache: "no-store" });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Whether the app has no network: the browser says so (navigator.onLine false) or the server cannot be reached
 * (a browser may say online on a network that goes nowhere). Checked again every 5 s while offline. The server
 * render always says online.
 */
export function useOffline() {
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      clearTimeout(timer);
      // Only a page the service worker serves can be read offline from the device: asked only then.
      const served = navigator.serviceWorker?.controller != null;
      const now = !navigator.onLine || (served && !(await reachable()));
      if (stopped) return;
      setOffline(now);
      if (now) timer = setTimeout(check, 5_000);
    };
    const onChange = () => void check();
    void check();
    window.addEventListener("online", onChange);
    window.addEventListener("offline", onChange);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", onChange);
      window.removeEventListener("offline", onChange);
    };
  }, []);
  return offline;
}

/** The app shell's 'Offline' badge: shown while the page is read from this device. */
export function OfflineBadge() {
  const offline = useOffline();
  if (!offline) return null;
  return (
    <output
      aria-live="polite"
      className="fixed bottom-4 left-4 z-50 rounded-full bg-stone-800 px-3 py-1 font-medium text-sm text-white shadow"
    >
      Offline
    </output>
  );
}
