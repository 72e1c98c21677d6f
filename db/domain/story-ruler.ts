// The time ruler's arithmetic: where a dated scene sits on a horizontal axis at a zoom (pixels per day of the
// timeline's calendar), the ticks and their words, and the breaks that stand in for long empty stretches. Pure.
import { fromAbsolute, minutesPerDay, monthsOf, toAbsolute } from "./calendar/arithmetic";
import type { Calendar } from "./calendar/types";
import { dateFormat, isEnglish, localMonth, utcDate } from "./calendar/locale";
import { dateInWords } from "./calendar/words";
import { durationInWords } from "./story-gaps";

/** The zoom levels, in pixels per day: from centuries at a glance to a day across a phone's screen. */
export const ZOOM_LEVELS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256];
export const DEFAULT_ZOOM = 8;

export type TickUnit = "year" | "month" | "day";
export type Tick = { x: number; label: string; major: boolean };
/** A stretch of the axis drawn to scale: story time [from, to) starts at `x`. */
export type Segment = { from: number; to: number; x: number };
/** A long empty stretch drawn short, with its length in words. */
export type Break = { x: number; width: number; label: string };
export type RulerLayout = { segments: Segment[]; breaks: Break[]; width: number; pxPerMinute: number };

const MIN_TICK_PX = 56;
const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

/** The finest unit whose ticks stay readable at this zoom, and how many of it a tick steps over. */
export function tickUnit(cal: Calendar, pxPerDay: number): { unit: TickUnit; step: number } {
  const yearDays = monthsOf(cal).reduce((sum, m) => sum + m.days, 0);
  const months = monthsOf(cal).length;
  if (cal.kind === "relative") {
    // A relative calendar's year is its day (or week); a week's days are its "days".
    if (cal.relativeUnit === "week" && pxPerDay >= MIN_TICK_PX) return { unit: "day", step: 1 };
  } else {
    if (pxPerDay >= MIN_TICK_PX / 2) return { unit: "day", step: pxPerDay >= MIN_TICK_PX ? 1 : 2 };
    if (months > 1 && (pxPerDay * yearDays) / months >= MIN_TICK_PX) return { unit: "month", step: 1 };
  }
  const step = STEPS.find((s) => s * yearDays * pxPerDay >= MIN_TICK_PX) ?? STEPS[STEPS.length - 1];
  return { unit: "year", step };
}

/**
 * Lays scenes' spans (absolute minutes, sorted by start) on the axis: to scale, but an empty stretch wider than
 * `maxGapPx` becomes a break `breakPx` wide. `pad` pixels of margin at both ends and around each break.
 */
export function layoutRuler(
  cal: Calendar,
  spans: Array<{ from: number; to: number }>,
  pxPerDay: number,
  { maxGapPx = 240, breakPx = 112, pad = 48 } = {},
): RulerLayout {
  const pxPerMinute = pxPerDay / minutesPerDay(cal);
  const padMinutes = pad / pxPerMinute;
  const segments: Segment[] = [];
  const breaks: Break[] = [];
  let x = 0;
  let current: { from: number; to: number } | null = null;
  const close = (seg: { from: number; to: number }) => {
    const to = seg.to + padMinutes;
    segments.push({ from: seg.from - padMinutes, to, x });
    x += (to - (seg.from - padMinutes)) * pxPerMinute;
  };
  for (const span of spans) {
    if (!current) current = { from: span.from, to: Math.max(span.to, span.from) };
    else if ((span.from - current.to) * pxPerMinute > maxGapPx) {
      close(current);
      breaks.push({ x, width: breakPx, label: durationInWords(cal, span.from - current.to) });
      x += breakPx;
      current = { from: span.from, to: Math.max(span.to, span.from) };
    } else current.to = Math.max(current.to, span.to);
  }
  if (current) close(current);
  return { segments, breaks, width: Math.ceil(x), pxPerMinute };
}

/** Where a moment sits on the axis (a moment in a break sits at the break's start). */
export function xOf(layout: RulerLayout, minute: number): number {
  const { segments } = layout;
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segments[mid].from <= minute) lo = mid;
    else hi = mid - 1;
  }
  const seg = segments[lo];
  if (!seg) return 0;
  return seg.x + (Math.min(Math.max(minute, seg.from), seg.to) - seg.from) * layout.pxPerMinute;
}

