/**
 * Queued changes the server refused, or that could not be sent because access to their timeline ended: never dropped
 * silently, they are kept (in this browser, across reloads) with what they carried, to copy, until the writer
 * dismisses them. One account's: logout and another account signing in delete them (service-worker.ts).
 */
export type RefusedChange = { id: number; what: string; text: string; message: string };

const KEY = "storyweave-not-saved";

let refused: RefusedChange[] | null = null;
const listeners = new Set<() => void>();
/** No refusals: one list, the server's snapshot too, so hydrating a page with none re-renders nothing at mount. */
const NONE: RefusedChange[] = [];

function load(): RefusedChange[] {
  if (refused) return refused;
  refused = NONE;
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    if (Array.isArray(kept)) {
      const valid = kept.filter(
        (c): c is RefusedChange =>
          typeof c === "object" &&
          c !== null &&
          Number.isInteger(c.id) &&
          typeof c.what === "string" &&
          typeof c.text === "string" &&
          typeof c.message === "string",
      );
      if (valid.length > 0) refused = valid;
    }
  } catch {
    // Storage unavailable or unreadable: this page's refusals only.
  }
  return refused;
}

function save(next: RefusedChange[]) {
  refused = next.length === 0 ? NONE : next;
  try {
    if (next.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage unavailable (or full): still shown on this page.
  }
  for (const listener of listeners) listener();
}

export function reportRefused(change: Omit<RefusedChange, "id">) {
  const list = load();
  const id = list.reduce((max, c) => Math.max(max, c.id), 0) + 1;
  save([...list, { ...change, id }]);
}

export function dismissRefused(id: number) {
  save(load().filter((c) => c.id !== id));
}

/** Logout, or another account signed in: the kept refusals are that account's. */
export function forgetRefused() {
  if (typeof window === "undefined") return;
  save([]);
}

export function subscribeRefused(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export const refusedSnapshot = () => (typeof window === "undefined" ? NONE : load());
export const refusedServerSnapshot = () => NONE;
