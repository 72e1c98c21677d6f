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
 * Whether the page has no network, what waits to be sent ('2 changes waiting': scenes with text typed here the server
 * has not confirmed, queued changes) and when the server last confirmed this browser's edits. `shown`: offline, or
 * something still waiting after the network came back, or a moment of 'All changes synced' once it is all sent.
 */
function useSyncStatus() {
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
  const shown = offline || synced || (waited.current && waiting > 0);
  return { offline, waiting, lastSync, shown };
}

// A screen that shows the status in its own header (the timeline's title row) mounts `SyncStatusText`: the app-wide
// strip then stays away, so the status is said once.
let inlineCount = 0;
const inlineListeners = new Set<() => void>();
const onInline = (listener: () => void) => {
  inlineListeners.add(listener);
  return () => inlineListeners.delete(listener);
};
const setInline = (delta: number) => {
  inlineCount += delta;
  for (const listener of inlineListeners) listener();
};

/** The words of the status: 'All changes synced' or 'N changes waiting', and offline when the server last confirmed. */
function StatusWords({ waiting, lastSync, offline }: { waiting: number; lastSync: number; offline: boolean }) {
  return (
    <>
      {waitingLabel(waiting)}
      {offline && lastSync > 0 ? <span className="text-stone-600"> · {lastSyncedLabel(lastSync)}</span> : null}
    </>
  );
}

/**
 * The status in a screen's own header, beside its connection badge (which says 'Offline' itself): 'N changes
 * waiting · Last synced 14:05' offline, 'All changes synced' a moment once back. In the page's flow, so it covers
 * nothing at any width.
 */
export function SyncStatusText() {
  const { offline, waiting, lastSync, shown } = useSyncStatus();
  useEffect(() => {
    setInline(1);
    return () => setInline(-1);
  }, []);
  return (
    <output aria-live="polite" data-testid="sync-status" className="text-sm text-stone-700 empty:hidden">
      {shown ? <StatusWords waiting={waiting} lastSync={lastSync} offline={offline} /> : null}
    </output>
  );
}

/**
 * The app's 'Offline' badge on screens without a status of their own (the timelines, the manuscript, the account),
 * with what waits to be sent and when the server last confirmed this browser's edits; back online, once what waited
 * is sent, 'All changes synced' shows a moment. A strip under the navigation, in the page's flow (a bar fixed at the
 * bottom covered the controls there on a phone).
 */
export function OfflineBadge() {
  const { offline, waiting, lastSync, shown } = useSyncStatus();
  if (!shown) return null;
  return <OfflineStrip offline={offline} waiting={waiting} lastSync={lastSync} />;
}

/**
 * The strip itself, where no header of the screen says the status. Whether one does is read only once there is a
 * status to say: the screen's header mounts with the page, and that change would re-render the badge at every load.
 */
function OfflineStrip({ offline, waiting, lastSync }: { offline: boolean; waiting: number; lastSync: number }) {
  const inline = useSyncExternalStore(
    onInline,
    () => inlineCount > 0,
    () => false,
  );
  if (inline) return null;
  return (
    <div data-testid="sync-status" className="mx-auto flex w-full max-w-7xl flex-wrap items-center gap-2 px-4 pt-3 text-sm">
      {offline ? (
        <output aria-live="polite" className="rounded-full bg-stone-800 px-3 py-1 font-medium text-white">
          Offline
        </output>
      ) : null}
      <output aria-live="polite" className="text-stone-700">
        <StatusWords waiting={waiting} lastSync={lastSync} offline={offline} />
      </output>
    </div>
  );
}
