// Dates as spreadsheets write them into a CSV: `3/15/2024` (US), `15/03/2024`, `15.03.2024` (dots are always
// day first), `2024/03/15`, ISO with a space before the time, two-digit years, times with seconds or AM/PM.
// Each becomes a story date (`2024-03-15`, `2024-03-15T14:30`). When day and month could be either way round
// (3/4/2024) the file's order decides: the caller passes it, from the writer's choice or the file's other dates.
import { parseStoryDate, storyDateReason } from "../story-date";

export type DateOrder = "mdy" | "dmy";
export const dateOrders: readonly DateOrder[] = ["mdy", "dmy"];

const TIME = String.raw`(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:\s*([AaPp])\.?[Mm]\.?)?)?`;
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})${TIME}$`);
const DAY_OR_MONTH_FIRST = new RegExp(String.raw`^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})${TIME}$`);

/** Anything shaped like a calendar date: if it cannot be read, the writer should hear why. */
export const looksLikeDate = (v: string) => /^-?\d+([-/.]\d+)+([T\s].*)?$/.test(v) || /^-?\d{7,}$/.test(v);

/** Which order a date shows by itself: `15/3/2024` is day first, `3/15/2024` month first, `3/4/2024` either. */
export function dateOrderShown(value: string): DateOrder | "either" | null {
  const m = DAY_OR_MONTH_FIRST.exec(value.trim());
  if (!m || m[2] === ".") return null;
  const [a, b] = [Number(m[1]), Number(m[3])];
  if (a > 12 && b <= 12) return "dmy";
  if (b > 12 && a <= 12) return "mdy";
  return a <= 12 && b <= 12 ? "either" : null;
}

/** The order most of a file's unambiguous dates show; month first when none does. */
export function fileDateOrder(values: string[]): { order: DateOrder; ambiguous: boolean } {
  let dmy = 0;
  let mdy = 0;
  let either = 0;
  for (const v of values) {
    const shown = dateOrderShown(v);
    if (shown === "dmy") dmy++;
    else if (shown === "mdy") mdy++;
    else if (shown === "either") either++;
  }
  return { order: dmy > mdy ? "dmy" : "mdy", ambiguous: either > 0 && dmy === 0 && mdy === 0 };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Excel's two-digit year window: 00-29 are 2000-2029, 30-99 are 1930-1999. */
const fullYear = (y: string) => (y.length === 2 ? (Number(y) < 30 ? 2000 : 1900) + Number(y) : Number(y));

function withTime(date: string, hour?: string, minute?: string, ampm?: string) {
  if (hour === undefined) return date;
  let h = Number(hour);
  if (ampm) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (/p/i.test(ampm) ? 12 : 0);
  }
  return `${date}T${pad(h)}:${minute}`;
}

export type SheetDate = { ok: true; value: string } | { ok: false; reason: string } | null;

/** A spreadsheet's date as a story date; null when the value is not written as a date at all. */
export function readSheetDate(raw: string, order: DateOrder): SheetDate {
  const v = raw.trim();
  let story: string | null = null;
  if (parseStoryDate(v).ok) return { ok: true, value: v };
  const yearFirst = YEAR_FIRST.exec(v);
  const other = yearFirst ? null : DAY_OR_MONTH_FIRST.exec(v);
  if (yearFirst) {
    const [, y, mo, d, h, mi, , ampm] = yearFirst;
    story = withTime(`${y}-${pad(Number(mo))}-${pad(Number(d))}`, h, mi, ampm);
  } else if (other) {
    const [, a, sep, b, y, h, mi, , ampm] = other;
    // A date that shows its order by itself (15/3 or 3/15) is read that way whatever the file's order.
    const shown = dateOrderShown(v);
    const dayFirst = sep === "." || (shown === "either" || shown === null ? order === "dmy" : shown === "dmy");
    const [day, month] = dayFirst ? [a, b] : [b, a];
    story = withTime(`${pad(fullYear(y), 4)}-${pad(Number(month))}-${pad(Number(day))}`, h, mi, ampm);
  }
  if (story === null) return looksLikeDate(v) ? { ok: false, reason: "is not a date" } : null;
  const parsed = parseStoryDate(story);
  if (parsed.ok) return { ok: true, value: story };
  // Written the ISO way, the exact fault helps; written the spreadsheet's way, the date as a whole is wrong.
  return { ok: false, reason: yearFirst ? storyDateReason[parsed.reason] : "is not a date" };
}

/** The refusal for a date that cannot be read: says what to do with the column. */
export const unreadableDate = (value: string, reason: string) =>
  `date "${value}" ${reason}: use YYYY-MM-DD or the spreadsheet's date format`;
