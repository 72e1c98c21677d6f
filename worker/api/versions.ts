import { Hono } from "hono";
import { EVENT_NOT_FOUND } from "../services/events";
import * as versionsService from "../services/versions";
import { z } from "zod";
import { VERSION_NAME_MAX } from "../../db/domain/rules";
import { type ApiEnv, currentUser, deps, jsonBody, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** PATCH /api/event-versions/{id}: an empty or null name clears it. */
export const NameVersionSchema = z.object({
  name: z
    .string({ error: "Version name must be text" })
    .trim()
    .max(VERSION_NAME_MAX, `Version name must be ${VERSION_NAME_MAX} characters or less`)
    .nullable(),
});

/**
 * Event version history. Mounted at the API root, so each route carries its
 * full path below /api and its own auth check.
 */
export const versionsApi = new Hono<ApiEnv>()
  .get("/events/:id/versions", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    return c.json(await versionsService.listVersions(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .get("/event-versions/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), versionsService.VERSION_NOT_FOUND);
    return c.json(await versionsService.getVersion(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .patch("/event-versions/:id", requireAuth, shareQuery, jsonBody(NameVersionSchema), async (c) => {
    const id = idParam(c.req.param("id"), versionsService.VERSION_NOT_FOUND);
    const { name } = c.req.valid("json");
    return c.json(await versionsService.nameVersion(c.var.db, currentUser(c), id, name, c.req.valid("query").share));
  })
  .post("/event-versions/:id/restore", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), versionsService.VERSION_NOT_FOUND);
    return c.json(await versionsService.restoreVersion(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
