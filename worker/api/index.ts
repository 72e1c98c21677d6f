import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { createDb } from "../../db/client";
import { limits } from "../../db/domain/validation";
import { HttpError, UNEXPECTED, forbidden } from "../lib/errors";
import { isCrossSiteMutation } from "../lib/request-auth";
import { createLiveDocs, createRoomNotifier } from "../lib/room";
import { authenticate, authenticateWithTimeline } from "../services/sessions";
import { accountApi } from "./account";
import { progressionsApi } from "./progressions";
import { relationshipsApi } from "./relationships";
import { adminApi, configApi } from "./admin";
import { aiApi } from "./ai";
import { ATTACHMENT_UPLOAD_PATH, attachmentsApi } from "./attachments";
import { authApi } from "./auth";
import { billingApi } from "./billing";
import { chaptersApi } from "./chapters";
import { calendarApi } from "./calendar";
import { plotlinesApi } from "./plotlines";
import { seriesApi } from "./series";
import { forReadersApi, readerLinksApi } from "./readers";
import { commentsApi } from "./comments";
import { tasksApi } from "./tasks";
import { reviewApi } from "./timeline-review";
import { entitiesApi } from "./entities";
import { mindMapApi } from "./mind-map";
import { notificationsApi } from "./notifications";
import { oauthApi } from "./oauth";
import { openApiRoutes } from "./openapi";
import { templatesApi } from "./templates";
import { trashApi } from "./trash";
import { eventsApi, timelinesApi } from "./timelines";
import { transferApi } from "./transfer";
import { versionsApi } from "./versions";
import type { ApiEnv } from "./context";

const apiBodyLimit = bodyLimit({
  maxSize: limits.body,
  onError: (c) => c.json({ error: "Request body is too large" }, 413),
});

const IMPORT_PATH = "/api/timelines/import";
const EVENTS_LIST_PATH = /^\/api\/timelines\/(\d{1,15})\/events$/;

export const api = new Hono<ApiEnv>()
  .basePath("/api")
  .use((c, next) =>
    // An attachment upload and a book's import have their own, larger limits (worker/api/attachments.ts, transfer.ts).
    c.req.method === "POST" && (ATTACHMENT_UPLOAD_PATH.test(c.req.path) || c.req.path === IMPORT_PATH) ? next() : apiBodyLimit(c, next),
  )
  .use(async (c, next) => {
    if (isCrossSiteMutation(c.req.raw)) throw forbidden("Cross-site request refused");
    const db = createDb(c.env.DB);
    c.set("db", db);
    const defer = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    // A timeline's events list (refetched by every open page on each change) reads its session and the
    // timeline's access in one round trip.
    const listOf = c.req.method === "GET" ? EVENTS_LIST_PATH.exec(c.req.path) : null;
    const timelineId = listOf ? Number(listOf[1]) : 0;
    const auth =
      Number.isSafeInteger(timelineId) && timelineId > 0
        ? await authenticateWithTimeline(c.req.raw, db, timelineId, defer)
        : { ...(await authenticate(c.req.raw, db, defer)), timeline: null };
    c.set("timelineRow", auth.timeline);
    c.set("room", createRoomNotifier(c.env, c.executionCtx, c.req.raw, auth.session?.user.id));
    c.set("docs", createLiveDocs(c.env));
    c.set("session", auth.session);
    c.set("authVia", auth.via);
    c.set("token", auth.token);
    await next();
  })
  .route("/auth/oauth", oauthApi)
  .route("/auth", authApi)
  .route("/", forReadersApi)
  .route("/", tasksApi)
  .route("/timelines", timelinesApi)
  .route("/events", eventsApi)
  .route("/trash", trashApi)
  .route("/subscription", billingApi)
  .route("/account", accountApi)
  .route("/notifications", notificationsApi)
  .route("/admin", adminApi)
  .route("/config", configApi)
  .route("/", chaptersApi)
  .route("/", templatesApi)
  .route("/series", seriesApi)
  .route("/", plotlinesApi)
  .route("/", calendarApi)
  .route("/", commentsApi)
  .route("/", readerLinksApi)
  .route("/", reviewApi)
  .route("/", aiApi)
  .route("/", entitiesApi)
  .route("/", progressionsApi)
  .route("/", relationshipsApi)
  .route("/", mindMapApi)
  .route("/", transferApi)
  .route("/", versionsApi)
  .route("/", attachmentsApi)
  .route("/", openApiRoutes);

api.notFound((c) => c.json({ error: "Not found" }, 404));

api.onError((err, c) => {
  if (err instanceof HttpError) {
    if (err.extra?.retryAfter) c.header("Retry-After", String(err.extra.retryAfter));
    return c.json({ error: err.message, ...err.extra }, err.status as ContentfulStatusCode);
  }
  if (err instanceof HTTPException) {
    const message = err.status === 400 && /json/i.test(err.message) ? "Invalid JSON in request body" : err.message;
    return c.json({ error: message || "Bad request" }, err.status);
  }
  console.error("[api] unhandled error:", err);
  return c.json({ error: UNEXPECTED }, 500);
});

export type Api = typeof api;
