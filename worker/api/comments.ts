import { Hono } from "hono";
import { CreateCommentSchema, UpdateCommentSchema, commentMessages } from "../../db/domain/validation";
import * as commentsService from "../services/comments";
import { EVENT_NOT_FOUND } from "../services/events";
import { type ApiEnv, currentUser, deps, jsonBody, limiter, rateLimited, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** Comments on a scene's text, mounted at the API root: each route carries its full path and its own auth check. */
export const commentsApi = new Hono<ApiEnv>()
  .get("/events/:id/comments", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    return c.json(await commentsService.listComments(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/events/:id/comments", requireAuth, shareQuery, jsonBody(CreateCommentSchema), async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    const comment = await commentsService.createComment(
      deps(c),
      limiter(c),
      currentUser(c),
      id,
      c.req.valid("json"),
      c.req.valid("query").share,
    );
    return c.json(comment, 201);
  })
  .patch("/comments/:id", requireAuth, rateLimited("commentEdits"), shareQuery, jsonBody(UpdateCommentSchema), async (c) => {
    const id = idParam(c.req.param("id"), commentMessages.notFound);
    return c.json(await commentsService.updateComment(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/comments/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), commentMessages.notFound);
    return c.json(await commentsService.deleteComment(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
