import { Hono } from "hono";
import { validator } from "hono/validator";
import { badRequest, notFound } from "../lib/errors";
import { readDocState } from "../lib/room";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as activityService from "../services/activity";
import { EVENT_NOT_FOUND, loadEventWithAccess } from "../services/events";
import * as reviewService from "../services/timeline-comments";
import { type ApiEnv, currentUser, rateLimited, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

export const reviewMessages = {
  status: "Status must be open or resolved",
  author: "Author must be a user id",
};

const share = (value: unknown) => (typeof value === "string" && value.length > 0 && value.length <= 100 ? value : undefined);

type Raw = Record<string, string | undefined>;
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** `?status=open|resolved&author=<userId>&counts=1&share=` of the timeline's comments (checked in the handler). */
const commentsQuery = validator("query", (value): { share?: string; status?: string; author?: string; counts?: string } => ({
  share: share(value.share),
  status: text(value.status),
  author: text(value.author),
  counts: text(value.counts),
}));

function commentsFilter({ status, author }: Raw): reviewService.TimelineCommentsFilter {
  if (status !== undefined && status !== "open" && status !== "resolved") throw badRequest(reviewMessages.status);
  if (author !== undefined && !/^\d{1,12}$/.test(author)) throw badRequest(reviewMessages.author);
  return { status, author: author === undefined ? undefined : Number(author) };
}

/** `?userId=&limit=&before=&share=` of the activity list (checked in the handler). */
const activityQuery = validator("query", (value): { share?: string; userId?: string; limit?: string; before?: string } => ({
  share: share(value.share),
  userId: text(value.userId),
  limit: text(value.limit),
  before: text(value.before),
}));

/** A timeline's review: its comments across scenes (or the open-thread counts for its cards) and its activity. */
export const reviewApi = new Hono<ApiEnv>()
  .get("/timelines/:id/comments", requireAuth, commentsQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const { share: code, counts, ...raw } = c.req.valid("query");
    const filter = commentsFilter(raw);
    if (counts === "1" || counts === "true") return c.json(await reviewService.countOpenComments(c.var.db, currentUser(c), id, code));
    return c.json(await reviewService.listTimelineComments(c.var.db, currentUser(c), id, filter, code));
  })
  .get("/timelines/:id/activity", requireAuth, rateLimited("activity"), activityQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const { share: code, ...raw } = c.req.valid("query");
    const query = activityService.parseActivityQuery(raw);
    return c.json(await activityService.listActivity(c.var.db, currentUser(c), id, query, code));
  })
  // Read mode's comments on the text: the scene's shared doc for any reader, so the selection becomes the same Yjs
  // relative positions the editor makes (the doc socket is for writers only).
  .get("/events/:id/doc-state", requireAuth, rateLimited("docState"), shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    await loadEventWithAccess(c.var.db, currentUser(c), id, "viewer", c.req.valid("query").share);
    const state = await readDocState(c.env, id);
    if (!state) throw notFound(EVENT_NOT_FOUND);
    return c.body(state as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "application/octet-stream", "Cache-Control": "no-store" });
  });
