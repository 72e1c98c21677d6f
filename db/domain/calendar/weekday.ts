// The day of the week a full date falls on, in calendars that name their weekdays.
import { minutesPerDay, toAbsolute } from "./arithmetic";
import { dateFormat, isEnglish, utcDate } from "./locale";
import type { CalDate, Calendar } from "./types";

const mod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * The index in `cal.weekdays` of the day a date falls on; null for a date without a day or a calendar without
 * weekdays. Gregorian days count from 1 January of year 0, a Saturday; a custom calendar's first day of year 0
 * is its first weekday.
 */
export function weekdayIndexOf(cal: Calendar, date: CalDate): number | null {
  if (date.day === undefined || cal.weekdays.length === 0 || cal.kind === "relative") return null;
  const day = Math.floor(toAbsolute(cal, { year: date.year, month: date.month, day: date.day }) / minutesPerDay(cal));
  const offset = cal.kind === "gregorian" ? 5 : 0;
  return mod(day + offset, cal.weekdays.length);
}

/** 'Monday' for 13 October 2031; null for a date without a day or a calendar without weekdays. */
export function weekdayOf(cal: Calendar, date: CalDate, opts?: { locale?: string }): string | null {
  const at =
    cal.kind === "gregorian" && opts?.locale && !isEnglish(opts.locale) && date.day !== undefined
      ? utcDate(date.year, date.month, date.day)
      : null;
  if (at && opts?.locale) return dateFormat(opts.locale, { weekday: "long" }).format(at);
  const index = weekdayIndexOf(cal, date);
  return index === null ? null : (cal.weekdays[index] ?? null);
}
