import { Hono } from "hono";
import { CreateChapterSchema, UpdateChapterSchema, chapterMessages } from "../../db/domain/validation";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as chaptersService from "../services/chapters";
import { type ApiEnv, currentUser, deps, jsonBody, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** Chapters, mounted at the API root like the codex: each route carries its full path and its own auth check. */
export const chaptersApi = new Hono<ApiEnv>()
  .get("/timelines/:id/chapters", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await chaptersService.listChapters(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/timelines/:id/chapters", requireAuth, shareQuery, jsonBody(CreateChapterSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const chapter = await chaptersService.createChapter(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share);
    return c.json(chapter, 201);
  })
  .patch("/chapters/:id", requireAuth, shareQuery, jsonBody(UpdateChapterSchema), async (c) => {
    const id = idParam(c.req.param("id"), chapterMessages.notFound);
    return c.json(await chaptersService.updateChapter(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/chapters/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), chapterMessages.notFound);
    return c.json(await chaptersService.deleteChapter(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
