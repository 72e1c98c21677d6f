// Calendar arithmetic: a date ↔ its absolute position in minutes from the start of year 0. Closed forms
// (no loop over years), so a year of -999999 costs what 2031 does.
import type { CalDate, Calendar } from "./types";

/** The months a calendar counts with: a relative calendar's "year" is one day (or one week of 7 days). */
export function monthsOf(cal: Calendar): Array<{ name: string; days: number }> {
  if (cal.kind === "relative") return [{ name: cal.relativeUnit === "week" ? "Week" : "Day", days: cal.relativeUnit === "week" ? 7 : 1 }];
  return cal.months;
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

export function isLeapYear(cal: Calendar, year: number) {
  if (!cal.leap || cal.kind === "relative") return false;
  if (cal.kind === "gregorian") return mod(year, 4) === 0 && (mod(year, 100) !== 0 || mod(year, 400) === 0);
  return mod(year, cal.leap.every) === 0;
}

export function daysInMonth(cal: Calendar, year: number, month: number) {
  const m = monthsOf(cal)[month - 1];
  if (!m) return 0;
  return m.days + (cal.leap && cal.leap.month === month && isLeapYear(cal, year) ? 1 : 0);
}

const baseYearDays = (cal: Calendar) => monthsOf(cal).reduce((sum, m) => sum + m.days, 0);

/** Leap years in [0, year): ceil(year / n) counts the multiples of n there, for negative years too. */
function leapsBefore(cal: Calendar, year: number) {
  if (!cal.leap || cal.kind === "relative") return 0;
  if (cal.kind === "gregorian") return Math.ceil(year / 4) - Math.ceil(year / 100) + Math.ceil(year / 400);
  return Math.ceil(year / cal.leap.every);
}

/** Days from the start of year 0 to the start of `year` (negative before it). */
export const daysBeforeYear = (cal: Calendar, year: number) => year * baseYearDays(cal) + leapsBefore(cal, year);

export const minutesPerDay = (cal: Calendar) => (cal.kind === "relative" ? 24 : cal.hoursPerDay) * 60;

/** The first minute a date covers (a missing part counts from its start). */
export function toAbsolute(cal: Calendar, date: CalDate) {
  let days = daysBeforeYear(cal, date.year);
  for (let m = 1; m < (date.month ?? 1); m++) days += daysInMonth(cal, date.year, m);
  days += (date.day ?? 1) - 1;
  return days * minutesPerDay(cal) + (date.hour ?? 0) * 60 + (date.minute ?? 0);
}

/** The last minute a date covers: "1203" ends with the year's last minute, "1203-02-14T09:00" is that minute. */
export function toAbsoluteEnd(cal: Calendar, date: CalDate) {
  if (date.hour !== undefined) return toAbsolute(cal, date);
  if (date.day !== undefined) return toAbsolute(cal, date) + minutesPerDay(cal) - 1;
  if (date.month !== undefined) return toAbsolute(cal, date) + daysInMonth(cal, date.year, date.month) * minutesPerDay(cal) - 1;
  return toAbsolute(cal, { year: date.year + 1 }) - 1;
}

/** The full date (to the minute) at an absolute position. */
export function fromAbsolute(cal: Calendar, absolute: number): Required<CalDate> {
  const perDay = minutesPerDay(cal);
  const dayIndex = Math.floor(absolute / perDay);
  const inDay = absolute - dayIndex * perDay;
  const yearDays = baseYearDays(cal) + (cal.leap && cal.kind !== "relative" ? 1 / (cal.kind === "gregorian" ? 4 : cal.leap.every) : 0);
  let year = Math.floor(dayIndex / yearDays);
  while (daysBeforeYear(cal, year) > dayIndex) year--;
  while (daysBeforeYear(cal, year + 1) <= dayIndex) year++;
  let rest = dayIndex - daysBeforeYear(cal, year);
  let month = 1;
  while (rest >= daysInMonth(cal, year, month)) {
    rest -= daysInMonth(cal, year, month);
    month++;
  }
  return { year, month, day: rest + 1, hour: Math.floor(inDay / 60), minute: inDay % 60 };
}

/** The same date cut to another date's precision. */
export function samePrecision(full: Required<CalDate>, like: CalDate): CalDate {
  const out: CalDate = { year: full.year };
  if (like.month !== undefined) out.month = full.month;
  if (like.day !== undefined) out.day = full.day;
  if (like.hour !== undefined) Object.assign(out, { hour: full.hour, minute: full.minute });
  return out;
}
