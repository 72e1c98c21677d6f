import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { onSyncChange, syncSnapshot } from "~/lib/offline-docs";
import { useOffline } from "./use-offline";

const SHOW_SYNCED_MS = 8_000;

/** 'Last synced 14:05' today, 'Last synced 3 Nov, 14:05' before. */
function lastSyncedLabel(at: number) {
  const when = new Date(at);
  const today = when.toDateString() === new Date().toDateString();
  const format = new Intl.DateTimeFormat(undefined, today ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" });
  return `Last synced ${format.format(when)}`;
}

const waitingLabel = (n: number) => (n === 0 ? "All changes synced" : `${n.toLocaleString()} ${n === 1 ? "change" : "changes"} waiting`);

/**
 * The app shell's 'Offline' badge, shown while the page is read from this device, with what waits to be sent
 * ('2 changes waiting': scenes with text typed here the server has not confirmed) and when the server last
 * confirmed this browser's edits. Back online, once what waited is sent, 'All changes synced' shows a moment.
 */
export function OfflineBadge() {
  const offline = useOffline();
  const [waitingText, lastText] = useSyncExternalStore(onSyncChange, syncSnapshot, () => "0|0").split("|");
  const waiting = Number(waitingText);
  const lastSync = Number(lastText);
  // Something waited while offline: its sending is announced once it is all confirmed.
  const waited = useRef(false);
  const [synced, setSynced] = useState(false);
  useEffect(() => {
    if (offline && waiting > 0) waited.current = true;
    if (offline || waiting > 0 || !waited.current) return;
    waited.current = false;
    setSynced(true);
    const timer = setTimeout(() => setSynced(false), SHOW_SYNCED_MS);
    return () => clearTimeout(timer);
  }, [offline, waiting]);
  useEffect(() => {
    if (offline) setSynced(false);
  }, [offline]);

  if (!offline && !synced && !(waited.current && waiting > 0)) return null;
  return (
    <div className="fixed bottom-4 left-4 z-50 flex flex-wrap items-center gap-2 text-sm">
      {offline ? (
        <output aria-live="polite" className="rounded-full bg-stone-800 px-3 py-1 font-medium text-white shadow">
          Offline
        </output>
      ) : null}
      <output aria-live="polite" className="rounded-full bg-white px-3 py-1 text-stone-700 shadow ring-1 ring-stone-200">
        {waitingLabel(waiting)}
        {offline && lastSync > 0 ? <span className="text-stone-600"> · {lastSyncedLabel(lastSync)}</span> : null}
      </output>
    </div>
  );
}
