import { describe, expect, it } from "vitest";
import { isStoryRangeOrdered, parseStoryDate, storyDateKey, storySortKey } from "./story-date";

describe("parseStoryDate", () => {
  it.each([
    ["-450", { year: -450 }],
    ["0", { year: 0 }],
    ["-0", { year: 0 }],
    ["7", { year: 7 }],
    ["2024-03", { year: 2024, month: 3 }],
    ["2024-02-29", { year: 2024, month: 2, day: 29 }],
    ["2000-02-29", { year: 2000, month: 2, day: 29 }],
    ["-4-02-29", { year: -4, month: 2, day: 29 }],
    ["10231-01-02T06:30", { year: 10231, month: 1, day: 2, hour: 6, minute: 30 }],
    ["999999-12-31T23:59", { year: 999999, month: 12, day: 31, hour: 23, minute: 59 }],
    ["-999999", { year: -999999 }],
  ])("accepts %s", (input, date) => {
    expect(parseStoryDate(input)).toEqual({ ok: true, date });
  });

  it.each([
    ["", "format"],
    ["abc", "format"],
    ["1234567", "format"],
    ["2024-3", "format"],
    ["2024-03-1", "format"],
    ["2024-03-01T6:30", "format"],
    ["2024-03-01 06:30", "format"],
    ["2024-03-01T06:30:00", "format"],
    ["+2024", "format"],
    ["--5", "format"],
    ["2024-00", "month"],
    ["2024-13", "month"],
    ["2023-02-29", "day"],
    ["1900-02-29", "day"],
    ["2024-04-31", "day"],
    ["2024-01-00", "day"],
    ["2024-01-01T24:00", "hour"],
    ["2024-01-01T23:60", "minute"],
  ])("refuses %s (%s)", (input, reason) => {
    expect(parseStoryDate(input)).toEqual({ ok: false, reason });
  });
});

describe("story order", () => {
  it("sorts true chronology: negative years, 5-6 digit years, less precise first", () => {
    const dates = [
      "10231-01-02T06:30",
      "-450",
      "2024-03-15",
      "-9",
      "9999-12-31",
      "2024",
      "2024-03",
      "2024-03-15T00:00",
      "-450-06",
      "0",
      "100000",
    ];
    const sorted = [...dates].sort((a, b) => (storySortKey(a) ?? 0) - (storySortKey(b) ?? 0));
    expect(sorted).toEqual([
      "-450",
      "-450-06",
      "-9",
      "0",
      "2024",
      "2024-03",
      "2024-03-15",
      "2024-03-15T00:00",
      "9999-12-31",
      "10231-01-02T06:30",
      "100000",
    ]);
  });

  it("keys are exact integers and none for no date", () => {
    for (const d of ["999999-12-31T23:59", "-999999-12-31T23:59"]) expect(Number.isSafeInteger(storySortKey(d))).toBe(true);
    expect(storySortKey(null)).toBeNull();
    expect(storySortKey("")).toBeNull();
    expect(storyDateKey({ year: 1 }, "upper")).toBeLessThan(storyDateKey({ year: 2 }));
  });

  it("a range end may be less precise than its start but never wholly before it", () => {
    expect(isStoryRangeOrdered("2024-03-15", "2024-03")).toBe(true);
    expect(isStoryRangeOrdered("2024-03-15", "2024")).toBe(true);
    expect(isStoryRangeOrdered("2024-03-15", "2024-03-15")).toBe(true);
    expect(isStoryRangeOrdered("-450", "-449")).toBe(true);
    expect(isStoryRangeOrdered("2024-03-15T10:00", "2024-03-15T09:59")).toBe(false);
    expect(isStoryRangeOrdered("2024-03-15", "2024-02")).toBe(false);
    expect(isStoryRangeOrdered("-449", "-450-12-31")).toBe(false);
    expect(isStoryRangeOrdered("10000", "9999")).toBe(false);
  });
});
