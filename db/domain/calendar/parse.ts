// Natural story dates in a calendar's words: "13 Oct 2031 9am", "13 October 2031, 9:00", "October 2031",
// "2031", "14 Frostmoon 1203 AR", "Day 3, dusk", "spring 1203" where the calendar has seasons, and the machine
// form "2031-10-13T09:00" itself.
import { daysInMonth, monthsOf } from "./arithmetic";
import { isEnglish, localMonthNames } from "./locale";
import { looksMachine, machineReason, parseMachine } from "./machine";
import type { CalDate, Calendar, Era, Season } from "./types";
import { NAMED_TIMES, exampleDate, yearFromEra } from "./words";

export type ParseResult = { ok: true; date: CalDate } | { ok: false; error: string };

type Time = { hour: number; minute: number };

/** The word before a time: English 'at' and how Intl's dates say it in other languages ('um', 'à', 'om', 'kl.'). */
const AT = "(?:(?:at|um|à|às|a las|a la|alle ore|om|kl\\.|klo|v|в|о|la|pukul)\\s+)?";
const NAMED_TIME = new RegExp(`(?:^|[\\s,]+)${AT}(midnight|dawn|noon|dusk)$`, "i");
const CLOCK = new RegExp(`(?:^|[\\s,]+)${AT}(\\d{1,2})(?::(\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?$`, "i");

/** Takes a trailing time ("9am", "9:30 pm", "21:00", "at dusk") off the text. */
function takeTime(text: string, hoursPerDay: number): { rest: string; time?: Time } | null {
  const named = NAMED_TIME.exec(text);
  if (named) return { rest: text.slice(0, named.index), time: { hour: NAMED_TIMES[named[1].toLowerCase()] ?? 0, minute: 0 } };
  const m = CLOCK.exec(text);
  if (!m || (m[2] === undefined && m[3] === undefined)) return { rest: text };
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (m[3]) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (m[3].toLowerCase().startsWith("p") ? 12 : 0);
  }
  if (hour >= hoursPerDay || minute > 59) return null;
  return { rest: text.slice(0, m.index), time: { hour, minute } };
}

function withTime(date: CalDate, time?: Time): CalDate | null {
  if (!time) return date;
  if (date.day === undefined) return null;
  return { ...date, ...time };
}

function parseRelative(cal: Calendar, text: string): CalDate | null {
  const timed = takeTime(text, 24);
  if (!timed) return null;
  const week = cal.relativeUnit === "week";
  const m = week ? /^week\s+(-?\d{1,6})(?:[\s,]+day\s+(\d))?$/i.exec(timed.rest.trim()) : /^day\s+(-?\d{1,6})$/i.exec(timed.rest.trim());
  if (!m) return null;
  const date: CalDate = { year: Number(m[1]) };
  if (timed.time || m[2]) Object.assign(date, { month: 1, day: Number(m[2] ?? 1) });
  if (date.day !== undefined && date.day > 7) return null;
  return withTime(date, timed.time);
}

/** The month a word names: its full name, or a prefix of at least 3 letters only one month has. */
function monthOf(cal: Calendar, word: string) {
  const w = word.toLowerCase().replace(/\.$/, "");
  const names = monthsOf(cal).map((m) => m.name.toLowerCase());
  const exact = names.indexOf(w);
  if (exact >= 0) return exact + 1;
  if (w.length < 3) return 0;
  const starts = names.flatMap((n, i) => (n.startsWith(w) ? [i + 1] : []));
  return starts.length === 1 ? (starts[0] ?? 0) : 0;
}

/** Takes an era's abbreviation or name off the end (or the start) of the text. */
function takeEra(cal: Calendar, text: string): { rest: string; era?: Era } {
  const lower = text.toLowerCase();
  const words = cal.eras.flatMap((era) => [era.abbreviation, era.name].map((w) => ({ era, w: w.toLowerCase() })));
  words.sort((a, b) => b.w.length - a.w.length);
  for (const { era, w } of words) {
    if (lower.endsWith(` ${w}`)) return { rest: text.slice(0, -w.length), era };
    if (lower.startsWith(`${w} `)) return { rest: text.slice(w.length), era };
  }
  return { rest: text };
}