/** The moment at a place on the axis (inverse of xOf inside a segment). */
export function minuteAt(layout: RulerLayout, x: number): number {
  const seg = [...layout.segments].reverse().find((s) => s.x <= x) ?? layout.segments[0];
  if (!seg) return 0;
  return Math.min(seg.from + (x - seg.x) / layout.pxPerMinute, seg.to);
}

/**
 * A tick's words: the year ("1203 AR", "Day 3"), the month ("Snowmoon", its year on the first), the day. A
 * Gregorian calendar read in another language names its months in that language ("Oktober", "1. Oktober").
 */
function tickLabel(cal: Calendar, unit: TickUnit, d: { year: number; month: number; day: number }, locale?: string) {
  const local = cal.kind === "gregorian" && locale && !isEnglish(locale) ? locale : undefined;
  const month = () => (local ? localMonth(local, d.month) : (monthsOf(cal)[d.month - 1]?.name ?? String(d.month)));
  if (unit === "year") return dateInWords(cal, { year: d.year }, { locale });
  if (unit === "month") return d.month === 1 ? dateInWords(cal, { year: d.year, month: 1 }, { locale }) : month();
  if (cal.kind === "relative") return d.day === 1 ? dateInWords(cal, { year: d.year }) : `day ${d.day}`;
  if (d.day !== 1) return String(d.day);
  return local ? dateFormat(local, { day: "numeric", month: "long" }).format(utcDate(2000, d.month, 1) ?? 0) : `1 ${month()}`;
}

/** The next tick's date after `d` in `unit` steps of `step`. */
function nextTick(cal: Calendar, unit: TickUnit, step: number, d: { year: number; month: number; day: number }) {
  if (unit === "year") return { year: d.year + step, month: 1, day: 1 };
  if (unit === "month")
    return d.month >= monthsOf(cal).length ? { year: d.year + 1, month: 1, day: 1 } : { ...d, month: d.month + 1, day: 1 };
  return fromAbsolute(cal, toAbsolute(cal, d) + step * minutesPerDay(cal));
}

/** The ticks between two places on the axis (the visible window), at most `limit` of them. */
export function ticksBetween(
  cal: Calendar,
  layout: RulerLayout,
  pxPerDay: number,
  left: number,
  right: number,
  limit = 400,
  locale?: string,
): Tick[] {
  const { unit, step } = tickUnit(cal, pxPerDay);
  const ticks: Tick[] = [];
  for (const seg of layout.segments) {
    const segEnd = seg.x + (seg.to - seg.from) * layout.pxPerMinute;
    if (segEnd < left || seg.x > right) continue;
    const from = Math.max(seg.from, minuteAt(layout, Math.max(left, seg.x)));
    const to = Math.min(seg.to, seg.from + (right - seg.x) / layout.pxPerMinute);
    const first = fromAbsolute(cal, from);
    let d =
      unit === "year"
        ? { year: Math.ceil(first.year / step) * step, month: 1, day: 1 }
        : unit === "month"
          ? nextTick(cal, "month", 1, { year: first.year, month: first.month, day: 1 })
          : { year: first.year, month: first.month, day: first.day };
    if (unit === "month" && toAbsolute(cal, { year: first.year, month: first.month }) >= from)
      d = { year: first.year, month: first.month, day: 1 };
    for (let at = toAbsolute(cal, d); at < to && ticks.length < limit; at = toAbsolute(cal, d)) {
      if (at >= from) {
        const major = unit === "year" || (unit === "month" ? d.month === 1 : d.day === 1);
        ticks.push({ x: xOf(layout, at), label: tickLabel(cal, unit, d, locale), major });
      }
      d = nextTick(cal, unit, step, d);
    }
  }
  return ticks;
}

export type Placed = { id: number; x: number; width: number; row: number };

/**
 * Each scene's place: its start's x, its span's width (at least a marker's), and a row so that labels of
 * `labelPx` never cover each other (the first row free at its x).
 */
export function placeScenes(layout: RulerLayout, scenes: Array<{ id: number; from: number; to: number }>, labelPx = 168): Placed[] {
  const rowEnds: number[] = [];
  return scenes.map((scene) => {
    const x = xOf(layout, scene.from);
    const width = Math.max(8, xOf(layout, scene.to) - x);
    let row = rowEnds.findIndex((end) => end <= x);
    if (row < 0) row = rowEnds.length;
    rowEnds[row] = x + Math.max(width, labelPx) + 8;
    return { id: scene.id, x, width, row };
  });
}
