import { showToast } from "~/lib/toast";

export type AiUsage = { used: number; limit: number | null; premium: boolean };
export { FREE_AI_USES } from "../../db/validation";
export const AI_ERROR_MAX = 100;

/** A failed AI call: `status` and the server's `body` (its error text and, at the limit, usage). */
export class AiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: any,
  ) {
    super(message);
  }
}

/** SPEC.md §8: a non-OK AI response throws 'API request failed: {status} {statusText} - {body}'. */
export async function aiRequest<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    credentials: "same-origin",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  if (!res.ok) {
    const detail = json?.error ?? text;
    throw new AiRequestError(res.status, `API request failed: ${res.status} ${res.statusText} - ${detail}`, json);
  }
  return json as T;
}

/** SPEC.md §8: AI error text is cut to 100 characters plus '...'. */
export const cut = (message: string) => (message.length > AI_ERROR_MAX ? `${message.slice(0, AI_ERROR_MAX)}...` : message);

/**
 * Shows the right toast for a failed AI call: the usage limit in its own words, otherwise
 * `failedTitle` (e.g. 'Idea generation failed') with the message cut to 100 characters.
 */
export function aiErrorToast(error: unknown, failedTitle: string) {
  if (error instanceof AiRequestError && error.status === 429) {
    showToast({ title: error.body?.title ?? "Usage Limit Reached", description: error.body?.error, variant: "destructive" });
    return;
  }
  showToast({ title: failedTitle, description: cut(error instanceof Error ? error.message : String(error)), variant: "destructive" });
}

export async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ title: "Copied to clipboard!" });
  } catch {
    showToast({ title: "Error", description: "Could not copy to the clipboard", variant: "destructive" });
  }
}
