// Which events this browser holds unsaved co-writing edits for: a small marker per event, so a
// reload of the timeline can send them without opening their editors. No Yjs here (kept out of the page's JS).

/** Where the editor keeps an event's doc in this browser (IndexedDB, y-indexeddb). */
export const localDocName = (eventId: number) => `storyweave-doc-${eventId}`;
const pendingKey = (eventId: number) => `storyweave-doc-pending-${eventId}`;

export function markPending(eventId: number, pending: boolean) {
  try {
    if (pending) localStorage.setItem(pendingKey(eventId), String(Date.now()));
    else localStorage.removeItem(pendingKey(eventId));
  } catch {
    // Storage unavailable (private mode): the editor still merges the copy when it is opened again.
  }
}

/** The events among `eventIds` with edits typed here that the server has not confirmed. */
export function pendingDocs(eventIds: number[]): number[] {
  try {
    return eventIds.filter((id) => localStorage.getItem(pendingKey(id)) !== null);
  } catch {
    return [];
  }
}