/** A year counted in an era (when one was named), or null when it is out of range. */
function eraYear(year: number, era?: Era) {
  if (era && year < 1) return null;
  const y = era ? yearFromEra(era, year) : year;
  return Math.abs(y) > 999999 ? null : y;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * "Spring 1203", "winter of 451 BC": a season and a year. It stands for the season's first month of that year
 * (a winter that runs into the next year is stored in the year it begins), so ordering needs nothing new.
 */
export function parseSeason(cal: Calendar, text: string): { season: Season; date: CalDate } | null {
  if (cal.kind === "relative" || cal.seasons.length === 0) return null;
  const { rest, era } = takeEra(cal, text.trim());
  const names = [...cal.seasons].sort((a, b) => b.name.length - a.name.length);
  for (const season of names) {
    const m = new RegExp(`^${escapeRegExp(season.name)}(?:\\s+of)?[\\s,]+(-?\\d{1,6})$`, "i").exec(rest.trim());
    if (!m) continue;
    const year = eraYear(Number(m[1]), era);
    return year === null ? null : { season, date: { year, month: season.startMonth } };
  }
  return null;
}

/** Words between a date's parts in English and in the locales whose month names a Gregorian date accepts. */
const FILLERS = new Set(["of", "the", "de", "del", "le", "г.", "р."]);

function parseWords(cal: Calendar, text: string, locale?: string): CalDate | null {
  const timed = takeTime(text, cal.hoursPerDay);
  if (!timed) return null;
  const { rest, era } = takeEra(cal, timed.rest.trim());
  // Chinese, Japanese and Korean write year, month and day with their marks: '2031年10月13日', '2031년 10월 13일'.
  const marked =
    cal.kind === "gregorian" ? /^(\d{1,4})\s*[年년](?:\s*(\d{1,2})\s*[月월](?:\s*(\d{1,2})\s*[日일])?)?$/.exec(rest.trim()) : null;
  if (marked) {
    const [year, month, day] = [marked[1], marked[2], marked[3]].map((n) => (n === undefined ? undefined : Number(n)));
    const date: CalDate = { year: year ?? 0, ...(month !== undefined && { month }), ...(day !== undefined && { day }) };
    if (month !== undefined && (month < 1 || month > 12)) return null;
    if (day !== undefined && (day < 1 || day > daysInMonth(cal, date.year, month ?? 1))) return null;
    return withTime(date, timed.time);
  }
  // A month's name may hold spaces or digits ("Deep Winter", "Month 11"): find whole names first, longest first.
  let month = 0;
  let text2 = ` ${rest.toLowerCase()} `;
  const local = cal.kind === "gregorian" && !isEnglish(locale) && locale ? localMonthNames(locale) : [];
  const names = [...monthsOf(cal).map((m, i) => ({ name: m.name.toLowerCase(), index: i + 1 })), ...local].sort(
    (a, b) => b.name.length - a.name.length,
  );
  for (const { name, index } of names) {
    const at = text2.search(new RegExp(`[\\s,]${escapeRegExp(name)}[\\s,]`));
    if (at >= 0) {
      month = index;
      text2 = `${text2.slice(0, at + 1)}\u0000${text2.slice(at + 1 + name.length)}`;
      break;
    }
  }
  const tokens = text2.split(/[\s,]+/).filter((t) => t && !FILLERS.has(t));
  const nums: number[] = [];
  let order = "";
  for (const t of tokens) {
    const n = /^(-?\d{1,6})(?:st|nd|rd|th|\.)?$/i.exec(t);
    if (n) {
      nums.push(Number(n[1]));
      order += "n";
    } else if (t === "\u0000") order += "m";
    else if (!month && monthOf(cal, t)) {
      month = monthOf(cal, t);
      order += "m";
    } else return null;
  }
  let date: CalDate;
  if (order === "n") date = { year: nums[0] ?? 0 };
  else if (order === "mn") date = { year: nums[0] ?? 0, month };
  else if (order === "nmn") date = { year: nums[1] ?? 0, month, day: nums[0] };
  else if (order === "mnn") date = { year: nums[1] ?? 0, month, day: nums[0] };
  else return null;
  // Without an era word the year is the calendar's own count, as the machine form reads it.
  const year = eraYear(date.year, era);
  if (year === null) return null;
  date.year = year;
  if (date.day !== undefined && (date.day < 1 || date.day > daysInMonth(cal, date.year, date.month ?? 1))) return null;
  return withTime(date, timed.time);
}

/**
 * Reads what a writer typed as a date in the calendar. `field` names it in refusals: machine-shaped text gets
 * the precise reason ("Start has a month outside 01-13"), anything else an example in the calendar's words.
 */
export function parseStoryText(cal: Calendar, text: string, field: "Start" | "End" | "Born" | "Died", locale?: string): ParseResult {
  const value = text.trim();
  const subject = field === "Start" || field === "End" ? `Story ${field.toLowerCase()}` : field;
  const refusal = `${subject} must be a date like ${exampleDate(cal)}`;
  if (looksMachine(value)) {
    const m = parseMachine(cal, value);
    if (m.ok) return m;
    return { ok: false, error: m.reason === "format" ? refusal : `${field} ${machineReason(cal, m.reason)}` };
  }
  const date =
    value.length <= 100
      ? cal.kind === "relative"
        ? parseRelative(cal, value)
        : (parseSeason(cal, value)?.date ?? parseWords(cal, value, locale))
      : null;
  return date ? { ok: true, date } : { ok: false, error: refusal };
}
