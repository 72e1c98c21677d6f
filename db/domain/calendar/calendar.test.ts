import { describe, expect, it } from "vitest";
import {
  type CalDate,
  type Calendar,
  GREGORIAN,
  PRESETS,
  dateInWords,
  daysInMonth,
  formatMachine,
  fromAbsolute,
  isLeapYear,
  parseStoryText,
  readStoryInput,
  samePrecision,
  storyDisplay,
  toAbsolute,
  validateCalendar,
} from "./index";

/** A small seeded generator (mulberry32), so a failing case is reproducible from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (r: () => number, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

function customCalendar(r: () => number): Calendar {
  const months = Array.from({ length: int(r, 1, 20) }, (_, i) => ({ name: `M${i}`, days: int(r, 1, r() < 0.2 ? 1000 : 40) }));
  return {
    kind: "custom",
    months,
    weekdays: [],
    eras: [
      { name: "Before", abbreviation: "BF", direction: "backward", startYear: int(r, -50, 50) },
      { name: "After", abbreviation: "AF", direction: "forward", startYear: int(r, 51, 500) },
    ],
    leap: r() < 0.5 ? { every: int(r, 1, 10), month: int(r, 1, months.length) } : null,
    hoursPerDay: int(r, 1, 100),
    relativeUnit: null,
    seasons: [],
  };
}

function fullDate(r: () => number, cal: Calendar): Required<CalDate> {
  const year = int(r, -99999, 99999);
  const months = cal.kind === "relative" ? 1 : cal.months.length;
  const month = int(r, 1, months);
  const day = int(r, 1, daysInMonth(cal, year, month));
  const hours = cal.kind === "relative" ? 24 : cal.hoursPerDay;
  return { year, month, day, hour: int(r, 0, hours - 1), minute: int(r, 0, 59) };
}

const calendars: Array<[string, Calendar]> = Object.values(PRESETS).map((p) => [p.label, p.calendar]);

describe("calendar arithmetic", () => {
  it.each(calendars)("date → absolute → date is the identity (%s), and absolute order is date order", (_, cal) => {
    const r = random(31);
    for (let i = 0; i < 400; i++) {
      const date = fullDate(r, cal);
      expect(fromAbsolute(cal, toAbsolute(cal, date))).toEqual(date);
      const next = fromAbsolute(cal, toAbsolute(cal, date) + 1);
      expect(toAbsolute(cal, next)).toBe(toAbsolute(cal, date) + 1);
      // The machine form and the words read back as the same date.
      expect(parseStoryText(cal, formatMachine(date), "Start")).toEqual({ ok: true, date });
      expect(parseStoryText(cal, dateInWords(cal, date), "Start")).toEqual({ ok: true, date });
    }
  });

  it("holds for generated custom calendars, at every precision", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const r = random(seed);
      const cal = customCalendar(r);
      expect(validateCalendar(cal), `seed ${seed}`).toEqual({ ok: true, calendar: cal });
      for (let i = 0; i < 40; i++) {
        const date = fullDate(r, cal);
        expect(fromAbsolute(cal, toAbsolute(cal, date)), `seed ${seed}`).toEqual(date);
        for (const like of [{ year: 0 }, { year: 0, month: 1 }, { year: 0, month: 1, day: 1 }, date]) {
          const cut = samePrecision(date, like);
          expect(parseStoryText(cal, dateInWords(cal, cut), "Start"), `seed ${seed} ${dateInWords(cal, cut)}`).toEqual({
            ok: true,
            date: cut,
          });
        }
        const other = fullDate(r, cal);
        const order = Math.sign(toAbsolute(cal, date) - toAbsolute(cal, other));
        const lexical = Math.sign(
          date.year - other.year ||
            date.month - other.month ||
            date.day - other.day ||
            date.hour - other.hour ||
            date.minute - other.minute,
        );
        expect(order, `seed ${seed}`).toBe(lexical);
      }
    }
  });

  it("counts leap years: Gregorian 100/400, and a custom rule's month gains a day", () => {
    expect([1900, 2000, 2024, 2023, 0, -4, -100].map((y) => isLeapYear(GREGORIAN, y))).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
    const cal = PRESETS.thirtyPlusFive.calendar;
    expect(toAbsolute(cal, { year: 5 }) - toAbsolute(cal, { year: 4 })).toBe(366 * 1440);
    expect(toAbsolute(cal, { year: 6 }) - toAbsolute(cal, { year: 5 })).toBe(365 * 1440);
    expect(readStoryInput(cal, "6 Festival 4 AR", "Start")).toEqual({ ok: true, stored: "4-13-06" });
    expect(readStoryInput(cal, "6 Festival 5 AR", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like 14 Month 1 1203 AR",
    });
    expect(toAbsolute(GREGORIAN, { year: 2001 }) - toAbsolute(GREGORIAN, { year: 2000 })).toBe(366 * 1440);
  });

  it("counts backward eras down: year 0 is 1 BC, and 451 BC comes before 1 BC", () => {
    expect(storyDisplay(GREGORIAN, "0")).toBe("1 BC");
    expect(storyDisplay(GREGORIAN, "-450-03-15")).toBe("15 March 451 BC");
    expect(readStoryInput(GREGORIAN, "15 March 451 BC", "Start")).toEqual({ ok: true, stored: "-450-03-15" });
    expect(toAbsolute(GREGORIAN, { year: -450 })).toBeLessThan(toAbsolute(GREGORIAN, { year: 0 }));
    const moons = PRESETS.thirteen.calendar;
    expect(readStoryInput(moons, "3 Frostmoon 10 BR", "Start")).toEqual({ ok: true, stored: "-9-01-03" });
    expect(storyDisplay(moons, "-9-01-03")).toBe("3 Frostmoon 10 BR");
  });
});

describe("story dates in words", () => {
  it.each([
    ["13 Oct 2031 9am", "2031-10-13T09:00", "13 October 2031, 9:00"],
    ["13 October 2031, 9:00", "2031-10-13T09:00", "13 October 2031, 9:00"],
    ["October 13, 2031 at 9:30 pm", "2031-10-13T21:30", "13 October 2031, 21:30"],
    ["2031-10-13", "2031-10-13", "13 October 2031"],
    ["October 2031", "2031-10", "October 2031"],
    ["2031", "2031", "2031"],
    ["13th of october 2031 noon", "2031-10-13T12:00", "13 October 2031, 12:00"],
  ])("Gregorian reads %s", (typed, stored, words) => {
    expect(readStoryInput(GREGORIAN, typed, "Start")).toEqual({ ok: true, stored });
    expect(storyDisplay(GREGORIAN, stored)).toBe(words);
  });

  it.each([
    ["14 Frostmoon 1203 AR", "1203-01-14", "14 Frostmoon 1203 AR"],
    ["14 frost 1203", "1203-01-14", "14 Frostmoon 1203 AR"],
    ["Darkmoon 1203 After Reckoning", "1203-13", "Darkmoon 1203 AR"],
    ["28 Darkmoon 1203 AR, dusk", "1203-13-28T18:00", "28 Darkmoon 1203 AR, 18:00"],
  ])("13 × 28 reads %s", (typed, stored, words) => {
    const cal = PRESETS.thirteen.calendar;
    expect(readStoryInput(cal, typed, "Start")).toEqual({ ok: true, stored });
    expect(storyDisplay(cal, stored)).toBe(words);
  });

  it.each([
    ["Day 3", "3", "Day 3"],
    ["day 3, dusk", "3-01-01T18:00", "Day 3, dusk"],
    ["Day 12 dawn", "12-01-01T06:00", "Day 12, dawn"],
    ["Day 1, 7:15", "1-01-01T07:15", "Day 1, 7:15"],
    ["Day -2, midnight", "-2-01-01T00:00", "Day -2, midnight"],
  ])("Day N reads %s", (typed, stored, words) => {
    const cal = PRESETS.dayN.calendar;
    expect(readStoryInput(cal, typed, "Start")).toEqual({ ok: true, stored });
    expect(storyDisplay(cal, stored)).toBe(words);
  });

  it("refuses with an example in the calendar's own words, or the precise machine reason", () => {
    const moons = PRESETS.thirteen.calendar;
    expect(parseStoryText(GREGORIAN, "13 Smarch 2031", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like 13 October 2031, 9:00",
    });
    expect(parseStoryText(GREGORIAN, "31 February 2031", "End")).toEqual({
      ok: false,
      error: "Story end must be a date like 13 October 2031, 9:00",
    });
    expect(parseStoryText(GREGORIAN, "13 Oct 2031 13pm", "Start").ok).toBe(false);
    expect(parseStoryText(GREGORIAN, "2031-13", "Start")).toEqual({ ok: false, error: "Start has a month outside 01-12" });
    expect(parseStoryText(moons, "2031-14", "Start")).toEqual({ ok: false, error: "Start has a month outside 01-13" });
    expect(parseStoryText(moons, "29 Frostmoon 1203 AR", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like 14 Frostmoon 1203 AR",
    });
    expect(parseStoryText(PRESETS.dayN.calendar, "13 October", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like Day 3, dusk",
    });
    expect(parseStoryText(GREGORIAN, "x".repeat(5000), "Start").ok).toBe(false);
  });
});

describe("validateCalendar", () => {
  it.each([
    [null, "A calendar must be an object"],
    [{ kind: "lunar" }, "Calendar kind must be gregorian, custom or relative"],
    [{ kind: "custom", months: [] }, "A calendar needs at least one month"],
    [{ kind: "custom", months: [{ name: "A", days: 0 }] }, "A month has 1-1000 days"],
    [{ kind: "custom", months: [{ name: "A", days: 1001 }] }, "A month has 1-1000 days"],
    [{ kind: "custom", months: [{ name: "x".repeat(41), days: 3 }] }, "Each month needs a name of 1-40 characters"],
    [{ kind: "custom", months: Array(101).fill({ name: "A", days: 1 }) }, "A calendar can have at most 100 months"],
    [{ kind: "custom", months: [{ name: "A", days: 3 }], hoursPerDay: 101 }, "Hours per day must be a whole number from 1 to 100"],
    [
      { kind: "custom", months: [{ name: "A", days: 3 }], leap: { every: 4, month: 2 } },
      "A leap rule's month must be one of the calendar's months",
    ],
    [
      { kind: "custom", months: [{ name: "A", days: 3 }], eras: [{ name: "E", abbreviation: "E", direction: "up", startYear: 1 }] },
      "An era counts forward or backward",
    ],
    [{ kind: "relative", relativeUnit: "month" }, "Relative unit must be day or week"],
  ])("refuses %j", (input, error) => {
    expect(validateCalendar(input)).toEqual({ ok: false, error });
  });
});
