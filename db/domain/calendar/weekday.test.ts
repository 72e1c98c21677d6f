import { describe, expect, it } from "vitest";
import { GREGORIAN, PRESETS } from "./index";
import { weekdayOf } from "./weekday";

describe("weekdayOf", () => {
  it("names the Gregorian weekday, before year 1 too", () => {
    expect(weekdayOf(GREGORIAN, { year: 2031, month: 10, day: 13 })).toBe("Monday");
    expect(weekdayOf(GREGORIAN, { year: 1970, month: 1, day: 1 })).toBe("Thursday");
    expect(weekdayOf(GREGORIAN, { year: 2000, month: 2, day: 29 })).toBe("Tuesday");
    expect(weekdayOf(GREGORIAN, { year: -1, month: 12, day: 31 })).toBe("Friday");
  });
  it("cycles a custom calendar's weekdays from the first day of year 0", () => {
    const cal = PRESETS.thirteen.calendar;
    expect(weekdayOf(cal, { year: 0, month: 1, day: 1 })).toBe("Moonday");
    expect(weekdayOf(cal, { year: 0, month: 1, day: 9 })).toBe("Tideday");
    expect(weekdayOf(cal, { year: 1203, month: 1, day: 14 })).toBe("Sunday");
  });
  it("is null without a day or without weekdays", () => {
    expect(weekdayOf(GREGORIAN, { year: 2031, month: 10 })).toBeNull();
    expect(weekdayOf(PRESETS.thirtyPlusFive.calendar, { year: 1, month: 1, day: 1 })).toBeNull();
    expect(weekdayOf(PRESETS.dayN.calendar, { year: 3, month: 1, day: 1 })).toBeNull();
  });
});
