import { useSyncExternalStore } from "react";
import { Button } from "~/ui/button";

/**
 * Queued changes the server refused when they were sent (access ended, the chapter deleted meanwhile): never dropped
 * silently, they stay on the screen with what they carried, to copy, until the writer dismisses them.
 */
export type RefusedChange = { id: number; what: string; text: string; message: string };

let refused: RefusedChange[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

export function reportRefused(change: Omit<RefusedChange, "id">) {
  refused = [...refused, { ...change, id: nextId++ }];
  notify();
}

function dismiss(id: number) {
  refused = refused.filter((c) => c.id !== id);
  notify();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const NONE: RefusedChange[] = [];

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission: the text is on screen to select.
  }
}

/** The refused changes of this page, each with its message, its text and 'Copy'. */
export function RefusedChanges() {
  const changes = useSyncExternalStore(
    subscribe,
    () => refused,
    () => NONE,
  );
  if (changes.length === 0) return null;
  return (
    <section aria-label="Changes not saved" className="mt-4 space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
      <h2 className="font-semibold text-red-800">Changes not saved</h2>
      <ul className="space-y-2">
        {changes.map((change) => (
          <li key={change.id} className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{change.what}</span>
            <span className="text-red-800">{change.message}</span>
            {change.text ? (
              <>
                <output className="rounded bg-white px-2 py-0.5 font-mono select-all">{change.text}</output>
                <Button size="sm" variant="outline" onClick={() => void copy(change.text)}>
                  Copy
                </Button>
              </>
            ) : null}
            <Button size="sm" variant="ghost" onClick={() => dismiss(change.id)}>
              Dismiss
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
