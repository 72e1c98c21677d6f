import { Hono } from "hono";
import {
  CreateEventSchema,
  CreateTimelineSchema,
  ShareLinkSchema,
  ShareWithUserSchema,
  UpdateEventSchema,
  UpdateTimelineSchema,
} from "../../db/validation";
import { notifyRoom } from "../lib/room";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as eventsService from "../services/events";
import * as sharing from "../services/sharing";
import * as timelinesService from "../services/timelines";
import { type ApiEnv, currentUser, jsonBody, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

const by = (user: { id: number; name: string | null; email: string }) => ({
  userId: user.id,
  userName: user.name ?? user.email,
});

export const timelinesApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .get("/", async (c) => c.json(await timelinesService.listTimelines(c.var.db, currentUser(c))))
  .post("/", jsonBody(CreateTimelineSchema), async (c) => {
    const timeline = await timelinesService.createTimeline(c.var.db, currentUser(c), c.req.valid("json"));
    return c.json(timeline, 201);
  })
  .get("/shared/:shareCode", async (c) => {
    return c.json(await sharing.openSharedTimeline(c.var.db, currentUser(c), c.req.param("shareCode")));
  })
  .post("/:id/share", jsonBody(ShareLinkSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.createShareLink(c.var.db, currentUser(c), id, c.req.valid("json").role));
  })
  .get("/:id/shares", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.listShares(c.var.db, currentUser(c), id));
  })
  .post("/:id/share-with-user", jsonBody(ShareWithUserSchema), async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const share = await sharing.shareWithUser(c.var.db, user, id, c.req.valid("json"));
    notifyRoom(c.env, c.executionCtx, id, { action: "access-changed", by: by(user), userId: share.sharedWithUserId });
    return c.json(share, 201);
  })
  .delete("/:id/shares/:userId", async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const userId = idParam(c.req.param("userId"), "Share not found");
    const result = await sharing.removeShare(c.var.db, user, id, userId);
    // Access ends at once: the room closes that user's open connections.
    notifyRoom(c.env, c.executionCtx, id, { action: "access-changed", by: by(user), userId });
    return c.json(result);
  })
  .get("/:id", shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await timelinesService.getTimeline(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .patch("/:id", jsonBody(UpdateTimelineSchema), async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const timeline = await timelinesService.updateTimeline(c.var.db, user, id, c.req.valid("json"));
    notifyRoom(c.env, c.executionCtx, id, { action: "timeline-updated", by: by(user), subject: timeline.title });
    return c.json(timeline);
  })
  .delete("/:id", async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const result = await timelinesService.deleteTimeline(c.var.db, user, id);
    notifyRoom(c.env, c.executionCtx, id, { action: "timeline-deleted", by: by(user) });
    return c.json(result);
  })
  .get("/:id/events", shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await eventsService.listEvents(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/:id/events", shareQuery, jsonBody(CreateEventSchema), async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const event = await eventsService.createEvent(c.var.db, user, id, c.req.valid("json"), c.req.valid("query").share);
    notifyRoom(c.env, c.executionCtx, id, { action: "added", by: by(user), subject: event.title });
    return c.json(event, 201);
  });

export const eventsApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .patch("/:id", shareQuery, jsonBody(UpdateEventSchema), async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), eventsService.EVENT_NOT_FOUND);
    const result = await eventsService.updateEvent(c.var.db, user, id, c.req.valid("json"), c.req.valid("query").share);
    if (result.moved || result.edited) {
      notifyRoom(c.env, c.executionCtx, result.event.timelineId, {
        action: result.moved && !result.edited ? "reordered" : "edited",
        by: by(user),
        subject: result.event.title,
      });
    }
    return c.json(result.event);
  })
  .delete("/:id", shareQuery, async (c) => {
    const user = currentUser(c);
    const id = idParam(c.req.param("id"), eventsService.EVENT_NOT_FOUND);
    const result = await eventsService.deleteEvent(c.var.db, user, id, c.req.valid("query").share);
    notifyRoom(c.env, c.executionCtx, result.timelineId, { action: "deleted", by: by(user) });
    return c.json({ success: true });
  });
