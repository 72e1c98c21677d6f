import { describe, expect, it } from "vitest";
import { type Calendar, GREGORIAN, PRESETS } from "./index";
import { dayOfText, hasMonths, monthGrid, moveDays, moveMonths, moveYears, openingDay, pickedText, rowEdge } from "./month-grid";

const thirteen = PRESETS.thirteen.calendar;
const festival = PRESETS.thirtyPlusFive.calendar;
const today = { year: 2026, month: 11, day: 25 };
const titleAt = (cal: Calendar, d: { year: number; month: number }) => monthGrid(cal, d.year, d.month).title;

describe("monthGrid", () => {
  it("lays a Gregorian month under its weekdays, day 1 in its weekday's column", () => {
    const grid = monthGrid(GREGORIAN, 2031, 10);
    expect(grid.title).toBe("October 2031");
    expect(grid.columns).toEqual(GREGORIAN.weekdays);
    // 1 October 2031 is a Wednesday: two blanks under Monday and Tuesday.
    expect(grid.rows[0]).toEqual([null, null, 1, 2, 3, 4, 5]);
    expect(grid.rows).toHaveLength(5);
    expect(grid.rows[4]).toEqual([27, 28, 29, 30, 31, null, null]);
    expect(grid.rows.flat().filter((d) => d !== null)).toHaveLength(31);
  });

  it("counts February by the leap rule", () => {
    const days = (year: number) =>
      Math.max(
        ...monthGrid(GREGORIAN, year, 2)
          .rows.flat()
          .map((d) => d ?? 0),
      );
    expect(days(2024)).toBe(29);
    expect(days(2000)).toBe(29);
    expect(days(1900)).toBe(28);
    expect(days(2031)).toBe(28);
    // 1 February 2026 is a Sunday: the last column.
    expect(monthGrid(GREGORIAN, 2026, 2).rows[0]).toEqual([null, null, null, null, null, null, 1]);
  });

  it("shows a 13 × 28 month in four full weeks under its own weekdays", () => {
    const grid = monthGrid(thirteen, 1203, 1);
    expect(grid.title).toBe("Frostmoon 1203 AR");
    expect(grid.columns).toEqual(["Moonday", "Tideday", "Windday", "Thunderday", "Fireday", "Starday", "Sunday"]);
    expect(grid.rows).toEqual([
      [1, 2, 3, 4, 5, 6, 7],
      [8, 9, 10, 11, 12, 13, 14],
      [15, 16, 17, 18, 19, 20, 21],
      [22, 23, 24, 25, 26, 27, 28],
    ]);
  });

  it("shifts the first day by the weekdays when a year is not whole weeks", () => {
    const fiveDays = { ...thirteen, weekdays: ["One", "Two", "Three", "Four", "Five"] };
    // 364 days a year: year 1 starts 364 days after year 0, 364 mod 5 = 4, under 'Five'.
    expect(monthGrid(fiveDays, 1, 1).rows[0]).toEqual([null, null, null, null, 1]);
  });

  it("shows a calendar without weekdays in plain rows of 7, its leap festival a day longer", () => {
    const month = monthGrid(festival, 5, 1);
    expect(month.columns).toEqual([]);
    expect(month.rows[0]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(month.rows).toHaveLength(5);
    expect(monthGrid(festival, 4, 13).rows).toEqual([[1, 2, 3, 4, 5, 6, null]]);
    expect(monthGrid(festival, 5, 13).rows).toEqual([[1, 2, 3, 4, 5, null, null]]);
    expect(monthGrid(festival, 5, 13).title).toBe("Festival 5 AR");
  });

  it("has no months to show in a relative calendar", () => {
    expect(hasMonths(PRESETS.dayN.calendar)).toBe(false);
    expect(hasMonths(thirteen)).toBe(true);
  });
});

describe("stepping", () => {
  it("steps months across the year and era boundary", () => {
    expect(moveMonths(thirteen, { year: 1, month: 1, day: 14 }, -1)).toEqual({ year: 0, month: 13, day: 14 });
    expect(titleAt(thirteen, { year: 0, month: 13 })).toBe("Darkmoon 1 BR");
    expect(moveMonths(thirteen, { year: 0, month: 13, day: 14 }, 1)).toEqual({ year: 1, month: 1, day: 14 });
    expect(moveMonths(thirteen, { year: 1203, month: 5, day: 1 }, 26)).toEqual({ year: 1205, month: 5, day: 1 });
    expect(moveMonths(GREGORIAN, { year: 1, month: 1, day: 31 }, -1)).toEqual({ year: 0, month: 12, day: 31 });
    expect(titleAt(GREGORIAN, { year: 0, month: 12 })).toBe("December 1 BC");
  });

  it("keeps the day where the next month has it, else its last day", () => {
    expect(moveMonths(GREGORIAN, { year: 2031, month: 1, day: 31 }, 1)).toEqual({ year: 2031, month: 2, day: 28 });
    expect(moveMonths(festival, { year: 4, month: 12, day: 30 }, 1)).toEqual({ year: 4, month: 13, day: 6 });
    expect(moveMonths(festival, { year: 5, month: 12, day: 30 }, 1)).toEqual({ year: 5, month: 13, day: 5 });
  });

  it("steps years across year 0, and a leap day to a common year's last day", () => {
    expect(moveYears(GREGORIAN, { year: 1, month: 3, day: 1 }, -1)).toEqual({ year: 0, month: 3, day: 1 });
    expect(titleAt(GREGORIAN, { year: 1, month: 3 })).toBe("March 1");
    expect(titleAt(GREGORIAN, { year: 0, month: 3 })).toBe("March 1 BC");
    expect(titleAt(GREGORIAN, { year: -1, month: 3 })).toBe("March 2 BC");
    expect(moveYears(GREGORIAN, { year: 2024, month: 2, day: 29 }, 1)).toEqual({ year: 2025, month: 2, day: 28 });
    expect(moveYears(festival, { year: 8, month: 13, day: 6 }, -1)).toEqual({ year: 7, month: 13, day: 5 });
    expect(titleAt(thirteen, moveYears(thirteen, { year: 1, month: 7, day: 1 }, -2))).toBe("Sunmoon 2 BR");
  });

  it("steps into a later forward era", () => {
    const ages: Calendar = {
      ...thirteen,
      eras: [
        { name: "First Age", abbreviation: "FA", direction: "forward", startYear: 1 },
        { name: "Second Age", abbreviation: "SA", direction: "forward", startYear: 500 },
      ],
    };
    expect(titleAt(ages, moveMonths(ages, { year: 499, month: 13, day: 1 }, 1))).toBe("Frostmoon 1 SA");
    expect(titleAt(ages, moveYears(ages, { year: 500, month: 2, day: 1 }, -1))).toBe("Snowmoon 499 FA");
  });

  it("moves by days and weeks across months, years and year 0", () => {
    expect(moveDays(thirteen, { year: 0, month: 13, day: 28 }, 1)).toEqual({ year: 1, month: 1, day: 1 });
    expect(moveDays(thirteen, { year: 1203, month: 2, day: 3 }, -7)).toEqual({ year: 1203, month: 1, day: 24 });
    expect(moveDays(GREGORIAN, { year: 0, month: 1, day: 1 }, -1)).toEqual({ year: -1, month: 12, day: 31 });
    expect(moveDays(GREGORIAN, { year: 2024, month: 2, day: 28 }, 1)).toEqual({ year: 2024, month: 2, day: 29 });
    expect(moveDays(festival, { year: 4, month: 13, day: 6 }, 1)).toEqual({ year: 5, month: 1, day: 1 });
  });

  it("stops at the calendar's last year", () => {
    const last = { year: 999999, month: 13, day: 28 };
    expect(moveYears(thirteen, last, 1)).toEqual(last);
    expect(moveMonths(thirteen, last, 1)).toEqual(last);
    expect(moveDays(thirteen, last, 1)).toEqual(last);
    expect(moveYears(thirteen, { year: -999999, month: 1, day: 1 }, -1)).toEqual({ year: -999999, month: 1, day: 1 });
  });

  it("finds the first and last day of a day's row (Home and End)", () => {
    const grid = monthGrid(GREGORIAN, 2031, 10);
    expect(rowEdge(grid, 3, "start")).toBe(1);
    expect(rowEdge(grid, 3, "end")).toBe(5);
    expect(rowEdge(grid, 29, "end")).toBe(31);
    expect(rowEdge(grid, 29, "start")).toBe(27);
  });
});

describe("opening and picking", () => {
  it("opens at the field's date, else at the next text that reads as one", () => {
    expect(openingDay(thirteen, ["14 Frostmoon 1203 AR, 9:00"], today)).toEqual({ year: 1203, month: 1, day: 14 });
    expect(openingDay(thirteen, ["", "1204-03-02"], today)).toEqual({ year: 1204, month: 3, day: 2 });
    expect(openingDay(thirteen, ["not a date", "1203 AR"], today)).toEqual({ year: 1203, month: 1, day: 1 });
  });

  it("opens an empty field at today in Gregorian and at year 1 of the earliest forward era otherwise", () => {
    expect(openingDay(GREGORIAN, [""], today)).toEqual(today);
    expect(openingDay(thirteen, ["", null], today)).toEqual({ year: 1, month: 1, day: 1 });
    const late: Calendar = { ...thirteen, eras: [{ name: "New Age", abbreviation: "NA", direction: "forward", startYear: 300 }] };
    expect(openingDay(late, [], today)).toEqual({ year: 300, month: 1, day: 1 });
    expect(monthGrid(late, 300, 1).title).toBe("Frostmoon 1 NA");
  });

  it("reads the field's own day only when it names one", () => {
    expect(dayOfText(thirteen, "14 Frostmoon 1203 AR")).toEqual({ year: 1203, month: 1, day: 14 });
    expect(dayOfText(thirteen, "Frostmoon 1203 AR")).toBeNull();
    expect(dayOfText(thirteen, "")).toBeNull();
  });

  it("writes the picked day in words and keeps a time of day already typed", () => {
    expect(pickedText(thirteen, { year: 1203, month: 2, day: 3 }, "14 Frostmoon 1203 AR, 9:00")).toBe("3 Snowmoon 1203 AR, 9:00");
    expect(pickedText(thirteen, { year: 1203, month: 2, day: 3 }, "14 Frostmoon 1203 AR at dusk")).toBe("3 Snowmoon 1203 AR, 18:00");
    expect(pickedText(GREGORIAN, { year: 2031, month: 10, day: 13 }, "")).toBe("13 October 2031");
    expect(pickedText(GREGORIAN, { year: 0, month: 3, day: 1 }, "garbled")).toBe("1 March 1 BC");
    expect(pickedText(festival, { year: 4, month: 13, day: 6 }, "")).toBe("6 Festival 4 AR");
  });
});
