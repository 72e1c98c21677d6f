// Story time counted in the timeline's calendar: the span a scene covers, the gap between consecutive dated scenes
// in words, and continuity clashes (one character in two places at overlapping times). Pure; the screens load it
// in a lazy chunk (with the calendar), so none of it weighs on the timeline's first paint.
import { daysBeforeYear, minutesPerDay, monthsOf, toAbsolute, toAbsoluteEnd } from "./calendar/arithmetic";
import { parseMachine } from "./calendar/machine";
import { type CalDate, type Calendar, GREGORIAN } from "./calendar/types";
import type { ContinuityFlag, StoryEntity, StoryEvent } from "./story-analysis";

/**
 * The span of story time an event covers in the timeline's calendar, in absolute minutes, `to` excluded: "2024"
 * covers the whole year, a timed date is one instant. Null when undated (or not a date of that calendar).
 */
export function storySpan(
  event: Pick<StoryEvent, "storyStart" | "storyEnd">,
  cal: Calendar = GREGORIAN,
): { from: number; to: number } | null {
  if (!event.storyStart) return null;
  const start = parseMachine(cal, event.storyStart);
  if (!start.ok) return null;
  const end = event.storyEnd ? parseMachine(cal, event.storyEnd) : start;
  const last = end.ok ? end.date : start.date;
  return { from: toAbsolute(cal, start.date), to: toAbsoluteEnd(cal, last) + (last.hour === undefined ? 1 : 0) };
}

const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

/**
 * Two events of the same character whose story times overlap but whose places differ (each links at least one
 * place and they share none): the character would be in two places at once. One flag per event and clash.
 */
export function continuityFlags(events: StoryEvent[], entities: StoryEntity[], cal: Calendar = GREGORIAN): ContinuityFlag[] {
  const byId = new Map(entities.map((e) => [e.id, e]));
  const dated = events
    .map((event) => {
      const ids = event.entityIds.map((id) => byId.get(id)).filter((e): e is StoryEntity => Boolean(e));
      return {
        event,
        span: storySpan(event, cal),
        characters: ids.filter((e) => e.kind === "character"),
        places: new Set(ids.filter((e) => e.kind === "place").map((e) => e.id)),
      };
    })
    .filter((d) => d.span && d.characters.length && d.places.size);
  const flags: ContinuityFlag[] = [];
  for (let i = 0; i < dated.length; i++) {
    for (let j = i + 1; j < dated.length; j++) {
      const a = dated[i];
      const b = dated[j];
      if (!overlaps(a.span!, b.span!) || [...a.places].some((p) => b.places.has(p))) continue;
      for (const character of a.characters) {
        if (!b.characters.some((c) => c.id === character.id)) continue;
        const placeName = (d: typeof a) => [...d.places].map((id) => byId.get(id)!.name).join(", ");
        flags.push({
          eventId: a.event.id,
          otherEventId: b.event.id,
          characterId: character.id,
          message: `${character.name} is also in ${placeName(b)} at this time ('${b.event.title}')`,
        });
        flags.push({
          eventId: b.event.id,
          otherEventId: a.event.id,
          characterId: character.id,
          message: `${character.name} is also in ${placeName(a)} at this time ('${a.event.title}')`,
        });
      }
    }
  }
  return flags;
}

/** A calendar's average year and month in days (a relative calendar counts days, or weeks of 7). */
function calendarUnits(cal: Calendar) {
  const year = daysBeforeYear(cal, 4000) / 4000;
  return { year, month: year / (monthsOf(cal).length || 1) };
}

const later = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"} later`;

/** A stretch of story time (in minutes) in the calendar's words: '3 hours later', '2 years later'. */
export function durationInWords(cal: Calendar, minutes: number) {
  if (minutes < minutesPerDay(cal))
    return minutes < 60 ? later(Math.max(1, Math.round(minutes)), "minute") : later(Math.round(minutes / 60), "hour");
  return daysInWords(cal, minutes / minutesPerDay(cal));
}

/** A number of days in the calendar's words: days, then its months and years (or a relative calendar's weeks). */
function daysInWords(cal: Calendar, days: number) {
  if (cal.kind === "relative") {
    return cal.relativeUnit === "week" && days >= 7 ? later(Math.round(days / 7), "week") : later(Math.round(days), "day");
  }
  const unit = calendarUnits(cal);
  if (days < Math.min(30, unit.month)) return later(Math.round(days), "day");
  if (days < unit.year - unit.month / 2) return later(Math.max(1, Math.round(days / unit.month)), "month");
  return later(Math.max(1, Math.round(days / unit.year)), "year");
}

/** The day a date falls on, counted from the calendar's start. */
const dayIndex = (cal: Calendar, d: CalDate) =>
  Math.floor(toAbsolute(cal, { year: d.year, month: d.month, day: d.day }) / minutesPerDay(cal));

/**
 * How the next dated event (in chronological order) follows the previous one, counted in the timeline's calendar
 * (its days, months and years): 'Overlaps', 'Same time', or the gap in words ('3 days later', '2 years later').
 * Null when either is undated.
 */
export function storyGap(
  previous: Pick<StoryEvent, "storyStart" | "storyEnd">,
  next: Pick<StoryEvent, "storyStart" | "storyEnd">,
  cal: Calendar = GREGORIAN,
) {
  const a = storySpan(previous, cal);
  const b = storySpan(next, cal);
  if (!a || !b || !previous.storyStart || !next.storyStart) return null;
  if (a.from === b.from && a.to === b.to) return "Same time";
  const prevEnd = parseMachine(cal, previous.storyEnd ?? previous.storyStart);
  const nextStart = parseMachine(cal, next.storyStart);
  if (!prevEnd.ok || !nextStart.ok) return b.from < a.to ? "Overlaps" : null;
  // A timed scene inside a day-long one overlaps it; a day-long scene after a timed one is 'the same day'.
  const dayAfterTimed = prevEnd.date.hour !== undefined && nextStart.date.hour === undefined;
  if (b.from < a.to && !dayAfterTimed) return "Overlaps";
  // A scene dated to the day beside a timed one: only the days can be compared, never the hours.
  // ("Day 3" is a whole day in a relative calendar of days.)
  const toDay = (d: CalDate) => d.day !== undefined || (cal.kind === "relative" && cal.relativeUnit !== "week");
  if (toDay(prevEnd.date) && toDay(nextStart.date)) {
    if ((prevEnd.date.hour === undefined) !== (nextStart.date.hour === undefined)) {
      const days = dayIndex(cal, nextStart.date) - dayIndex(cal, prevEnd.date);
      if (days === 0) return "The same day";
      if (days === 1) return "The next day";
      if (days > 1 && days < Math.min(30, calendarUnits(cal).month)) return `${days} days later`;
    }
  }
  if (b.from < a.to) return "Overlaps";
  // From the day the previous one ends to the day the next one starts, as a writer counts ('3 days later').
  const minutes = toAbsolute(cal, nextStart.date) - toAbsolute(cal, prevEnd.date);
  if (minutes < minutesPerDay(cal)) {
    if (minutes <= 0) return "Right after";
    return minutes < 60 ? later(minutes, "minute") : later(Math.round(minutes / 60), "hour");
  }
  return daysInWords(cal, minutes / minutesPerDay(cal));
}
