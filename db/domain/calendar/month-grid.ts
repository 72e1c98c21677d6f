// One month of a calendar as the date picker shows it, and the steps its buttons and keys take. Pure: years are
// the calendar's own (astronomical) count, so stepping across year 0 or an era's start is plain arithmetic and
// only the words ('1 BR', '1 AR') change.
import { daysInMonth, fromAbsolute, minutesPerDay, monthsOf, toAbsolute } from "./arithmetic";
import { parseStoryText } from "./parse";
import type { Calendar } from "./types";
import { calendarLimits } from "./validate";
import { weekdayIndexOf } from "./weekday";
import { dateInWords, yearFromEra, yearInWords } from "./words";

export type Day = { year: number; month: number; day: number };

export type MonthGrid = {
  year: number;
  month: number;
  /** The heading: 'Frostmoon 1203 AR'. */
  title: string;
  /** Weekday column headers, the calendar's first weekday first; empty when the days sit in plain rows of 7. */
  columns: string[];
  /** Rows of day numbers; null is a blank before day 1 (it falls on a later weekday) or after the last day. */
  rows: Array<Array<number | null>>;
};

const PLAIN_WIDTH = 7;
const MAX_COLUMNS = 10;

/** A relative calendar ('Day 3') has no months to show: its dates are typed. */
export const hasMonths = (cal: Calendar) => cal.kind !== "relative" && cal.months.length > 0;

/** Weekday columns when the calendar names 2 to 10 weekdays (more would not fit a phone); else plain rows. */
const columnsOf = (cal: Calendar) => (cal.weekdays.length >= 2 && cal.weekdays.length <= MAX_COLUMNS ? cal.weekdays : []);

const inRange = (year: number) => Math.abs(year) <= calendarLimits.year;

export function monthGrid(cal: Calendar, year: number, month: number): MonthGrid {
  const columns = columnsOf(cal);
  const width = columns.length || PLAIN_WIDTH;
  const lead = columns.length ? (weekdayIndexOf(cal, { year, month, day: 1 }) ?? 0) : 0;
  const cells: Array<number | null> = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= daysInMonth(cal, year, month); day++) cells.push(day);
  while (cells.length % width) cells.push(null);
  const rows: MonthGrid["rows"] = [];
  for (let i = 0; i < cells.length; i += width) rows.push(cells.slice(i, i + width));
  return { year, month, title: `${monthsOf(cal)[month - 1]?.name ?? month} ${yearInWords(cal, year)}`, columns, rows };
}

const clampDay = (cal: Calendar, year: number, month: number, day: number): Day => ({
  year,
  month,
  day: Math.min(day, daysInMonth(cal, year, month)),
});

/** The same day `delta` months on (the month's last day when it is shorter); unchanged past the calendar's years. */
export function moveMonths(cal: Calendar, from: Day, delta: number): Day {
  const count = monthsOf(cal).length;
  const index = from.year * count + (from.month - 1) + delta;
  const year = Math.floor(index / count);
  if (!inRange(year)) return from;
  return clampDay(cal, year, index - year * count + 1, from.day);
}

/** The same day `delta` years on (a leap day becomes the month's last day in a common year). */
export function moveYears(cal: Calendar, from: Day, delta: number): Day {
  const year = from.year + delta;
  return inRange(year) ? clampDay(cal, year, from.month, from.day) : from;
}

/** The day `delta` days on, across months and years. */
export function moveDays(cal: Calendar, from: Day, delta: number): Day {
  const perDay = minutesPerDay(cal);
  const { year, month, day } = fromAbsolute(cal, toAbsolute(cal, from) + delta * perDay);
  return inRange(year) ? { year, month, day } : from;
}

/** The first ('start') or last ('end') day of the grid row a day sits in. */
export function rowEdge(grid: MonthGrid, day: number, edge: "start" | "end"): number {
  const row = grid.rows.find((r) => r.includes(day)) ?? [];
  const days = row.filter((d): d is number => d !== null);
  return (edge === "start" ? days[0] : days[days.length - 1]) ?? day;
}

/** The day a text names, when it reads as a date with a day in the calendar. */
export function dayOfText(cal: Calendar, text: string): Day | null {
  const read = text.trim() ? parseStoryText(cal, text, "Start") : null;
  if (!read?.ok || read.date.day === undefined) return null;
  return { year: read.date.year, month: read.date.month ?? 1, day: read.date.day };
}

/**
 * Where the picker opens: at the first of `texts` that reads as a date (the field's own, then others nearby;
 * '1203 AR' opens at its first month), else today in a Gregorian calendar, else year 1 of the earliest forward era.
 */
export function openingDay(cal: Calendar, texts: Array<string | null | undefined>, today: Day): Day {
  for (const text of texts) {
    const read = text?.trim() ? parseStoryText(cal, text, "Start") : null;
    if (read?.ok) return { year: read.date.year, month: read.date.month ?? 1, day: read.date.day ?? 1 };
  }
  if (cal.kind === "gregorian") return today;
  const forward = cal.eras.filter((e) => e.direction === "forward").sort((a, b) => a.startYear - b.startYear)[0];
  return { year: forward ? yearFromEra(forward, 1) : 1, month: 1, day: 1 };
}

/** The picked day in words, keeping a time of day the field already had ('14 Frostmoon 1203 AR, 9:00'). */
export function pickedText(cal: Calendar, day: Day, current: string): string {
  const read = current.trim() ? parseStoryText(cal, current, "Start") : null;
  const time = read?.ok && read.date.hour !== undefined ? { hour: read.date.hour, minute: read.date.minute ?? 0 } : {};
  return dateInWords(cal, { ...day, ...time });
}
