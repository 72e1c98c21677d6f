// A timeline out of StoryWeave and back in: the StoryWeave JSON
// document, the Markdown outline, the CSV sheet and .xlsx/.ods spreadsheets. Pure and zod-free, so the import
// dialog previews a file with exactly the parser the server runs on it, and errors name the line in both places.
import { limits } from "./rules";
import { type SheetOptions, type SheetResult, parseCsv } from "./transfer/csv-format";
import { decodeText } from "./transfer/decode";
import type { ParseResult } from "./transfer/document";
import { parseTimelineJson } from "./transfer/json-format";
import { parseMarkdownOutline } from "./transfer/markdown-format";

export {
  TRANSFER_FORMAT,
  TRANSFER_VERSION,
  importLimits,
  type ParseResult,
  type TimelineDocument,
  type TransferAttachment,
  type TransferEntity,
  type TransferEvent,
} from "./transfer/document";
export { jsonErrorLine, parseTimelineJson } from "./transfer/json-format";
export { codexLines, formatStoryTime, parseMarkdownOutline, renderMarkdown } from "./transfer/markdown-format";
export { parseCsv, parseCsvRecords, type SheetOptions, type SheetResult } from "./transfer/csv-format";
export { type DateOrder, dateOrders } from "./transfer/sheet-dates";

export type ImportFormat = "json" | "md" | "csv" | "xlsx" | "ods";

/** The Content-Type each format is sent with (the import endpoint picks the parser by it). */
export const importContentType: Record<ImportFormat, string> = {
  json: "application/json",
  md: "text/markdown",
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
};

export const UNSUPPORTED_IMPORT =
  "Choose a StoryWeave JSON (.json), Markdown outline (.md), CSV (.csv, .tsv) or spreadsheet (.xlsx, .ods) file";

/** The file picker's filter. */
export const IMPORT_ACCEPT = `.json,.md,.markdown,.txt,.csv,.tsv,.xlsx,.ods,${[...new Set(Object.values(importContentType))].join(",")}`;

/** The format of a chosen file, by its name. */
export function importFormatOf(filename: string): ImportFormat | null {
  const ext = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext === "json") return "json";
  if (ext === "md" || ext === "markdown" || ext === "txt") return "md";
  if (ext === "csv" || ext === "tsv") return "csv";
  if (ext === "xlsx" || ext === "ods") return ext;
  return null;
}

/** The format named by a request's Content-Type (parameters ignored). */
export function importFormatOfContentType(contentType: string | null | undefined): ImportFormat | null {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "text/markdown" || type === "text/x-markdown" || type === "text/plain") return "md";
  if (type === "text/csv" || type === "text/tab-separated-values") return "csv";
  const spreadsheet = (["xlsx", "ods"] as const).find((f) => importContentType[f] === type);
  return spreadsheet ?? null;
}

/** A title for a timeline made from a file with none inside (CSV): its name without the extension. */
export function titleFromFilename(filename: string) {
  const base = filename
    .replace(/\.[a-z]+$/i, "")
    .replace(/[_]+/g, " ")
    .trim();
  return (base || "Imported timeline").slice(0, limits.timelineTitle);
}

export type ImportResult = ParseResult & { dates?: SheetResult["dates"] };
export type ImportOptions = SheetOptions;

/** A text format's file, already decoded. */
export function parseImport(format: Exclude<ImportFormat, "xlsx" | "ods">, text: string, options: ImportOptions = {}): ImportResult {
  const clean = text.replace(/^\uFEFF/, "");
  if (format === "json") return parseTimelineJson(clean);
  if (format === "md") return parseMarkdownOutline(clean);
  return parseCsv(clean, options);
}

/**
 * A file's bytes as a timeline: text is decoded first (UTF-8, or Windows-1252 as Excel writes it), and a
 * spreadsheet is read by its parser, loaded only when one is imported (it is large).
 */
export async function parseImportFile(
  format: ImportFormat,
  bytes: ArrayBuffer | Uint8Array,
  options: ImportOptions = {},
): Promise<ImportResult> {
  if (format === "xlsx" || format === "ods") {
    const { parseSpreadsheet } = await import("./transfer/spreadsheet");
    return parseSpreadsheet(bytes, options);
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { ok: false, error: decoded.error };
  return parseImport(format, decoded.text, options);
}

// ---------------------------------------------------------------------------------------------
// Export helpers shared by the API and the print view

/** `The Long Night: Part 2` → `the-long-night-part-2`; ASCII only (accents dropped), never empty. */
export function exportSlug(title: string) {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "timeline";
}

export const exportFormats = {
  json: { ext: "json", contentType: "application/json" },
  md: { ext: "md", contentType: "text/markdown; charset=utf-8" },
  docx: { ext: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  epub: { ext: "epub", contentType: "application/epub+zip" },
} as const;
export type ExportFormat = keyof typeof exportFormats;

/** How a .docx is laid out: the planning outline (scene titles and notes) or standard manuscript format. */
export const docxStyles = ["outline", "manuscript"] as const;
export type DocxStyle = (typeof docxStyles)[number];
