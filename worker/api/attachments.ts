import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ATTACHMENT_MAX_BYTES, attachmentMessages } from "../../db/domain/rules";
import * as attachments from "../services/attachments";
import { EVENT_NOT_FOUND } from "../services/events";
import { type ApiEnv, currentUser, fileDeps, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** Room for the multipart envelope around one 10 MB file (boundaries, part headers, a long file name). */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The upload path, which the API-wide 1 MB body limit leaves to this router's own limit. */
export const ATTACHMENT_UPLOAD_PATH = /^\/api\/events\/[^/]+\/attachments\/?$/;

/**
 * Attachments. Mounted at the API root like the codex, so each route carries its full
 * path and its own auth check. A body over the limit is refused by its Content-Length before it is read.
 */
export const attachmentsApi = new Hono<ApiEnv>()
  .post(
    "/events/:id/attachments",
    requireAuth,
    bodyLimit({
      maxSize: ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD,
      onError: (c) => c.json({ error: attachmentMessages.tooLarge }, 413),
    }),
    shareQuery,
    async (c) => {
      const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
      // Junk (not multipart, a broken envelope) is simply no file.
      const form = await c.req.formData().catch(() => null);
      const file = form?.get("file") ?? null;
      const view = await attachments.uploadAttachment(fileDeps(c), currentUser(c), id, file, c.req.valid("query").share);
      return c.json(view, 201);
    },
  )
  .get("/attachments/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), attachmentMessages.notFound);
    const { attachment, body } = await attachments.getAttachment(c.env.FILES, c.var.db, currentUser(c), id, c.req.valid("query").share);
    const text = attachment.contentType.startsWith("text/");
    return c.body(body, 200, {
      "Content-Type": text ? `${attachment.contentType}; charset=utf-8` : attachment.contentType,
      "Content-Length": String(attachment.size),
      "Content-Disposition": attachments.contentDisposition(attachment),
      "X-Content-Type-Options": "nosniff",
      // The bytes behind an id never change; the browser may keep them a while, shared caches never.
      "Cache-Control": "private, max-age=3600",
    });
  })
  .delete("/attachments/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), attachmentMessages.notFound);
    return c.json(await attachments.deleteAttachment(fileDeps(c), currentUser(c), id, c.req.valid("query").share));
  });
