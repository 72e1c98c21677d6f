// Is a calendar one we can count with? Messages in the product's words; the first problem wins.
import { GREGORIAN, type Calendar, type Season } from "./types";

export const calendarLimits = { items: 100, name: 40, monthDays: 1000, hours: 100, year: 999999, seasons: 12 } as const;

type Result = { ok: true; calendar: Calendar } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number): v is number => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const isName = (v: unknown): v is string => typeof v === "string" && v.trim().length > 0 && v.trim().length <= calendarLimits.name;

/** Checks a calendar sent by a writer and returns it cleaned (names trimmed, unknown fields dropped). */
export function validateCalendar(input: unknown): Result {
  const fail = (error: string): Result => ({ ok: false, error });
  if (!isObject(input)) return fail("A calendar must be an object");
  const { kind } = input;
  if (kind !== "gregorian" && kind !== "custom" && kind !== "relative") return fail("Calendar kind must be gregorian, custom or relative");
  if (kind === "gregorian") {
    const seasons = validateSeasons(input.seasons ?? GREGORIAN.seasons, GREGORIAN.months, kind);
    return typeof seasons === "string" ? fail(seasons) : { ok: true, calendar: { ...GREGORIAN, seasons } };
  }
  const { items, name, monthDays, hours, year } = calendarLimits;
  const months = input.months ?? [];
  const weekdays = input.weekdays ?? [];
  const eras = input.eras ?? [];
  if (!Array.isArray(months) || !Array.isArray(weekdays) || !Array.isArray(eras)) return fail("Months, weekdays and eras must be lists");
  if (months.length > items) return fail(`A calendar can have at most ${items} months`);
  if (weekdays.length > items) return fail(`A calendar can have at most ${items} weekdays`);
  if (eras.length > items) return fail(`A calendar can have at most ${items} eras`);
  if (kind === "custom" && months.length === 0) return fail("A calendar needs at least one month");
  for (const m of months) {
    if (!isObject(m) || !isName(m.name)) return fail(`Each month needs a name of 1-${name} characters`);
    if (!isInt(m.days, 1, monthDays)) return fail(`A month has 1-${monthDays} days`);
  }
  if (!weekdays.every(isName)) return fail(`Each weekday needs a name of 1-${name} characters`);
  for (const e of eras) {
    if (!isObject(e) || !isName(e.name) || !isName(e.abbreviation))
      return fail(`Each era needs a name and an abbreviation of 1-${name} characters`);
    if (e.direction !== "forward" && e.direction !== "backward") return fail("An era counts forward or backward");
    if (!isInt(e.startYear, -year, year)) return fail(`An era starts in a whole year between -${year} and ${year}`);
  }
  const hoursPerDay = input.hoursPerDay ?? 24;
  if (!isInt(hoursPerDay, 1, hours)) return fail(`Hours per day must be a whole number from 1 to ${hours}`);
  let leap: Calendar["leap"] = null;
  if (input.leap != null) {
    const l = input.leap;
    if (!isObject(l) || !isInt(l.every, 1, 1000)) return fail("A leap rule needs every (1-1000 years)");
    if (!isInt(l.month, 1, Math.max(months.length, 1))) return fail("A leap rule's month must be one of the calendar's months");
    leap = { every: l.every, month: l.month };
  }
  const relativeUnit = input.relativeUnit ?? (kind === "relative" ? "day" : null);
  if (relativeUnit !== null && relativeUnit !== "day" && relativeUnit !== "week") return fail("Relative unit must be day or week");
  const seasons = validateSeasons(input.seasons ?? [], months as Calendar["months"], kind);
  if (typeof seasons === "string") return fail(seasons);
  return {
    ok: true,
    calendar: {
      kind,
      months: months.map((m) => ({ name: String(m.name).trim(), days: Number(m.days) })),
      weekdays: weekdays.map((w) => String(w).trim()),
      eras: eras.map((e) => ({
        name: String(e.name).trim(),
        abbreviation: String(e.abbreviation).trim(),
        direction: e.direction,
        startYear: Number(e.startYear),
      })),
      leap: kind === "relative" ? null : leap,
      hoursPerDay: kind === "relative" ? 24 : hoursPerDay,
      relativeUnit: kind === "relative" ? relativeUnit : null,
      seasons,
    },
  };
}

/** The seasons cleaned, or the first problem with them. The months are already checked. */
function validateSeasons(input: unknown, months: Calendar["months"], kind: Calendar["kind"]): Season[] | string {
  if (!Array.isArray(input)) return "Seasons must be a list";
  if (input.length === 0) return [];
  if (kind === "relative") return "A calendar of days or weeks has no seasons";
  if (input.length > calendarLimits.seasons) return `A calendar can have at most ${calendarLimits.seasons} seasons`;
  const monthNames = new Set(months.map((m) => String(m.name).trim().toLowerCase()));
  const seen = new Set<string>();
  const starts = new Set<number>();
  const seasons: Season[] = [];
  for (const s of input) {
    const name = isObject(s) && typeof s.name === "string" ? s.name.trim() : "";
    if (!name) return "Each season needs a name";
    if (name.length > calendarLimits.name) return `A season's name can be at most ${calendarLimits.name} characters`;
    if (!isObject(s) || !isInt(s.startMonth, 1, months.length)) return "A season must start in one of the calendar's months";
    const key = name.toLowerCase();
    if (seen.has(key)) return "Two seasons cannot have the same name";
    if (monthNames.has(key)) return "A season cannot have a month's name";
    if (starts.has(s.startMonth)) return "Two seasons cannot start in the same month";
    seen.add(key);
    starts.add(s.startMonth);
    seasons.push({ name, startMonth: s.startMonth });
  }
  return seasons;
}

/** True when two calendars place the same stored dates differently (months, lengths, leap, day length). */
export function structureChanged(a: Calendar, b: Calendar) {
  const shape = (c: Calendar) =>
    JSON.stringify([
      c.kind,
      c.months.map((m) => m.days),
      c.leap,
      c.hoursPerDay,
      c.relativeUnit,
      c.eras.map((e) => [e.direction, e.startYear]),
    ]);
  return shape(a) !== shape(b);
}
