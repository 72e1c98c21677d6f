// Story dates as writers type them, read in their timeline's calendar into the stored machine form.
import { type Calendar, readStoryInput, storyRangeOrdered, storySort } from "../../db/domain/calendar";
import { storyMessages } from "../../db/domain/validation";
import { badRequest } from "../lib/errors";

type Given = { storyStart?: string | null; storyEnd?: string | null };
export type StoryColumns = {
  storyStart?: string | null;
  storyStartText?: string | null;
  storyEnd?: string | null;
  storyEndText?: string | null;
  storySort?: number | null;
};

function read(cal: Calendar, text: string | null | undefined, field: "Start" | "End", locale?: string) {
  if (text === undefined) return undefined;
  if (text === null || text === "") return { stored: null, text: null };
  const parsed = readStoryInput(cal, text, field, locale);
  if (!parsed.ok) throw badRequest(parsed.error);
  return { stored: parsed.stored, text };
}

/**
 * The columns to write for the dates given (absent: unchanged); 400 with an example when one does not read. The
 * writer's locale adds its month names to the English ones ('13 octobre 2031').
 */
export function storyColumns(cal: Calendar, given: Given, locale?: string): StoryColumns {
  const start = read(cal, given.storyStart, "Start", locale);
  const end = read(cal, given.storyEnd, "End", locale);
  return {
    ...(start && { storyStart: start.stored, storyStartText: start.text, storySort: storySort(cal, start.stored) }),
    ...(end && { storyEnd: end.stored, storyEndText: end.text }),
  };
}

/** The story range of the event as it will be after the write; refused when it does not hold. */
export function checkStoryRange(cal: Calendar, start: string | null, end: string | null) {
  if (end && !start) throw badRequest(storyMessages.endWithoutStart);
  if (start && end && !storyRangeOrdered(cal, start, end)) throw badRequest(storyMessages.endBeforeStart);
}
