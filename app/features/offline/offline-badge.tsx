import { useOffline } from "./use-offline";

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
