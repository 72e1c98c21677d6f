import { type Context, Hono, type TypedResponse } from "hono";
import { createMiddleware } from "hono/factory";
import { etag } from "hono/etag";
import {
  CreateEventSchema,
  CreateTimelineSchema,
  ShareLinkSchema,
  ShareWithUserSchema,
  UpdateEventSchema,
  UpdateTimelineSchema,
} from "../../db/domain/validation";
import { localeOf } from "../../db/domain/calendar/locale";
import { TIMELINE_NOT_FOUND } from "../services/access";
import { type ListBody, gzipOf } from "../services/event-list";
import * as eventsService from "../services/events";
import { CreateEventBatchSchema, EVENT_BATCH_MAX, createEventBatch } from "../services/events-batch";
import { listPeople } from "../services/mentions";
import * as sharing from "../services/sharing";
import { createTimelineFrom } from "../services/templates";
import * as timelinesService from "../services/timelines";
import { spend } from "../services/rate-limits";
import { type ApiEnv, currentUser, deps, fileDeps, jsonBody, limiter, rateLimited, requireAuth } from "./context";
import { LEASE_MS, RETRY_AFTER_S, idempotencyMessages, idempotent } from "./idempotency";
import { eventListQuery, idParam, shareQuery } from "./params";

/**
 * Cheap refetches: a weak ETag from the SHA-1 of the JSON this caller gets, so it changes with
 * anything the caller would see change (a reorder, a codex link, a share), and `If-None-Match` answers 304
 * without a body. `private, no-cache` lets the browser keep the copy but ask every time; `Vary` because the
 * same URL answers differently per session (and story dates are in words in the writer's language).
 */
const revalidated = createMiddleware<ApiEnv>(async (c, next) => {
  await next();
  if (c.res.ok || c.res.status === 304) {
    c.res.headers.set("Cache-Control", "private, no-cache");
    c.res.headers.set("Vary", "Cookie, Authorization, Accept-Encoding, Accept-Language");
  }
});
const withEtag = etag({ weak: true });

/** RFC 9110 weak comparison of `If-None-Match` (a list, or `*`) with our weak validator. */
function matchesEtag(header: string | undefined, tag: string) {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, "");
  return header.split(",").some((v) => {
    const t = v.trim();
    return t === "*" || t.replace(/^W\//, "") === opaque;
  });
}

