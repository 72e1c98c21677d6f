import { Hono } from "hono";
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
import * as transfer from "../services/transfer";
import { importIntoTimeline, requireImportAccess } from "../services/transfer-append";
import { type ApiEnv, currentUser, deps, rateLimited, requireAuth } from "./context";
import { idParam } from "./params";

type ExportQuery = { format: ExportFormat; style: DocxStyle; notes: boolean; share?: string };

/**
 * `?format=json|md|docx|epub` (JSON when left out), a .docx's `?style=outline|manuscript` (outline when left out),
 * `?notes=0` to leave the outline's planning notes out, and the `?share=` of shared mode.
 */
const exportQuery = validator("query", (value): ExportQuery => {
  const format = value.format ?? "json";
  if (typeof format !== "string" || !Object.hasOwn(exportFormats, format)) throw badRequest("Format must be json, md, docx or epub");
  const style = value.style ?? "outline";
  if (!docxStyles.includes(style as DocxStyle)) throw badRequest("Style must be outline or manuscript");
  const notes = value.notes ?? "1";
  if (notes !== "0" && notes !== "1") throw badRequest("Notes must be 0 or 1");
  const share = typeof value.share === "string" && value.share.length > 0 && value.share.length <= 100 ? value.share : undefined;
  return { format: format as ExportFormat, style: style as DocxStyle, notes: notes === "1", ...(share ? { share } : {}) };
});

type ImportQuery = { title?: string; dateOrder?: DateOrder; share?: string; seriesId?: number };

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
  if (value.seriesId !== undefined && value.seriesId !== "") query.seriesId = idParam(String(value.seriesId), seriesMessages.notFound);
  return query;
});

/** Each import reads and parses up to 1 MB: counted per account and per client address before the body is read. */
const importRate = rateLimited("importAccount", "importClient");

/** The request's file as a timeline document, or the parser's message naming the line (400). */
async function parsedBody(c: Context<ApiEnv>, query: ImportQuery) {
  const format = importFormatOfContentType(c.req.header("Content-Type"));
  if (!format) throw new HttpError(415, UNSUPPORTED_IMPORT);
  // Over 1 MB is refused (413) by the API's body limit while this reads it. Bytes, not text: the file's
  // encoding is found from them (a Windows-1252 CSV would otherwise lose its accents here).
  const parsed = await parseImportFile(format, await c.req.arrayBuffer(), query);
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
    const { share, ...options } = c.req.valid("query");
    const locale = localeOf(c.req.header("Accept-Language"));
    const file = await transfer.exportTimelineFile(c.var.db, currentUser(c), id, { ...options, locale }, share);
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    });
  })
  .post("/timelines/import", requireAuth, importRate, importQuery, async (c) => {
    const user = currentUser(c);
    const query = c.req.valid("query");
    const position = query.seriesId ? await requireSeriesForImport(c.var.db, user, query.seriesId) : 0;
    const doc = await parsedBody(c, query);
    const timeline = await transfer.importTimeline(c.var.db, user, doc);
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
