import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { validator } from "hono/validator";
import type { Context } from "hono";
import { localeOf } from "../../db/domain/calendar/locale";
import { limits } from "../../db/domain/rules";
import {
  type DateOrder,
  type DocxStyle,
  type ExportFormat,
  UNSUPPORTED_IMPORT,
  dateOrders,
  docxStyles,
  exportFormats,
  importFormatOfContentType,
  parseImportFile,
} from "../../db/domain/timeline-transfer";
import { HttpError, badRequest } from "../lib/errors";
import { TIMELINE_NOT_FOUND } from "../services/access";
import { seriesMessages } from "../../db/domain/validation-series";
import { joinSeries, requireSeriesForImport } from "../services/series";
import { importBooks } from "../services/import/books";
import { anchorImportedComments } from "../services/import/comment-anchors";
import { BOOK_BODY_LIMIT, bookFormatOfContentType, parseBookFile, parsePlottrFile, summarize } from "../services/import";
import * as transfer from "../services/transfer";
import { relationshipSkips } from "../../db/domain/transfer/relationships-format";
import { type PrintQuery, printExport, printQuery } from "./print-export";
import { importIntoTimeline, requireImportAccess } from "../services/transfer-append";
import { type ApiEnv, currentUser, deps, rateLimited, requireAuth } from "./context";
import { idParam } from "./params";

type ExportQuery = { format: ExportFormat; style: DocxStyle; notes: boolean; share?: string } | PrintQuery;

/**
 * `?format=json|md|docx|epub|pdf|typst` (JSON when left out; pdf and typst take print-export.ts's options), a .docx's `?style=outline|manuscript` (outline when left out),
 * `?notes=0` to leave the outline's planning notes out, and the `?share=` of shared mode.
 */
const exportQuery = validator("query", (value): ExportQuery => {
  const format = value.format ?? "json";
  if (format === "pdf" || format === "typst") return printQuery(value, format);
  if (typeof format !== "string" || !Object.hasOwn(exportFormats, format))
    throw badRequest("Format must be json, md, docx, epub, pdf or typst");
  const style = value.style ?? "outline";
  if (!docxStyles.includes(style as DocxStyle)) throw badRequest("Style must be outline or manuscript");
  const notes = value.notes ?? "1";
  if (notes !== "0" && notes !== "1") throw badRequest("Notes must be 0 or 1");
  const share = typeof value.share === "string" && value.share.length > 0 && value.share.length <= 100 ? value.share : undefined;
  return { format: format as ExportFormat, style: style as DocxStyle, notes: notes === "1", ...(share ? { share } : {}) };
});

type ImportQuery = { title?: string; dateOrder?: DateOrder; share?: string; seriesId?: number; filename?: string; dryRun?: "1" };

/**
 * `?title=` names the new timeline (a sheet has no title inside; for JSON and Markdown it replaces the file's),
 * `?dateOrder=mdy|dmy` says how a sheet's dates like 3/4/2024 read (else the file's other dates decide),
 * `?seriesId=` adds the new timeline to one of the writer's series as its last book.
 */
const importQuery = validator("query", (value): ImportQuery => {
  const query: ImportQuery = {};
  if (typeof value.title === "string" && value.title.trim()) {
    const title = value.title.trim();
    if (title.length > limits.timelineTitle) throw badRequest(`Title must be at most ${limits.timelineTitle} characters`);
    query.title = title;
  }
  if (typeof value.share === "string" && value.share.length > 0 && value.share.length <= 100) query.share = value.share;
  if (value.dateOrder !== undefined) {
    if (!dateOrders.includes(value.dateOrder as DateOrder)) throw badRequest("Date order must be mdy or dmy");
    query.dateOrder = value.dateOrder as DateOrder;
  }
  if (typeof value.filename === "string" && value.filename.length <= 255) query.filename = value.filename;
  if (value.dryRun === "1" || value.dryRun === "true") query.dryRun = "1";
  if (value.seriesId !== undefined && value.seriesId !== "") query.seriesId = idParam(String(value.seriesId), seriesMessages.notFound);
  return query;
});

/** Each import reads and parses up to 1 MB: counted per account and per client address before the body is read. */
const importRate = rateLimited("importAccount", "importClient");

/** A book's file (Word, ODT, project zips, Plottr, yWriter) may be 20 MB; every other import keeps the 1 MB. */
const importBodyLimit = bodyLimit({
  maxSize: BOOK_BODY_LIMIT,
  onError: (c) => c.json({ error: `This file is too large to import (${BOOK_BODY_LIMIT / 1024 / 1024} MB at most)` }, 413),
});

const SEVERAL_BOOKS_IN_SERIES =
  "This file holds several books, which become a series of their own: import it without choosing a series, then add its books to one";

