import { Hono } from "hono";
import { CreatePlotlineSchema, UpdatePlotlineSchema, plotlineMessages } from "../../db/domain/validation-plotlines";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as plotlinesService from "../services/plotlines";
import { type ApiEnv, currentUser, deps, jsonBody, rateLimited, requireAuth } from "./context";
import { idempotent } from "./idempotency";
import { idParam, shareQuery } from "./params";

/** Plotlines, mounted at the API root like chapters: each route carries its full path and its own auth check. */
export const plotlinesApi = new Hono<ApiEnv>()
  .get("/timelines/:id/plotlines", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await plotlinesService.listPlotlines(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post(
    "/timelines/:id/plotlines",
    requireAuth,
    rateLimited("planWrites"),
    shareQuery,
    jsonBody(CreatePlotlineSchema),
    idempotent,
    async (c) => {
      const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
      const plotline = await plotlinesService.createPlotline(
        deps(c),
        currentUser(c),
        id,
        c.req.valid("json"),
        c.req.valid("query").share,
        c.var.idempotencyKey,
      );
      return c.json(plotline, 201);
    },
  )
  .patch("/plotlines/:id", requireAuth, rateLimited("planWrites"), shareQuery, jsonBody(UpdatePlotlineSchema), async (c) => {
    const id = idParam(c.req.param("id"), plotlineMessages.notFound);
    return c.json(await plotlinesService.updatePlotline(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/plotlines/:id", requireAuth, rateLimited("planWrites"), shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), plotlineMessages.notFound);
    return c.json(await plotlinesService.deletePlotline(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
