import { toast as sonner } from "sonner";

export type Toast = {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
};

/** SPEC.md §9: one toast at a time, 5000 ms; errors are destructive toasts titled 'Error'. */
export function showToast({ title, description, variant }: Toast) {
  const options = { description };
  if (variant === "destructive") sonner.error(title, options);
  else sonner.success(title, options);
}

export const errorToast = (description: string) => showToast({ title: "Error", description, variant: "destructive" });
