// Story dates in a calendar's own words: "13 October 2031, 9:00", "14 Frostmoon 1203 AR", "Day 3, dusk".
import { monthsOf } from "./arithmetic";
import { dateFormat, isEnglish, localMonth, localTime, utcDate } from "./locale";
import type { CalDate, Calendar, Era } from "./types";

/** Named times of day a writer may type and that "Day N" dates read back with. */
export const NAMED_TIMES: Record<string, number> = { midnight: 0, dawn: 6, noon: 12, dusk: 18 };

/** The era a year falls in: the latest forward era begun by then, else the backward era counting down to it. */
export function eraOf(cal: Calendar, year: number): Era | null {
  const forward = cal.eras.filter((e) => e.direction === "forward" && e.startYear <= year).sort((a, b) => b.startYear - a.startYear);
  if (forward[0]) return forward[0];
  const backward = cal.eras.filter((e) => e.direction === "backward" && e.startYear > year).sort((a, b) => a.startYear - b.startYear);
  return backward[0] ?? null;
}

/** The year as the calendar writes it: "2031", "451 BC", "1203 AR". */
export function yearInWords(cal: Calendar, year: number) {
  const era = eraOf(cal, year);
  if (!era) return String(year);
  const count = era.direction === "forward" ? year - era.startYear + 1 : era.startYear - year;
  return `${count} ${era.abbreviation}`;
}

/** The internal year of a year counted in an era (the inverse of yearInWords). */
export function yearFromEra(era: Era, count: number) {
  return era.direction === "forward" ? count + era.startYear - 1 : era.startYear - count;
}

const timeInWords = (hour: number, minute: number) => `${hour}:${String(minute).padStart(2, "0")}`;

function relativeInWords(cal: Calendar, date: CalDate) {
  const week = cal.relativeUnit === "week";
  let out = `${week ? "Week" : "Day"} ${date.year}`;
  if (week && date.day !== undefined) out += `, day ${date.day}`;
  if (date.hour === undefined) return out;
  const named = Object.entries(NAMED_TIMES).find(([, h]) => h === date.hour && !date.minute);
  return `${out}, ${named ? named[0] : timeInWords(date.hour, date.minute ?? 0)}`;
}

/** A Gregorian date as Intl writes it in the locale ('13. Oktober 2031 um 09:00'); null outside years 1..9999. */
function gregorianInLocale(locale: string, date: CalDate) {
  const at = utcDate(date.year, date.month, date.day, date.hour, date.minute);
  if (!at) return null;
  const options: Intl.DateTimeFormatOptions = { year: "numeric" };
  if (date.month !== undefined) options.month = "long";
  if (date.day !== undefined) options.day = "numeric";
  if (date.hour !== undefined) Object.assign(options, { hour: "2-digit", minute: "2-digit" });
  return dateFormat(locale, options).format(at);
}

/**
 * A date in the calendar's words. English (the default) reads '13 October 2031, 9:00'; another locale takes
 * Intl's Gregorian wording, or in a custom calendar the writer's own names with the locale's clock.
 */
export function dateInWords(cal: Calendar, date: CalDate, opts?: { locale?: string }) {
  const locale = isEnglish(opts?.locale) ? null : (opts?.locale ?? null);
  if (cal.kind === "relative") return relativeInWords(cal, date);
  if (locale && cal.kind === "gregorian") {
    const words = gregorianInLocale(locale, date);
    if (words) return words;
  }
  let out = yearInWords(cal, date.year);
  if (date.month === undefined) return out;
  const month = locale && cal.kind === "gregorian" ? localMonth(locale, date.month) : monthsOf(cal)[date.month - 1]?.name;
  out = `${month ?? date.month} ${out}`;
  if (date.day === undefined) return out;
  out = `${date.day} ${out}`;
  if (date.hour === undefined) return out;
  return `${out}, ${locale ? localTime(locale, date.hour, date.minute ?? 0) : timeInWords(date.hour, date.minute ?? 0)}`;
}

/** A date a writer could type in this calendar, for refusals ("… a date like 13 October 2031, 9:00"). */
export function exampleDate(cal: Calendar) {
  if (cal.kind === "gregorian") return "13 October 2031, 9:00";
  if (cal.kind === "relative") return cal.relativeUnit === "week" ? "Week 2, day 3, dusk" : "Day 3, dusk";
  const month = 1;
  const forward = cal.eras.find((e) => e.direction === "forward");
  const year = forward ? yearFromEra(forward, 1203) : 1203;
  return dateInWords(cal, { year, month, day: Math.min(14, cal.months[month - 1]?.days ?? 1) });
}