/** The name the client gave the file: `?filename=`, else the Content-Disposition's. */
function filenameOf(c: Context<ApiEnv>, query: ImportQuery) {
  if (query.filename) return query.filename;
  const disposition = c.req.header("Content-Disposition") ?? "";
  return /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
}

/**
 * The file of a new timeline import as one or more documents (several: a series). A book format is read by its
 * own reader (worker/services/import); the others by the shared parsers, within the API's 1 MB.
 */
async function parsedBooks(c: Context<ApiEnv>, query: ImportQuery) {
  const book = bookFormatOfContentType(c.req.header("Content-Type"));
  const json = importFormatOfContentType(c.req.header("Content-Type")) === "json";
  if (!book && !json && Number(c.req.header("Content-Length") ?? 0) > limits.body) throw new HttpError(413, "Request body is too large");
  const bytes = await c.req.arrayBuffer();
  // A Plottr file comes as JSON too: its keys tell it apart; StoryWeave's own JSON keeps the 1 MB.
  const parsed = book ? parseBookFile(book, bytes, filenameOf(c, query)) : json ? parsePlottrFile(bytes, filenameOf(c, query)) : null;
  if (!parsed) {
    if (bytes.byteLength > limits.body) throw new HttpError(413, "Request body is too large");
    const doc = await parsedBytes(c, bytes, query);
    return { documents: [doc], skipped: relationshipSkips(doc), seriesTitle: undefined, comments: [] };
  }
  if (!parsed.ok) throw new HttpError(parsed.status, parsed.error);
  const documents = query.title
    ? parsed.documents.map((d, i) => (i === 0 ? { ...d, timeline: { ...d.timeline, title: query.title! } } : d))
    : parsed.documents;
  return { documents, skipped: parsed.skipped, seriesTitle: parsed.seriesTitle, comments: parsed.comments };
}

/** The request's file as a timeline document, or the parser's message naming the line (400). */
async function parsedBody(c: Context<ApiEnv>, query: ImportQuery) {
  // Over 1 MB is refused (413) by the API's body limit while this reads it. Bytes, not text: the file's
  // encoding is found from them (a Windows-1252 CSV would otherwise lose its accents here).
  return parsedBytes(c, await c.req.arrayBuffer(), query);
}

async function parsedBytes(c: Context<ApiEnv>, bytes: ArrayBuffer, query: ImportQuery) {
  const format = importFormatOfContentType(c.req.header("Content-Type"));
  if (!format) throw new HttpError(415, UNSUPPORTED_IMPORT);
  const parsed = await parseImportFile(format, bytes, query);
  if (!parsed.ok) throw badRequest(parsed.error);
  const doc = parsed.document;
  return query.title ? { ...doc, timeline: { ...doc.timeline, title: query.title } } : doc;
}

/**
 * Export and import. Mounted at the API root like the codex, so each route carries
 * its full path and its own auth check.
 */
export const transferApi = new Hono<ApiEnv>()
  .get("/timelines/:id/export", requireAuth, exportQuery, rateLimited("timelineExports"), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const query = c.req.valid("query");
    if ("print" in query) return printExport(c, id, query);
    const { share, ...options } = query;
    const locale = localeOf(c.req.header("Accept-Language"));
    const file = await transfer.exportTimelineFile(c.var.db, currentUser(c), id, { ...options, locale }, share);
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    });
  })
  .post("/timelines/import", requireAuth, importRate, importBodyLimit, importQuery, async (c) => {
    const user = currentUser(c);
    const query = c.req.valid("query");
    const position = query.seriesId ? await requireSeriesForImport(c.var.db, user, query.seriesId) : 0;
    const { documents, skipped, seriesTitle, comments } = await parsedBooks(c, query);
    if (query.seriesId && documents.length > 1) throw badRequest(SEVERAL_BOOKS_IN_SERIES);
    if (query.dryRun) return c.json({ summary: summarize(documents, skipped) }, 200);
    if (documents.length > 1) return c.json(await importBooks(c.var.db, user, documents, seriesTitle), 201);
    const timeline = await transfer.importTimeline(c.var.db, user, documents[0], comments);
    // The file's comments highlighted at once: anchored in their scenes' shared docs before the answer.
    if (comments.some((comment) => comment.quote)) await anchorImportedComments(c.env, c.var.db, timeline.id);
    if (query.seriesId) await joinSeries(c.var.db, query.seriesId, timeline.id, position);
    return c.json(timeline, 201);
  })
  // The same files appended to a timeline the writer may edit: events after its last, codex merged by name.
  .post("/timelines/:id/import", requireAuth, importRate, importQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const user = currentUser(c);
    const query = c.req.valid("query");
    // Access before the body: a viewer or a stranger learns nothing about the file.
    await requireImportAccess(c.var.db, user, id, query.share);
    const doc = await parsedBody(c, query);
    return c.json(await importIntoTimeline(deps(c), user, id, doc, query.share), 200);
  });
