// Story time: when something happens in the story, not when it was written. A story date is
// `[-]Y[-MM[-DD[THH:mm]]]` with 1-6 year digits (astronomical years: -450, 0, 2024, 10231), so an
// epic fantasy or a far future fits. Plain strings do not sort (-450 < -9 and 10231 < 9999 as text),
// so the service stores a numeric key computed here.

export type StoryDate = { year: number; month?: number; day?: number; hour?: number; minute?: number };

export type StoryDateResult = { ok: true; date: StoryDate } | { ok: false; reason: "format" | "month" | "day" | "hour" | "minute" };

const PATTERN = /^(-?)(\d{1,6})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}))?)?)?$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Why a story date was refused, completing "<field> <value> …" (the API's and the importer's messages). */
export const storyDateReason: Record<Exclude<StoryDateResult, { ok: true }>["reason"], string> = {
  format: "must be a story date like -450, 2024-03 or 10231-01-02T06:30",
  month: "has a month outside 01-12",
  day: "has a day that month does not have",
  hour: "has an hour outside 00-23",
  minute: "has a minute outside 00-59",
};

export function daysInMonth(year: number, month: number) {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function parseStoryDate(value: string): StoryDateResult {
  const m = PATTERN.exec(value);
  if (!m) return { ok: false, reason: "format" };
  const year = (m[1] ? -1 : 1) * Number(m[2]) || 0;
  const date: StoryDate = { year };
  if (m[3] === undefined) return { ok: true, date };
  date.month = Number(m[3]);
  if (date.month < 1 || date.month > 12) return { ok: false, reason: "month" };
  if (m[4] === undefined) return { ok: true, date };
  date.day = Number(m[4]);
  if (date.day < 1 || date.day > daysInMonth(year, date.month)) return { ok: false, reason: "day" };
  if (m[5] === undefined) return { ok: true, date };
  date.hour = Number(m[5]);
  date.minute = Number(m[6]);
  if (date.hour > 23) return { ok: false, reason: "hour" };
  if (date.minute > 59) return { ok: false, reason: "minute" };
  return { ok: true, date };
}

/**
 * A number that orders story dates truly: year, then month, day and time of day, a missing part
 * before any given one ("2024" < "2024-01" < "2024-01-01" < "2024-01-01T00:00"). `upper` gives the
 * latest instant the date covers instead (a missing part after any given one), for checking that a
 * range's end is not before its start. Exact in a double: |year| < 10^6, so |key| < 10^14 < 2^53.
 */
export function storyDateKey(date: StoryDate, bound: "lower" | "upper" = "lower") {
  const missing = (max: number) => (bound === "lower" ? 0 : max + 1);
  const month = date.month ?? missing(12);
  const day = date.day ?? missing(31);
  const time = date.hour !== undefined ? 1 + date.hour * 60 + (date.minute ?? 0) : missing(1440);
  return date.year * 1e8 + month * 1e6 + day * 1e4 + time;
}

/** The sort key of a stored story date string, or null when there is none (or it is not valid). */
export function storySortKey(value: string | null | undefined): number | null {
  if (!value) return null;
  const parsed = parseStoryDate(value);
  return parsed.ok ? storyDateKey(parsed.date) : null;
}

/** False when `end` lies wholly before `start` ("2024-03" may end a range that starts 2024-03-15). */
export function isStoryRangeOrdered(start: string, end: string) {
  const s = parseStoryDate(start);
  const e = parseStoryDate(end);
  if (!s.ok || !e.ok) return true;
  return storyDateKey(e.date, "upper") >= storyDateKey(s.date, "lower");
}
