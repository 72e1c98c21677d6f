import { describe, expect, it } from "vitest";
import { toAbsolute } from "./calendar/arithmetic";
import { type Calendar, GREGORIAN, PRESETS } from "./calendar/types";
import { layoutRuler, placeScenes, tickUnit, ticksBetween, xOf, ZOOM_LEVELS } from "./story-ruler";

const moons = PRESETS.thirteen.calendar;
const day = (cal: Calendar, year: number, month: number, d: number) => {
  const from = toAbsolute(cal, { year, month, day: d });
  return { from, to: from + 1440 };
};

describe("the ruler's scale", () => {
  it("zooms from years to months to days, counting the calendar's own months", () => {
    const units = ZOOM_LEVELS.map((z) => tickUnit(moons, z).unit);
    expect(units[0]).toBe("year");
    expect(units.at(-1)).toBe("day");
    expect(units.indexOf("month")).toBeGreaterThan(units.lastIndexOf("year"));
    expect(units.indexOf("day")).toBeGreaterThan(units.lastIndexOf("month"));
    // A 28-day month is 56 px wide at 2 px a day: months; 30.4-day Gregorian months are too, a little earlier.
    expect(tickUnit(moons, 2)).toEqual({ unit: "month", step: 1 });
    expect(tickUnit(moons, 1.9).unit).toBe("year");
    expect(tickUnit(GREGORIAN, 1.9).unit).toBe("month");
    // Far out, years step over 10s and 100s so their labels do not collide.
    expect(tickUnit(moons, 0.002)).toEqual({ unit: "year", step: 100 });
    expect(tickUnit(PRESETS.dayN.calendar, 64)).toEqual({ unit: "year", step: 1 });
  });

  it("places scenes at their true distance, and breaks a long empty stretch with its length in words", () => {
    const spans = [day(moons, 1203, 1, 1), day(moons, 1203, 1, 3), day(moons, 1203, 1, 9), day(moons, 1206, 1, 9)];
    const layout = layoutRuler(moons, spans, 16);
    const xs = spans.map((s) => xOf(layout, s.from));
    expect(xs[1] - xs[0]).toBeCloseTo(32);
    expect((xs[2] - xs[0]) / (xs[1] - xs[0])).toBeCloseTo(4);
    expect(layout.breaks).toEqual([{ x: expect.any(Number), width: 112, label: "3 years later" }]);
    expect(xs[3] - xs[2]).toBeLessThan(112 + 2 * 48 + 20);
    const placed = placeScenes(
      layout,
      spans.map((s, i) => ({ id: i, ...s })),
    );
    expect(placed.map((p) => p.row)).toEqual([0, 1, 2, 0]);
    // Zoomed out, nothing is far enough apart to break.
    expect(layoutRuler(moons, spans, 0.05).breaks).toEqual([]);
  });

  it("labels ticks in the calendar's words", () => {
    const spans = [day(moons, 1202, 13, 20), day(moons, 1203, 2, 10)];
    const months = layoutRuler(moons, spans, 4);
    const labels = ticksBetween(moons, months, 4, 0, months.width).map((t) => t.label);
    expect(labels).toEqual(["Frostmoon 1203 AR", "Snowmoon"]);
    const days = layoutRuler(moons, [day(moons, 1203, 1, 27), day(moons, 1203, 2, 2)], 64);
    const dayLabels = ticksBetween(moons, days, 64, 0, days.width).map((t) => t.label);
    expect(dayLabels).toEqual(["27", "28", "1 Snowmoon", "2", "3"]);
    const years = layoutRuler(moons, [day(moons, 1201, 5, 1), day(moons, 1203, 5, 1)], 0.25);
    expect(ticksBetween(moons, years, 0.25, 0, years.width).map((t) => t.label)).toEqual(["1201 AR", "1202 AR", "1203 AR"]);
    const relative = PRESETS.dayN.calendar;
    const dayN = layoutRuler(
      relative,
      [
        { from: 3 * 1440, to: 4 * 1440 },
        { from: 5 * 1440, to: 6 * 1440 },
      ],
      64,
    );
    expect(ticksBetween(relative, dayN, 64, 0, dayN.width).map((t) => t.label)).toEqual(["Day 3", "Day 4", "Day 5", "Day 6"]);
  });

  it("names a Gregorian calendar's months in the reader's language, and keeps English as it was", () => {
    const greg = PRESETS.gregorian.calendar;
    const days = layoutRuler(greg, [day(greg, 2031, 9, 29), day(greg, 2031, 9, 30), day(greg, 2031, 10, 1), day(greg, 2031, 10, 2)], 64);
    const german = ticksBetween(greg, days, 64, 0, days.width, 400, "de-DE").map((t) => t.label);
    expect(german).toContain("1. Oktober");
    expect(german).not.toContain("1 October");
    expect(ticksBetween(greg, days, 64, 0, days.width, 400, "en-GB").map((t) => t.label)).toContain("1 October");
    const months = layoutRuler(greg, [day(greg, 2030, 12, 1), day(greg, 2031, 1, 10), day(greg, 2031, 2, 20)], 4);
    const french = ticksBetween(greg, months, 4, 0, months.width, 400, "fr-FR").map((t) => t.label);
    expect(french).toEqual(expect.arrayContaining(["janvier 2031", "février"]));
    // A custom calendar's month names are the writer's own.
    const moonDays = layoutRuler(moons, [day(moons, 1203, 1, 27), day(moons, 1203, 2, 2)], 64);
    expect(ticksBetween(moons, moonDays, 64, 0, moonDays.width, 400, "de-DE").map((t) => t.label)).toContain("1 Snowmoon");
  });
});
