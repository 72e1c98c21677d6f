import { describe, expect, it } from "vitest";
import { digits } from "../../app/lib/digits";

// The word counts' grouping without Intl (app/lib/digits.ts) writes what toLocaleString("en-US") writes.
describe("digits", () => {
  it("groups whole numbers as en-US does", () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 12_345, 100_000, 999_999, 1_000_000, 10_000_000, 123_456_789];
    for (let n = 0; n < 3000; n += 7) values.push(n, n * 1013, n * 999_983);
    values.push(Number.MAX_SAFE_INTEGER);
    for (const n of values) {
      expect(digits(n)).toBe(n.toLocaleString("en-US"));
      expect(digits(-n)).toBe((-n).toLocaleString("en-US"));
    }
    expect(digits(1_234_567)).toBe("1,234,567");
  });

  it("leaves anything else to toLocaleString", () => {
    for (const n of [1.5, 1234.5678, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(digits(n)).toBe(n.toLocaleString("en-US"));
  });
});