export const timelinesApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .get("/", revalidated, withEtag, async (c) => c.json(await timelinesService.listTimelines(c.var.db, currentUser(c))))
  .post("/", jsonBody(CreateTimelineSchema), async (c) => {
    const timeline = await createTimelineFrom(c.var.db, currentUser(c), c.req.valid("json"));
    return c.json(timeline, 201);
  })
  // Reads only: the code grants the link's level for this request; joining is the POST below.
  .get("/shared/:shareCode", async (c) => {
    return c.json(
      await sharing.openSharedTimeline(c.var.db, currentUser(c), c.req.param("shareCode"), localeOf(c.req.header("Accept-Language"))),
    );
  })
  .post("/shared/:shareCode/join", async (c) => {
    return c.json(await sharing.joinSharedTimeline(deps(c), currentUser(c), c.req.param("shareCode")));
  })
  .post("/:id/share", jsonBody(ShareLinkSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.createShareLink(deps(c), currentUser(c), id, c.req.valid("json").role));
  })
  .get("/:id/share", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.getShareLink(c.var.db, currentUser(c), id));
  })
  .post("/:id/share/reset", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.resetShareLink(deps(c), currentUser(c), id));
  })
  .delete("/:id/share", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.turnOffShareLink(deps(c), currentUser(c), id));
  })
  .get("/:id/people", shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await listPeople(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .get("/:id/shares", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.listShares(c.var.db, currentUser(c), id));
  })
  .post("/:id/share-with-user", jsonBody(ShareWithUserSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await sharing.shareWithUser(deps(c), currentUser(c), id, c.req.valid("json"), limiter(c)), 201);
  })
  .delete("/:id/shares/:userId", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const userId = idParam(c.req.param("userId"), "Share not found");
    return c.json(await sharing.removeShare(deps(c), currentUser(c), id, userId));
  })
  .delete("/:id/invitations/:invitationId", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const invitationId = idParam(c.req.param("invitationId"), sharing.INVITATION_NOT_FOUND);
    return c.json(await sharing.cancelInvitation(c.var.db, currentUser(c), id, invitationId));
  })
  .get("/:id", revalidated, withEtag, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await timelinesService.getTimeline(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .patch("/:id", jsonBody(UpdateTimelineSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await timelinesService.updateTimeline(deps(c), currentUser(c), id, c.req.valid("json")));
  })
  .delete("/:id", async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await timelinesService.deleteTimeline(fileDeps(c), currentUser(c), id));
  })
  .get("/:id/events", revalidated, eventListQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const { share, order } = c.req.valid("query");
    // The ETag comes from the timeline's events revision, checked before the list is read (or serialized).
    const row = c.var.timelineRow?.timeline.id === id ? c.var.timelineRow : null;
    const locale = localeOf(c.req.header("Accept-Language"));
    const list = await eventsService.eventsListSnapshot(c.var.db, currentUser(c), id, share, order, row, locale);
    // The JSON as serialized once (and cached). Typed as `c.json` would be for the RPC client: a browser
    // hands a 304 to the page as the 200 it kept.
    const res = matchesEtag(c.req.header("If-None-Match"), list.etag)
      ? c.body(null, 304, { ETag: list.etag })
      : await listResponse(c, await list.body(), list.etag);
    return res as unknown as TypedResponse<eventsService.EventView[], 200, "json">;
  })
  .post("/:id/events", shareQuery, jsonBody(CreateEventSchema), rateLimited("sceneCreates"), idempotent, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const event = await eventsService.createEvent(
      deps(c),
      currentUser(c),
      id,
      c.req.valid("json"),
      c.req.valid("query").share,
      c.var.idempotencyKey,
    );
    return c.json(event, 201);
  })
  // Queued creates sent together (the outbox, issue 46): each item answered once by its key, in the list's order.
  .post("/:id/events/batch", shareQuery, jsonBody(CreateEventBatchSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    // Each item is one new scene of the account's budget, as the single create counts it.
    await spend(limiter(c), "sceneCreates", `user:${currentUser(c).id}`, c.req.valid("json").events.length);
    const raw = (await c.req.json()) as { events: Record<string, unknown>[] };
    const result = await createEventBatch(
      deps(c),
      currentUser(c),
      id,
      c.req.valid("json"),
      raw.events.slice(0, EVENT_BATCH_MAX),
      c.req.valid("query").share,
      {
        reused: idempotencyMessages.reused,
        inProgress: idempotencyMessages.inProgress,
        retryAfter: RETRY_AFTER_S,
        leaseMs: LEASE_MS,
      },
    );
    return c.json({ events: result.events }, 201);
  });

export const eventsApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .patch("/:id", shareQuery, jsonBody(UpdateEventSchema), async (c) => {
    const id = idParam(c.req.param("id"), eventsService.EVENT_NOT_FOUND);
    const input = c.req.valid("json");
    // A move (a place in the story order or a chapter) is counted: a flood of them buries the Activity list.
    if (input.position !== undefined || input.chapterId !== undefined) await spend(limiter(c), "moves", `user:${currentUser(c).id}`);
    const result = await eventsService.updateEvent(deps(c), currentUser(c), id, input, c.req.valid("query").share);
    return c.json(result.event);
  })
  .delete("/:id", shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), eventsService.EVENT_NOT_FOUND);
    await eventsService.deleteEvent(fileDeps(c), currentUser(c), id, c.req.valid("query").share);
    return c.json({ success: true });
  });

/** A cached list as sent: gzipped once for clients that take it (sent as is, not compressed again), else its bytes. */
async function listResponse(c: Context<ApiEnv>, body: ListBody, etag: string) {
  const headers = { "Content-Type": "application/json", ETag: etag };
  if (!/\bgzip\b/.test(c.req.header("Accept-Encoding") ?? "")) return c.body(body.bytes, 200, headers);
  const gzip = await gzipOf(body);
  return new Response(gzip, { status: 200, headers: { ...headers, "Content-Encoding": "gzip" }, encodeBody: "manual" });
}
