import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { CreateReaderLinkSchema, ForReadersSchema, ReaderCommentSchema, ReaderProgressSchema } from "../../db/domain/validation-readers";
import type { Db } from "../../db/client";
import { badRequest } from "../lib/errors";
import { clientKey } from "../lib/request-auth";
import { readDocState } from "../lib/room";
import * as readerService from "../services/reader-links";
import { createLimiter, spend } from "../services/rate-limits";
import { type ApiEnv, currentUser, jsonBody, rateLimited, requireAuth } from "./context";
import { idParam } from "./params";

// Reader links (DESIGN §12 'Readers'): the owner's routes, and the account-free routes under /api/read/{code}.

const COOKIE = "sw_reader";
const READER_HEADER = "X-Reader-Token";

/** The reader's token: the header (a client that keeps it) or the cookie given when they first named themselves. */
const tokenOf = (c: Context<ApiEnv, any, any>) => c.req.header(READER_HEADER) ?? getCookie(c, COOKIE) ?? null;

const readerLimiter = (c: { var: { db: Db }; env: object; req: { raw: Request } }) => createLimiter(c.var.db, c.env, clientKey(c.req.raw));

const linkRate = rateLimited("readerLinkWrites");

/** The owner's routes: create and list a timeline's links, end one. */
export const readerLinksApi = new Hono<ApiEnv>()
  .post("/timelines/:id/reader-links", requireAuth, linkRate, jsonBody(CreateReaderLinkSchema), async (c) => {
    const id = idParam(c.req.param("id"), "Timeline not found");
    const origin = new URL(c.req.url).origin;
    return c.json(await readerService.createReaderLink(c.var.db, currentUser(c), id, c.req.valid("json").label, origin), 201);
  })
  .get("/timelines/:id/reader-links", requireAuth, async (c) => {
    const id = idParam(c.req.param("id"), "Timeline not found");
    return c.json(await readerService.listReaderLinks(c.var.db, currentUser(c), id, new URL(c.req.url).origin));
  })
  .delete("/reader-links/:id", requireAuth, linkRate, async (c) => {
    const id = idParam(c.req.param("id"), "Reader link not found");
    await readerService.endReaderLink(c.var.db, currentUser(c), id);
    return c.body(null, 204);
  })
  .get("/read/:code", async (c) => {
    const code = c.req.param("code");
    const { link } = await readerService.linkByCode(c.var.db, code);
    await spend(readerLimiter(c), "readerReads", `link:${link.id}`);
    const [book, reader] = await Promise.all([
      readerService.readBook(c.var.db, code),
      readerService.readerOf(c.var.db, link.id, tokenOf(c)),
    ]);
    return c.json({ ...book, reader: reader ? { name: reader.name, eventId: reader.eventId } : null });
  })
  .get("/read/:code/comments", async (c) => {
    const { link } = await readerService.linkByCode(c.var.db, c.req.param("code"));
    const reader = await readerService.readerOf(c.var.db, link.id, tokenOf(c));
    return c.json(reader ? await readerService.readerComments(c.var.db, reader.id) : []);
  })
  .post("/read/:code/progress", jsonBody(ReaderProgressSchema), async (c) => {
    const { link } = await readerService.linkByCode(c.var.db, c.req.param("code"));
    const input = c.req.valid("json");
    const { reader, token } = await readerService.ensureReader(c.var.db, link.id, tokenOf(c), input.name);
    await spend(readerLimiter(c), "readerProgress", `reader:${reader.id}`);
    if (token) giveToken(c, c.req.param("code"), token);
    const saved = await readerService.saveProgress(c.var.db, link.timelineId, reader.id, input.eventId);
    return c.json({ ...saved, ...(token ? { readerToken: token } : {}) });
  })
  .post("/read/:code/comments", jsonBody(ReaderCommentSchema), async (c) => {
    const { link } = await readerService.linkByCode(c.var.db, c.req.param("code"));
    const input = c.req.valid("json");
    const budget = readerLimiter(c);
    await spend(budget, "readerCommentsLink", `link:${link.id}`);
    const { reader, token } = await readerService.ensureReader(c.var.db, link.id, tokenOf(c), input.name);
    await spend(budget, "readerCommentsReader", `reader:${reader.id}`);
    if (token) giveToken(c, c.req.param("code"), token);
    const comment = await readerService.addReaderComment(c.var.db, (id) => readDocState(c.env, id), link.timelineId, reader, {
      eventId: input.eventId,
      body: input.body,
      quote: input.anchor?.quote || null,
      context: { prefix: input.anchor?.prefix, suffix: input.anchor?.suffix },
    });
    // The writers' open Comments panels and highlights show it at once (a quiet sync: no notice).
    void c.var.room(link.timelineId, {
      action: "comments-changed",
      by: { userId: 0, userName: `Reader: ${reader.name}` },
      eventId: input.eventId,
    });
    return c.json({ ...comment, ...(token ? { readerToken: token } : {}) }, 201);
  });

function giveToken(c: Context<ApiEnv, any, any>, code: string, token: string) {
  setCookie(c, COOKIE, token, {
    path: `/api/read/${code}`,
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: 60 * 60 * 24 * 365,
  });
}

/**
 * 'Not for readers': `PATCH /api/events/{id} {forReaders}` (editors). Any other PATCH body goes on to the events
 * API's own route.
 */
export const forReadersApi = new Hono<ApiEnv>().patch("/events/:id", async (c, next) => {
  const body: unknown = await c.req.raw
    .clone()
    .json()
    .catch(() => null);
  if (!body || typeof body !== "object" || Array.isArray(body) || !("forReaders" in body)) return next();
  const parsed = ForReadersSchema.safeParse(body);
  if (!parsed.success) {
    throw badRequest(
      parsed.error.issues[0]?.code === "unrecognized_keys" ? "forReaders is changed on its own" : "forReaders must be true or false",
    );
  }
  const id = idParam(c.req.param("id"), "Event not found");
  return c.json(await readerService.setForReaders(c.var.db, currentUser(c), id, parsed.data.forReaders));
});
