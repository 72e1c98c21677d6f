// A timeline out of StoryWeave and back in: the StoryWeave JSON
// document, the Markdown outline and the CSV sheet. Pure and zod-free, so the import dialog previews a
// file with exactly the parser the server runs on it, and errors name the line in both places.
import { limits } from "./rules";
import { parseCsv } from "./transfer/csv-format";
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
export { parseCsv, parseCsvRecords } from "./transfer/csv-format";

export type ImportFormat = "json" | "md" | "csv";

/** The Content-Type each format is sent with (the import endpoint picks the parser by it). */
export const importContentType: Record<ImportFormat, string> = {
  json: "application/json",
  md: "text/markdown",
  csv: "text/csv",
};

export const UNSUPPORTED_IMPORT = "Choose a StoryWeave JSON (.json), Markdown outline (.md) or CSV (.csv) file";

/** The format of a chosen file, by its name. */
export function importFormatOf(filename: string): ImportFormat | null {
  const ext = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext === "json") return "json";
  if (ext === "md" || ext === "markdown" || ext === "txt") return "md";
  if (ext === "csv") return "csv";
  return null;
}

/** The format named by a request's Content-Type (parameters ignored). */
export function importFormatOfContentType(contentType: string | null | undefined): ImportFormat | null {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "text/markdown" || type === "text/x-markdown" || type === "text/plain") return "md";
  if (type === "text/csv") return "csv";
  return null;
}

/** A title for a timeline made from a file with none inside (CSV): its name without the extension. */
export function titleFromFilename(filename: string) {
  const base = filename
    .replace(/\.[a-z]+$/i, "")
    .replace(/[_]+/g, " ")
    .trim();
  return (base || "Imported timeline").slice(0, limits.timelineTitle);
}

export function parseImport(format: ImportFormat, text: string, options: { title?: string } = {}): ParseResult {
  const clean = text.replace(/^\uFEFF/, "");
  if (format === "json") return parseTimelineJson(clean);
  if (format === "md") return parseMarkdownOutline(clean);
  return parseCsv(clean, options.title);
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
} as const;
export type ExportFormat = keyof typeof exportFormats;
