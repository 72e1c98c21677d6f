import { describe, expect, it } from "vitest";
import { decodeText } from "./decode";
import { fileDateOrder, readSheetDate } from "./sheet-dates";

describe("dates as spreadsheets write them", () => {
  it.each([
    ["3/15/2024", "mdy", "2024-03-15"],
    ["3/15/2024", "dmy", "2024-03-15"], // shows its order by itself
    ["15/03/2024", "mdy", "2024-03-15"],
    ["03/04/2024", "mdy", "2024-03-04"],
    ["03/04/2024", "dmy", "2024-04-03"],
    ["15.03.2024", "mdy", "2024-03-15"],
    ["03.04.2024", "mdy", "2024-04-03"], // dots are day first everywhere
    ["2024/03/15", "dmy", "2024-03-15"],
    ["03/15/24", "mdy", "2024-03-15"],
    ["03/15/75", "mdy", "1975-03-15"],
    ["4/1/2024 14:30", "mdy", "2024-04-01T14:30"],
    ["4/1/2024 2:30 PM", "mdy", "2024-04-01T14:30"],
    ["4/1/2024 12:05 AM", "mdy", "2024-04-01T00:05"],
    ["2024-03-15 09:15:00", "mdy", "2024-03-15T09:15"],
    ["-450-03-15", "mdy", "-450-03-15"],
  ] as const)("%s (%s) → %s", (raw, order, value) => {
    expect(readSheetDate(raw, order)).toEqual({ ok: true, value });
  });

  it.each([
    ["32/13/2024", "is not a date"],
    ["2/30/2024", "is not a date"],
    ["4/1/2024 13:00 PM", "is not a date"],
    ["2024/02/30", "has a day that month does not have"],
  ])("%s is refused: %s", (raw, reason) => {
    expect(readSheetDate(raw, "mdy")).toEqual({ ok: false, reason });
  });

  it("leaves free text alone", () => {
    expect(readSheetDate("Day 3, dusk", "mdy")).toBeNull();
  });

  it("takes the order the file's dates show, month first when none does", () => {
    expect(fileDateOrder(["3/4/2024", "15/4/2024"])).toEqual({ order: "dmy", ambiguous: false });
    expect(fileDateOrder(["3/4/2024", "4/15/2024"])).toEqual({ order: "mdy", ambiguous: false });
    expect(fileDateOrder(["3/4/2024", "5/6/2024"])).toEqual({ order: "mdy", ambiguous: true });
    expect(fileDateOrder(["15.03.2024", ""])).toEqual({ order: "mdy", ambiguous: false });
  });
});

describe("text encodings", () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);
  it("reads UTF-8 with and without a byte-order mark, and Windows-1252", () => {
    expect(decodeText(new TextEncoder().encode("Café"))).toEqual({ ok: true, text: "Café" });
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x43, 0x61, 0x66, 0xc3, 0xa9))).toEqual({ ok: true, text: "Café" });
    expect(decodeText(bytes(0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0xc9, 0x76, 0x65, 0x94, 0x20, 0x80))).toEqual({
      ok: true,
      text: "Café “Éve” €",
    });
  });
  it("refuses what is neither, by name", () => {
    expect(decodeText(bytes(0xff, 0xfe, 0x41, 0x00))).toEqual({
      ok: false,
      error: 'This file is UTF-16 text, not UTF-8 or Windows-1252: save it as "CSV UTF-8" and import again',
    });
    expect(decodeText(bytes(0x41, 0x8d, 0x42))).toEqual({
      ok: false,
      error: 'This file is not UTF-8 or Windows-1252 text: save it as "CSV UTF-8" and import again',
    });
  });
});
