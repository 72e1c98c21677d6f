// Which events this browser holds unsaved co-writing edits for: a small marker per event, so a
// reload of the timeline can send them without opening their editors. No Yjs here (kept out of the page's JS).

/** Where the editor keeps an event's doc in this browser (IndexedDB, y-indexeddb). */
const DOC_PREFIX = "storyweave-doc-";
const PENDING_PREFIX = "storyweave-doc-pending-";
export const localDocName = (eventId: number) => `${DOC_PREFIX}${eventId}`;
const pendingKey = (eventId: number) => `${PENDING_PREFIX}${eventId}`;

/** When the server last confirmed it holds every edit of a scene typed here (ms since 1970). */
const LAST_SYNC = "storyweave-last-sync";
/** Fired on this page when a marker changes (other tabs hear the 'storage' event). */
const PENDING_CHANGED = "storyweave-pending-changed";

export function markPending(eventId: number, pending: boolean) {
  try {
    if (pending) localStorage.setItem(pendingKey(eventId), String(Date.now()));
    else {
      localStorage.removeItem(pendingKey(eventId));
      localStorage.setItem(LAST_SYNC, String(Date.now()));
    }
  } catch {
    // Storage unavailable (private mode): the editor still merges the copy when it is opened again.
  }
  if (typeof window !== "undefined") window.dispatchEvent(new Event(PENDING_CHANGED));
}

/** Changes queued in the client data layer's outbox (app/features/offline/outbox.ts), counted with the scenes. */
let outboxWaiting = 0;

export function setOutboxWaiting(n: number) {
  if (n === outboxWaiting) return;
  outboxWaiting = n;
  if (typeof window !== "undefined") window.dispatchEvent(new Event(PENDING_CHANGED));
}

/** The server confirmed every queued change: the time of the last sync. */
export function markSynced() {
  try {
    localStorage.setItem(LAST_SYNC, String(Date.now()));
  } catch {
    // Storage unavailable: no time to show.
  }
  if (typeof window !== "undefined") window.dispatchEvent(new Event(PENDING_CHANGED));
}

/**
 * What waits to be sent from this browser, as one string (a stable snapshot for useSyncExternalStore):
 * 'waiting|lastSync', the scenes with unconfirmed edits and the outbox's changes, and the time of the last
 * confirmation (0: none).
 */
export function syncSnapshot() {
  try {
    let waiting = outboxWaiting;
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith(PENDING_PREFIX)) waiting++;
    return `${waiting}|${Number(localStorage.getItem(LAST_SYNC)) || 0}`;
  } catch {
    return `${outboxWaiting}|0`;
  }
}

/** Calls `listener` whenever the markers change, in this tab or another. */
export function onSyncChange(listener: () => void) {
  window.addEventListener(PENDING_CHANGED, listener);
  window.addEventListener("storage", listener);
  return () => {
    window.removeEventListener(PENDING_CHANGED, listener);
    window.removeEventListener("storage", listener);
  };
}

/** The events among `eventIds` with edits typed here that the server has not confirmed. */
export function pendingDocs(eventIds: number[]): number[] {
  try {
    return eventIds.filter((id) => localStorage.getItem(pendingKey(id)) !== null);
  } catch {
    return [];
  }
}

/**
 * Resolves once the delete is done, refused or waiting: a copy whose editor is still open is deleted by the
 * browser when that editor closes (its connection ends), so the writer can still copy their text meanwhile.
 */
function deleteDatabase(name: string) {
  return new Promise<void>((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}

/** Which scenes of a timeline have a copy in this browser (their ids), so an ended access can delete them all. */
const TIMELINE_DOCS_PREFIX = "storyweave-timeline-docs-";

export function localDocsOf(timelineId: number): number[] {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(`${TIMELINE_DOCS_PREFIX}${timelineId}`) ?? "[]");
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

/** An editor keeps this scene's copy in this browser: noted under its timeline. */
export function noteLocalDoc(timelineId: number, eventId: number) {
  const ids = localDocsOf(timelineId);
  if (ids.includes(eventId)) return;
  try {
    localStorage.setItem(`${TIMELINE_DOCS_PREFIX}${timelineId}`, JSON.stringify([...ids, eventId]));
  } catch {
    // Storage unavailable: the copy goes at logout.
  }
}

/** The timeline's note of its copies goes with them (every timeline's when null: logout). */
export function forgetLocalDocsIndex(timelineId: number | null) {
  try {
    const keys =
      timelineId === null
        ? Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? "").filter((k) => k.startsWith(TIMELINE_DOCS_PREFIX))
        : [`${TIMELINE_DOCS_PREFIX}${timelineId}`];
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was kept there.
  }
}

/** Removes these events' copies and unsaved-edit markers from this browser: access to their timeline ended. */
export async function forgetLocalDocs(eventIds: number[]) {
  markers(eventIds);
  if (typeof indexedDB === "undefined") return;
  await Promise.all(eventIds.map((id) => deleteDatabase(localDocName(id))));
}

/** Logout: every scene's copy this browser holds, whoever's, every marker and the last sync's time. */
export async function forgetAllLocalDocs() {
  const ids = markers(null);
  forgetLocalDocsIndex(null);
  try {
    localStorage.removeItem(LAST_SYNC);
  } catch {
    // Storage unavailable: nothing was kept there.
  }
  if (typeof window !== "undefined") window.dispatchEvent(new Event(PENDING_CHANGED));
  if (typeof indexedDB === "undefined") return;
  // `databases()` lists every copy (Chromium, Firefox 126+, Safari); without it, those with unsaved edits are known.
  const listed = typeof indexedDB.databases === "function" ? await indexedDB.databases().catch(() => null) : null;
  const names = listed ? listed.map((d) => d.name ?? "").filter((name) => name.startsWith(DOC_PREFIX)) : ids.map(localDocName);
  await Promise.all(names.map(deleteDatabase));
}

/** Clears the markers of `eventIds` (every marker when null) and answers the events they were for. */
function markers(eventIds: number[] | null) {
  const cleared: number[] = [];
  try {
    const keys = eventIds
      ? eventIds.map(pendingKey)
      : Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? "").filter((k) => k.startsWith(PENDING_PREFIX));
    for (const key of keys) {
      localStorage.removeItem(key);
      const id = Number(key.slice(PENDING_PREFIX.length));
      if (Number.isInteger(id) && id > 0) cleared.push(id);
    }
  } catch {
    // Storage unavailable: nothing was kept there.
  }
  return cleared;
}
