import { useSyncExternalStore } from "react";
import { Button } from "~/ui/button";
import { dismissRefused, refusedServerSnapshot, refusedSnapshot, subscribeRefused } from "./not-saved-store";

export { reportRefused, type RefusedChange } from "./not-saved-store";

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission: the text is on screen to select.
  }
}

/** The refused changes of this page, each with its message, its text and 'Copy'. */
export function RefusedChanges() {
  const changes = useSyncExternalStore(subscribeRefused, refusedSnapshot, refusedServerSnapshot);
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
            <Button size="sm" variant="ghost" onClick={() => dismissRefused(change.id)}>
              Dismiss
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
