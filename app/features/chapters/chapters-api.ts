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

/** A word target as typed: a whole number above 0, or empty for none. */
export function parseTarget(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim().replace(/[,\s]/g, "");
  if (!trimmed) return { value: null };
  if (!/^\d{1,9}$/.test(trimmed) || Number(trimmed) < 1) return { error: "Target must be a whole number of words" };
  return { value: Number(trimmed) };
}
