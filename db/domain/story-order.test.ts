import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Calendar, PRESETS, daysInMonth, formatMachine, monthsOf, storySort } from "./calendar";
import { sortChronologically, storyOrderKey } from "./story-order";

// The browser orders a timeline's scenes by `storyOrderKey`; the database by the calendar's absolute position
// (`storySort`). Both must give the same order in every calendar, or scenes jump when the full list arrives.

/** A stored date valid in the calendar, at any precision. */
const storedDate = (cal: Calendar) =>
  fc
    .record({
      year: fc.integer({ min: -3000, max: 3000 }),
      month: fc.nat(),
      day: fc.nat(),
      hour: fc.nat(),
      minute: fc.integer({ min: 0, max: 59 }),
      precision: fc.integer({ min: 0, max: 3 }),
    })
    .map(({ year, month, day, hour, minute, precision }) => {
      const months = monthsOf(cal).length;
      if (precision === 0 || months === 0) return formatMachine({ year });
      const m = (month % months) + 1;
      if (precision === 1) return formatMachine({ year, month: m });
      const d = (day % daysInMonth(cal, year, m)) + 1;
      if (precision === 2) return formatMachine({ year, month: m, day: d });
      return formatMachine({ year, month: m, day: d, hour: hour % cal.hoursPerDay, minute });
    });

describe("story order in the browser", () => {
  for (const [name, { calendar }] of Object.entries(PRESETS)) {
    it(`orders dates as the database does in the ${name} calendar`, () => {
      fc.assert(
        fc.property(storedDate(calendar), storedDate(calendar), (a, b) => {
          const server = Math.sign((storySort(calendar, a) ?? 0) - (storySort(calendar, b) ?? 0));
          const browser = Math.sign((storyOrderKey(a) ?? 0) - (storyOrderKey(b) ?? 0));
          expect(storySort(calendar, a)).not.toBeNull();
          expect(browser).toBe(server);
        }),
        { numRuns: 3000, seed: 20261125 },
      );
    });
  }

  it("a 13th month and a 30th of the second month are dated, after the months before them", () => {
    const list = [
      { id: 1, position: 0, storyStart: "1203-13-14" },
      { id: 2, position: 1, storyStart: null },
      { id: 3, position: 2, storyStart: "1203-02-30" },
      { id: 4, position: 3, storyStart: "1203-12-28T23:00" },
    ];
    expect(sortChronologically(list).map((e) => e.id)).toEqual([3, 4, 1, 2]);
    expect(storyOrderKey("1203-13-14")).not.toBeNull();
    expect(storyOrderKey("not a date")).toBeNull();
  });
});
