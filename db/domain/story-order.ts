// The orders a timeline's events are shown in, for the server's first screenful and the browser's lists alike.

/** How many events a server render carries: the first screenful (the rest comes from the API after hydration). */
export const FIRST_SCREEN_EVENTS = 24;

type Ordered = { id: number; position: number; storyStart: string | null };

/** The stored machine form of a story date in any calendar, `[-]Y[-MM[-DD[THH:mm]]]` (calendar/machine.ts). */
const STORED_DATE = /^(-?)(\d{1,6})(?:-(\d{2,3})(?:-(\d{2,4})(?:T(\d{2}):(\d{2}))?)?)?$/;

/** A stored date's parts, read without a calendar (any calendar's machine form); null when undated. */
export type StoredParts = { year: number; month?: number; day?: number; hour?: number; minute?: number };

export function storedParts(value: string | null | undefined): StoredParts | null {
  const m = value ? STORED_DATE.exec(value) : null;
  if (!m) return null;
  const parts: StoredParts = { year: (m[1] ? -1 : 1) * Number(m[2]) };
  if (m[3] !== undefined) parts.month = Number(m[3]);
  if (m[4] !== undefined) parts.day = Number(m[4]);
  if (m[5] !== undefined) [parts.hour, parts.minute] = [Number(m[5]), Number(m[6])];
  return parts;
}

/** The parts as one number in time order; missing parts count as the first ("lower") or the last ("upper"). */
function partsKey(p: StoredParts, fill: "lower" | "upper") {
  const low = fill === "lower";
  const [month, day, hour, minute] = [
    p.month ?? (low ? 1 : 100),
    p.day ?? (low ? 1 : 1000),
    p.hour ?? (low ? 0 : 99),
    p.minute ?? (low ? 0 : 59),
  ];
  return (((p.year * 101 + month) * 1001 + day) * 100 + hour) * 60 + minute;
}

/**
 * A story date's place in story time, for ordering only: its parts in order (year, month, day, hour, minute), which
 * orders dates as the calendar does whatever its months and days are (up to 100 months of up to 1000 days). The
 * database orders by the calendar's absolute position (`events.story_sort`), which is the same order. Null when
 * undated.
 */
export function storyOrderKey(value: string | null | undefined): number | null {
  const p = storedParts(value);
  return p ? partsKey(p, "lower") : null;
}

/** The first and last instants a date covers ("1203" covers the whole year), in `storyOrderKey`'s scale. */
export function storyOrderSpan(value: string | null | undefined): { from: number; to: number } | null {
  const p = storedParts(value);
  return p ? { from: partsKey(p, "lower"), to: partsKey(p, "upper") } : null;
}

/**
 * Chronological order: by the story start's place in story time (`storyOrderKey`), undated last, then story
 * order; a list sorted here matches the server's.
 */
export function sortChronologically<T extends Ordered>(list: T[]): T[] {
  const keyed = list.map((event) => ({ event, key: storyOrderKey(event.storyStart) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else if (a.key !== b.key) return a.key - b.key;
    return a.event.position - b.event.position || a.event.id - b.event.id;
  });
  return keyed.map((k) => k.event);
}
