import { type ApiClient, shareParam } from "~/lib/client";
import { digits } from "~/lib/digits";
import type { ChapterView } from "../../../worker/services/chapters";
import type { EventView } from "../../../worker/services/events";

export type { ChapterView };

/** An event as the chapter views read it: its chapter (null: none) and its word count (null: not counted yet). */
export type Scene = EventView & { chapterId?: number | null; wordCount?: number | null };

export type ApiContext = {
  shareCode?: string | null;
  /** The session's typed client (it names the room connection, so the author's own connection is left out of the sync). */
  client: ApiClient;
};

/** A chapter call's `?share=` (shared mode) for the typed client. */
export const queryOf = (ctx: ApiContext) => shareParam(ctx.shareCode);

export const wordsText = (n: number) => `${digits(n)} ${n === 1 ? "word" : "words"}`;

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
