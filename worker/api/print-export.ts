import type { Context } from "hono";
import { type PrintOptions, parsePrintOptions } from "../../db/domain/print-options";
import { badRequest } from "../lib/errors";
import { loadManuscript } from "../services/manuscript";
import { renderPrintSource } from "../services/print-book";
import { exportSlug } from "../../db/domain/timeline-transfer";
import { type ApiEnv, currentUser } from "./context";

// The print-ready book. Typst, the typesetter, is 28 MB of WebAssembly: more than a Worker may hold, so the
// Worker gives the book's Typst source (`format=typst`) and the app's print dialog typesets it into the PDF
// in the browser (docs/decisions.md, 'A book ready to print'). `format=pdf` checks the same options and access,
// then says where the PDF is made.

export type PrintQuery = { format: "pdf" | "typst"; print: PrintOptions; share?: string };

/** `?trim=&font=&size=&front=&dedication=&ornament=&dropcaps=` (db/domain/print-options.ts); a bad one is a 400. */
export function printQuery(value: Record<string, string | string[]>, format: "pdf" | "typst"): PrintQuery {
  const query: Record<string, string> = {};
  for (const [key, given] of Object.entries(value)) {
    if (typeof given !== "string") throw badRequest(`Give ${key} once`);
    query[key] = given;
  }
  const parsed = parsePrintOptions(query);
  if ("error" in parsed) throw badRequest(parsed.error);
  const share = query.share && query.share.length <= 100 ? query.share : undefined;
  return { format, print: parsed.options, ...(share ? { share } : {}) };
}

export const PDF_IN_BROWSER =
  "Print-ready PDFs are typeset in the browser: use Export → Print-ready PDF in the app, or format=typst for the book's Typst source";

export async function printExport(c: Context<ApiEnv>, timelineId: number, { format, print, share }: PrintQuery) {
  const book = await loadManuscript(c.var.db, currentUser(c), timelineId, share);
  if (format === "pdf") return c.json({ error: PDF_IN_BROWSER }, 501);
  return c.body(renderPrintSource(book, print), 200, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Disposition": `attachment; filename="${exportSlug(book.title)}-print.typ"`,
    "Cache-Control": "private, no-store",
  });
}
