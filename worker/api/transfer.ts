import { Hono } from "hono";
import { validator } from "hono/validator";
import {
  type ExportFormat,
  UNSUPPORTED_IMPORT,
  exportFormats,
  importFormatOfContentType,
  parseImport,
} from "../../db/domain/timeline-transfer";
import { HttpError, badRequest } from "../lib/errors";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as transfer from "../services/transfer";
import { type ApiEnv, currentUser, requireAuth } from "./context";
import { idParam } from "./params";

/** `?format=json|md|docx` (JSON when left out) and the `?share=` of shared mode. */
const exportQuery = validator("query", (value): { format: ExportFormat; share?: string } => {
  const format = value.format ?? "json";
  if (typeof format !== "string" || !Object.hasOwn(exportFormats, format)) throw badRequest("Format must be json, md or docx");
  const share = typeof value.share === "string" && value.share.length > 0 && value.share.length <= 100 ? value.share : undefined;
  return { format: format as ExportFormat, ...(share ? { share } : {}) };
});

/** The title a CSV import gets (a sheet has none inside): `?title=`, else the parser's default. */
const importQuery = validator("query", (value): { title?: string } => (typeof value.title === "string" ? { title: value.title } : {}));

/**
 * Export and import. Mounted at the API root like the codex, so each route carries
 * its full path and its own auth check.
 */
export const transferApi = new Hono<ApiEnv>()
  .get("/timelines/:id/export", requireAuth, exportQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const { format, share } = c.req.valid("query");
    const file = await transfer.exportTimelineFile(c.var.db, currentUser(c), id, format, share);
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    });
  })
  .post("/timelines/import", requireAuth, importQuery, async (c) => {
    const user = currentUser(c);
    const format = importFormatOfContentType(c.req.header("Content-Type"));
    if (!format) throw new HttpError(415, UNSUPPORTED_IMPORT);
    // Over 1 MB is refused (413) by the API's body limit while this reads it.
    const parsed = parseImport(format, await c.req.text(), c.req.valid("query"));
    if (!parsed.ok) throw badRequest(parsed.error);
    return c.json(await transfer.importTimeline(c.var.db, user, parsed.document), 201);
  });
