import { createElement } from "react";
import type { toast as SonnerToast } from "sonner";

export type Toast = {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
};

/**
 * A toast with a button (sonner's `action`), e.g. Undo, and a `note` on a line of its own under the description
 * (which stays exactly SPEC's words, e.g. 'Event deleted successfully'); never sent from the server.
 */
export type ActionToast = Toast & { note?: string; action?: { label: string; onClick: () => void } };

// sonner loads with the Toaster (ui/toaster.tsx) when the first toast is fired (or
// the first press or key makes one likely), not with the page; toasts fired before it is mounted wait
// here and show as soon as it is.
let sonner: typeof SonnerToast | undefined;
const waiting: ActionToast[] = [];
let wanted = false;
const wantListeners = new Set<() => void>();

/** True once a toast was fired or is likely soon: root.tsx then mounts the Toaster. */
export const toasterWanted = () => wanted;

/** For useSyncExternalStore: tells root.tsx when the Toaster is first wanted. */
export function onToasterWanted(listener: () => void) {
  wantListeners.add(listener);
  return () => {
    wantListeners.delete(listener);
  };
}

/** Asks root.tsx to mount the Toaster (loading sonner). */
export function wantToaster() {
  if (wanted) return;
  wanted = true;
  for (const listener of wantListeners) listener();
}

function fire(to: typeof SonnerToast, { title, description, note, variant, action }: ActionToast) {
  const lines = note
    ? [
        createElement("span", { key: "message", "data-toast-message": "" }, description),
        createElement("span", { key: "note", className: "block" }, note),
      ]
    : description;
  const options = { description: lines, action };
  if (variant === "destructive") to.error(title, options);
  else to.success(title, options);
}

/** one toast at a time, 5000 ms; errors are destructive toasts titled 'Error'. */
export function showToast(toast: ActionToast) {
  if (sonner) fire(sonner, toast);
  else {
    waiting.push(toast);
    wantToaster();
  }
}

/** Called by the Toaster once mounted: shows the toasts fired before it was. */
export function toasterReady(to: typeof SonnerToast) {
  sonner = to;
  for (const toast of waiting.splice(0)) fire(to, toast);
}

export const errorToast = (description: string) => showToast({ title: "Error", description, variant: "destructive" });
