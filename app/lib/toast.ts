import type { toast as SonnerToast } from "sonner";

export type Toast = {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
};

// Issue 11: sonner loads after hydration with the Toaster (components/toaster.tsx); toasts fired
// before it is mounted wait here and show as soon as it is.
let sonner: typeof SonnerToast | undefined;
const waiting: Toast[] = [];

function fire(to: typeof SonnerToast, { title, description, variant }: Toast) {
  const options = { description };
  if (variant === "destructive") to.error(title, options);
  else to.success(title, options);
}

/** SPEC.md §9: one toast at a time, 5000 ms; errors are destructive toasts titled 'Error'. */
export function showToast(toast: Toast) {
  if (sonner) fire(sonner, toast);
  else waiting.push(toast);
}

/** Called by the Toaster once mounted: shows the toasts fired before it was. */
export function toasterReady(to: typeof SonnerToast) {
  sonner = to;
  for (const toast of waiting.splice(0)) fire(to, toast);
}

export const errorToast = (description: string) => showToast({ title: "Error", description, variant: "destructive" });
