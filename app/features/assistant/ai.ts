import { ApiError } from "~/lib/client";
import { showToast } from "~/lib/toast";

export type { AiUsage } from "~/lib/client";
export { FREE_AI_USES } from "../../../db/domain/rules";
export const AI_ERROR_MAX = 100;

/** AI error text is cut to 100 characters plus '...'. */
export const cut = (message: string) => (message.length > AI_ERROR_MAX ? `${message.slice(0, AI_ERROR_MAX)}...` : message);

/**
 * Shows the right toast for a failed AI call: the usage limit in its own words, otherwise
 * `failedTitle` (e.g. 'Idea generation failed') with the message cut to 100 characters.
 */
export function aiErrorToast(error: unknown, failedTitle: string) {
  if (error instanceof ApiError && error.status === 429) {
    showToast({ title: error.body?.title ?? "Usage Limit Reached", description: error.body?.error, variant: "destructive" });
    return;
  }
  showToast({ title: failedTitle, description: cut(error instanceof Error ? error.message : String(error)), variant: "destructive" });
}

/**
 * Like aiErrorToast. A stream's `error` event comes after a 200: one before any text is an upstream
 * failure (the server's 502), shown in the product's words; one mid-answer shows its own message
 * (what arrived is kept on the page).
 */
export function aiStreamErrorToast(error: unknown, failedTitle: string) {
  if (error instanceof Error && error.name === "AiStreamError") {
    const partial = (error as Error & { partial?: string }).partial;
    const message = partial ? error.message : `API request failed: 502 Bad Gateway - ${error.message}`;
    showToast({ title: failedTitle, description: cut(message), variant: "destructive" });
    return;
  }
  aiErrorToast(error, failedTitle);
}

export async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ title: "Copied to clipboard!" });
  } catch {
    showToast({ title: "Error", description: "Could not copy to the clipboard", variant: "destructive" });
  }
}
