// What the service and the screens need of a calendar for a stored story date (the machine form).
import { storyDateKey } from "../story-date";
import { toAbsolute, toAbsoluteEnd } from "./arithmetic";
import { formatMachine, parseMachine } from "./machine";
import { parseSeason, parseStoryText } from "./parse";
import { GREGORIAN, type Calendar } from "./types";
import { validateCalendar } from "./validate";
import { dateInWords, yearInWords } from "./words";

/** The calendar stored on a timeline (JSON text); none, or one that no longer validates, is Gregorian. */
export function storedCalendar(json: string | null | undefined): Calendar {
  if (!json) return GREGORIAN;
  try {
    const checked = validateCalendar(JSON.parse(json));
    return checked.ok ? checked.calendar : GREGORIAN;
  } catch {
    return GREGORIAN;
  }
}

/** "Spring 1203 AR" when the text names one of the calendar's seasons and a year; else null. */
export function seasonInWords(cal: Calendar, text: string | null | undefined) {
  const read = text ? parseSeason(cal, text) : null;
  return read ? { words: `${read.season.name} ${yearInWords(cal, read.date.year)}`, stored: formatMachine(read.date) } : null;
}

/**
 * A stored date in words (in `locale`, English by default), or null when there is none (or it does not read in this calendar). A date typed as a
 * season reads as that season while the text still gives the stored date (seasons changed since, or a date
 * edited in the machine form, read as the month).
 */
export function storyDisplay(cal: Calendar, stored: string | null | undefined, opts?: { typed?: string | null; locale?: string }) {
  if (!stored) return null;
  const season = seasonInWords(cal, opts?.typed);
  if (season?.stored === stored) return season.words;
  const m = parseMachine(cal, stored);
  return m.ok ? dateInWords(cal, m.date, { locale: opts?.locale }) : stored;
}

/**
 * The sort key stored with a date. Gregorian timelines keep the key they always had (it orders true story time
 * and is already stored for every dated scene); other calendars use the absolute minute.
 */
export function storySort(cal: Calendar, stored: string | null | undefined): number | null {
  if (!stored) return null;
  const m = parseMachine(cal, stored);
  if (!m.ok) return null;
  return cal.kind === "gregorian" ? storyDateKey(m.date) : toAbsolute(cal, m.date);
}

/** False when the end lies wholly before the start ("Frostmoon 1203" may end a range from its 14th). */
export function storyRangeOrdered(cal: Calendar, start: string, end: string) {
  const s = parseMachine(cal, start);
  const e = parseMachine(cal, end);
  if (!s.ok || !e.ok) return true;
  return toAbsoluteEnd(cal, e.date) >= toAbsolute(cal, s.date);
}

/** What a writer typed, read into the stored machine form; the refusal names an example in the calendar. */
export function readStoryInput(cal: Calendar, text: string, field: "Start" | "End" | "Born" | "Died", locale?: string) {
  const parsed = parseStoryText(cal, text, field, locale);
  return parsed.ok ? ({ ok: true, stored: formatMachine(parsed.date) } as const) : parsed;
}
