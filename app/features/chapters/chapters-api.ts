import type { EventView } from "../../../worker/services/events";

export type ChapterView = {
  id: number;
  timelineId: number;
  title: string;
  position: number;
  targetWords: number | null;
  wordCount: number;
};

/** An event as the chapter views read it: its chapter (null: none) and its word count (null: not counted yet). */
export type Scene = EventView & { chapterId?: number | null; wordCount?: number | null };

export type ApiContext = {
  shareCode?: string | null;
  /** The room's headers, read when a call is sent (the author's own connection is left out of the sync). */
  headers: () => Record<string, string>;
};

/** A JSON call to our API; a refusal throws an Error with the server's message. */
export async function callApi<T>(ctx: ApiContext, method: string, path: string, body?: unknown): Promise<T> {
  const url = new URL(path, window.location.origin);
  if (ctx.shareCode) url.searchParams.set("share", ctx.shareCode);
  const res = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...ctx.headers() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data as { error?: string } | null)?.error ?? "Something went wrong. Please try again.");
  return data as T;
}

export const wordsText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "word" : "words"}`;

/** 'Chapter title is required', at most 200 characters: null when the title is fine. */
export function chapterTitleError(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return "Chapter title is required";
  if (trimmed.length > 200) return "Chapter title must be 200 characters or less";
  return null;
}

export const targetMessage = "Target must be a whole number of words between 1 and 10,000,000, or empty";
export const dailyGoalMessage = "Daily goal must be a whole number of words between 1 and 10,000,000, or empty";

/** A word target as typed: a whole number from 1 to 10 million, or empty for none (the server's rule). */
export function parseTarget(text: string, message = targetMessage): { value: number | null } | { error: string } {
  const trimmed = text.trim().replace(/[,\s]/g, "");
  if (!trimmed) return { value: null };
  const n = Number(trimmed);
  if (!/^\d{1,9}$/.test(trimmed) || n < 1 || n > 10_000_000) return { error: message };
  return { value: n };
}
