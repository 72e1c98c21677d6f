// An .xlsx or .ods file's first sheet as the rows of a CSV (csv-format.ts reads them the same way). SheetJS does
// the reading, in the Worker and, loaded on demand, in the import dialog's preview. Date cells are numbers with
// a date format; they become story dates from the number itself, never from the text the sheet shows.
import * as XLSX from "@e965/xlsx";
import { importLimits } from "./document";
import { type SheetOptions, type SheetRecord, type SheetResult, parseSheetRecords } from "./csv-format";

export const NOT_A_SPREADSHEET =
  "This file is not a readable .xlsx or .ods spreadsheet: open it in your spreadsheet program, save it again and import again";
/** A compressed sheet may unpack to far more than the 1 MB it was sent as: more than this is refused unread. */
export const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;
export const TOO_BIG =
  "This spreadsheet is too large to import (32 MB unpacked at most): keep the scenes in one sheet of at most 5,000 rows";

/**
 * The sum of the sizes a ZIP's central directory declares for its files, or null when the bytes are not a
 * ZIP. (xlsx and ods are ZIPs; reading the directory first keeps a tiny file that unpacks to gigabytes out of
 * the parser.)
 */
function unpackedSize(bytes: Uint8Array): number | null {
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 65,535.
  for (let end = bytes.length - 22; end >= Math.max(0, bytes.length - 22 - 0xffff); end--) {
    if (view.getUint32(end, true) !== 0x06054b50) continue;
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    let total = 0;
    for (let i = 0; i < count; i++) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
      const size = view.getUint32(at + 24, true);
      total += size === 0xffffffff ? Number.POSITIVE_INFINITY : size; // ZIP64: far beyond any sheet we take
      at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return total;
  }
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A cell as the text a CSV of the sheet would hold; date cells as story dates (`2024-03-15T14:30`). */
function cellText(cell: XLSX.CellObject | undefined, date1904: boolean): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  if (cell.t === "n" && typeof cell.v === "number" && cell.z && XLSX.SSF.is_date(cell.z)) {
    const d = XLSX.SSF.parse_date_code(cell.v, { date1904 });
    if (d) {
      const date = `${String(d.y).padStart(4, "0")}-${pad(d.m)}-${pad(d.d)}`;
      const timed = cell.v % 1 !== 0;
      return timed ? `${date}T${pad(d.H)}:${pad(d.M)}` : date;
    }
  }
  if (cell.t === "b") return cell.v ? "TRUE" : "FALSE";
  if (cell.t === "e") return "";
  return cell.t === "n" ? (cell.w ?? String(cell.v)) : String(cell.v);
}

export function parseSpreadsheet(input: ArrayBuffer | Uint8Array, options: SheetOptions = {}): SheetResult {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const size = unpackedSize(bytes);
  if (size === null) return { ok: false, error: NOT_A_SPREADSHEET };
  if (size > MAX_UNPACKED_BYTES) return { ok: false, error: TOO_BIG };
  let sheet: XLSX.WorkSheet | undefined;
  let date1904 = false;
  try {
    // Rows past the import's limit are not read: the header, 5,000 events and one more to say so.
    const book = XLSX.read(bytes, { type: "array", dense: true, cellNF: true, sheetRows: importLimits.events + 2 });
    sheet = book.SheetNames.length > 0 ? book.Sheets[book.SheetNames[0]] : undefined;
    date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  } catch {
    return { ok: false, error: NOT_A_SPREADSHEET };
  }
  if (!sheet) return { ok: false, error: NOT_A_SPREADSHEET };
  const rows: XLSX.CellObject[][] = sheet["!data"] ?? [];
  const records: SheetRecord[] = [];
  rows.forEach((row, index) => {
    // Sheet rows are numbered like a CSV's lines, so errors name the row the writer sees.
    if (row) records.push({ line: index + 1, fields: Array.from(row, (cell) => cellText(cell, date1904)) });
  });
  return parseSheetRecords(records, options);
}
