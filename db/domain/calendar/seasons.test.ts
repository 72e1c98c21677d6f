import { describe, expect, it } from "vitest";
import { type Calendar, GREGORIAN, PRESETS, parseStoryText, readStoryInput, storyDisplay, storySort, validateCalendar } from "./index";

const moons = PRESETS.thirteen.calendar;

describe("seasons", () => {
  it.each([
    ["spring 1203", "1203-03", "Spring 1203"],
    ["Summer 2031", "2031-06", "Summer 2031"],
    ["AUTUMN of 1999", "1999-09", "Autumn 1999"],
    ["winter 451 BC", "-450-12", "Winter 451 BC"],
  ])("Gregorian reads %s at month precision and shows the season", (typed, stored, words) => {
    expect(readStoryInput(GREGORIAN, typed, "Start")).toEqual({ ok: true, stored });
    expect(storyDisplay(GREGORIAN, stored, { typed })).toBe(words);
    // Without the typed text (or with other text) the month reads as it always did.
    expect(storyDisplay(GREGORIAN, stored)).not.toBe(words);
  });

  it.each([
    ["spring 1203", "1203-03", "Spring 1203 AR"],
    ["Spring 1203 AR", "1203-03", "Spring 1203 AR"],
    ["winter 1203 after reckoning", "1203-12", "Winter 1203 AR"],
    ["Autumn 10 BR", "-9-09", "Autumn 10 BR"],
  ])("13 × 28 reads %s", (typed, stored, words) => {
    expect(readStoryInput(moons, typed, "Start")).toEqual({ ok: true, stored });
    expect(storyDisplay(moons, stored, { typed })).toBe(words);
  });

  it("stores a winter that crosses into the next year in the year it begins; shows the season only while it still reads so", () => {
    const winter = readStoryInput(moons, "winter 1203", "Start");
    const next = readStoryInput(moons, "2 Frostmoon 1204 AR", "Start");
    const autumn = readStoryInput(moons, "autumn 1203", "Start");
    if (!winter.ok || !next.ok || !autumn.ok) throw new Error("unread");
    expect(winter.stored).toBe("1203-12");
    expect(storySort(moons, autumn.stored)).toBeLessThan(storySort(moons, winter.stored) ?? 0);
    expect(storySort(moons, winter.stored)).toBeLessThan(storySort(moons, next.stored) ?? 0);
    // A backward era counts down: winter 10 BR comes before spring 9 BR.
    const early = readStoryInput(moons, "winter 10 BR", "Start");
    const later = readStoryInput(moons, "spring 9 BR", "Start");
    if (!early.ok || !later.ok) throw new Error("unread");
    expect(storySort(moons, early.stored)).toBeLessThan(storySort(moons, later.stored) ?? 0);
    // The season shows while the typed text still gives the stored date; otherwise the month does.
    const moved: Calendar = { ...moons, seasons: [{ name: "Spring", startMonth: 4 }] };
    expect(storyDisplay(moved, "1203-03", { typed: "spring 1203" })).toBe("Thawmoon 1203 AR");
    expect(storyDisplay(moons, "1203-04", { typed: "spring 1203" })).toBe("Seedmoon 1203 AR");
    expect(storyDisplay(moons, "1203-03", { typed: "Thawmoon 1203" })).toBe("Thawmoon 1203 AR");
    // A season the calendar lacks, or one with a day or time, is refused with the usual example.
    const plain = PRESETS.thirtyPlusFive.calendar;
    expect(parseStoryText(plain, "spring 1203", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like 14 Month 1 1203 AR",
    });
    expect(parseStoryText(moons, "monsoon 1203", "Start")).toEqual({
      ok: false,
      error: "Story start must be a date like 14 Frostmoon 1203 AR",
    });
    expect(parseStoryText(GREGORIAN, "spring 2031 9am", "Start").ok).toBe(false);
    expect(parseStoryText(GREGORIAN, "spring 0 BC", "Start").ok).toBe(false);
    expect(parseStoryText(PRESETS.dayN.calendar, "spring 3", "Start").ok).toBe(false);
  });
});

describe("validating seasons", () => {
  const custom = {
    kind: "custom",
    months: [
      { name: "Frostmoon", days: 28 },
      { name: "Sunmoon", days: 30 },
    ],
  };
  it.each([
    [{ ...custom, seasons: "spring" }, "Seasons must be a list"],
    [{ ...custom, seasons: [{ name: " ", startMonth: 1 }] }, "Each season needs a name"],
    [{ ...custom, seasons: [{ startMonth: 1 }] }, "Each season needs a name"],
    [{ ...custom, seasons: [{ name: "x".repeat(41), startMonth: 1 }] }, "A season's name can be at most 40 characters"],
    [{ ...custom, seasons: [{ name: "Thaw", startMonth: 3 }] }, "A season must start in one of the calendar's months"],
    [{ ...custom, seasons: [{ name: "Thaw", startMonth: 1.5 }] }, "A season must start in one of the calendar's months"],
    [
      {
        ...custom,
        seasons: [
          { name: "Thaw", startMonth: 1 },
          { name: "thaw", startMonth: 2 },
        ],
      },
      "Two seasons cannot have the same name",
    ],
    [
      {
        ...custom,
        seasons: [
          { name: "Thaw", startMonth: 1 },
          { name: "Blaze", startMonth: 1 },
        ],
      },
      "Two seasons cannot start in the same month",
    ],
    [{ ...custom, seasons: [{ name: "sunmoon", startMonth: 1 }] }, "A season cannot have a month's name"],
    [
      { kind: "gregorian", seasons: Array.from({ length: 13 }, (_, i) => ({ name: `S${i}`, startMonth: 1 })) },
      "A calendar can have at most 12 seasons",
    ],
    [{ kind: "gregorian", seasons: [{ name: "Dry", startMonth: 13 }] }, "A season must start in one of the calendar's months"],
    [{ kind: "relative", seasons: [{ name: "Dry", startMonth: 1 }] }, "A calendar of days or weeks has no seasons"],
  ])("refuses %j", (input, error) => {
    expect(validateCalendar(input)).toEqual({ ok: false, error });
  });

  it("keeps named seasons trimmed; absent is the kind's default (Gregorian's four, none otherwise)", () => {
    expect(validateCalendar({ kind: "gregorian" })).toEqual({ ok: true, calendar: GREGORIAN });
    expect(GREGORIAN.seasons.map((s) => [s.name, s.startMonth])).toEqual([
      ["Spring", 3],
      ["Summer", 6],
      ["Autumn", 9],
      ["Winter", 12],
    ]);
    const south = validateCalendar({ kind: "gregorian", seasons: [{ name: " Spring ", startMonth: 9 }] });
    expect(south).toEqual({ ok: true, calendar: { ...GREGORIAN, seasons: [{ name: "Spring", startMonth: 9 }] } });
    const old = validateCalendar(custom);
    expect(old.ok && old.calendar.seasons).toEqual([]);
    expect(validateCalendar(moons)).toEqual({ ok: true, calendar: moons });
  });
});
