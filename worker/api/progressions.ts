import { Hono } from "hono";
import { TIMELINE_NOT_FOUND } from "../services/access";
import { ENTITY_NOT_FOUND } from "../services/entities";
import * as progressions from "../services/progressions";
import { type ApiEnv, currentUser, deps, jsonBody, rateLimited, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/**
 * Codex progressions (DESIGN.md §12). Mounted at the API root: each route carries its own auth check. Writes spend
 * the account's progression budget (429 past it) and tell the rooms of the entry's codex.
 */
const writeRate = rateLimited("progressionWrites");
export const progressionsApi = new Hono<ApiEnv>()
  .get("/timelines/:id/progressions", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await progressions.listTimelineProgressions(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .get("/entities/:id/progressions", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), ENTITY_NOT_FOUND);
    return c.json(await progressions.listProgressions(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/entities/:id/progressions", requireAuth, writeRate, shareQuery, jsonBody(progressions.CreateProgressionSchema), async (c) => {
    const id = idParam(c.req.param("id"), ENTITY_NOT_FOUND);
    const body = c.req.valid("json");
    return c.json(await progressions.createProgression(deps(c), currentUser(c), id, body, c.req.valid("query").share), 201);
  })
  .patch("/progressions/:id", requireAuth, writeRate, shareQuery, jsonBody(progressions.UpdateProgressionSchema), async (c) => {
    const id = idParam(c.req.param("id"), progressions.PROGRESSION_NOT_FOUND);
    return c.json(await progressions.updateProgression(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/progressions/:id", requireAuth, writeRate, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), progressions.PROGRESSION_NOT_FOUND);
    return c.json(await progressions.deleteProgression(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
