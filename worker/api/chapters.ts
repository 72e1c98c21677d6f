import { Hono } from "hono";
import { CreateChapterSchema, ProgressQuerySchema, UpdateChapterSchema, chapterMessages, firstIssue } from "../../db/domain/validation";
import { TIMELINE_NOT_FOUND } from "../services/access";
import { badRequest } from "../lib/errors";
import * as chaptersService from "../services/chapters";
import { timelineProgress } from "../services/progress";
import { CHAPTER_BATCH_MAX, CreateChapterBatchSchema, type SentChapter, createChapterBatch } from "../services/chapters-batch";
import { spend } from "../services/rate-limits";
import { type ApiEnv, currentUser, deps, jsonBody, limiter, rateLimited, requireAuth } from "./context";
import { LEASE_MS, RETRY_AFTER_S, idempotencyMessages, idempotent } from "./idempotency";
import { idParam, shareQuery } from "./params";

/** Chapters and progress, mounted at the API root like the codex: each route carries its full path and its own auth check. */
const chapterRate = rateLimited("chapterWrites");

export const chaptersApi = new Hono<ApiEnv>()
  .get("/timelines/:id/chapters", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await chaptersService.listChapters(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/timelines/:id/chapters", requireAuth, shareQuery, jsonBody(CreateChapterSchema), chapterRate, idempotent, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const chapter = await chaptersService.createChapter(
      deps(c),
      currentUser(c),
      id,
      c.req.valid("json"),
      c.req.valid("query").share,
      c.var.idempotencyKey,
    );
    return c.json(chapter, 201);
  })
  // Queued creates sent together (the outbox, issue 46): each item answered once by its key, in the list's order.
  .post("/timelines/:id/chapters/batch", requireAuth, shareQuery, jsonBody(CreateChapterBatchSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const input = c.req.valid("json");
    // Each item is one chapter change of the account's budget.
    await spend(limiter(c), "chapterWrites", `user:${currentUser(c).id}`, input.chapters.length);
    const raw = (await c.req.json()) as { chapters: SentChapter[] };
    const result = await createChapterBatch(
      deps(c),
      currentUser(c),
      id,
      input,
      raw.chapters.slice(0, CHAPTER_BATCH_MAX),
      c.req.valid("query").share,
      {
        reused: idempotencyMessages.reused,
        inProgress: idempotencyMessages.inProgress,
        retryAfter: RETRY_AFTER_S,
        leaseMs: LEASE_MS,
      },
    );
    return c.json({ chapters: result.chapters }, 201);
  })
  .get("/timelines/:id/progress", requireAuth, shareQuery, rateLimited("progress"), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const query = ProgressQuerySchema.safeParse({ by: c.req.query("by"), tz: c.req.query("tz") });
    if (!query.success) throw badRequest(firstIssue(query.error));
    const progress = await timelineProgress(c.var.db, currentUser(c), id, {
      shareCode: c.req.valid("query").share,
      byWriter: query.data.by === "writer",
      timeZone: query.data.tz,
    });
    return c.json(progress);
  })
  .patch("/chapters/:id", requireAuth, shareQuery, jsonBody(UpdateChapterSchema), chapterRate, async (c) => {
    const id = idParam(c.req.param("id"), chapterMessages.notFound);
    return c.json(await chaptersService.updateChapter(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/chapters/:id", requireAuth, shareQuery, chapterRate, async (c) => {
    const id = idParam(c.req.param("id"), chapterMessages.notFound);
    return c.json(await chaptersService.deleteChapter(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
