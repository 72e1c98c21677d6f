import { Hono } from "hono";
import { CreateEntitySchema, UpdateEntitySchema } from "../../db/domain/validation";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as entitiesService from "../services/entities";
import { linkAllMentions } from "../services/link-mentions";
import { type ApiEnv, currentUser, deps, jsonBody, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/**
 * The codex. Mounted at the API root, so each route carries its full path below
 * /api and its own auth check (a router-wide `use` would guard every /api path).
 */
export const entitiesApi = new Hono<ApiEnv>()
  .get("/timelines/:id/entities", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await entitiesService.listEntities(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/timelines/:id/entities", requireAuth, shareQuery, jsonBody(CreateEntitySchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const entity = await entitiesService.createEntity(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share);
    return c.json(entity, 201);
  })
  // 'Link all mentions': every entry linked to every scene that names it (editors); `{linked: n}`.
  .post("/timelines/:id/codex/link-mentions", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await linkAllMentions(deps(c), currentUser(c), id, c.req.valid("query").share));
  })
  .patch("/entities/:id", requireAuth, shareQuery, jsonBody(UpdateEntitySchema), async (c) => {
    const id = idParam(c.req.param("id"), entitiesService.ENTITY_NOT_FOUND);
    return c.json(await entitiesService.updateEntity(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/entities/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), entitiesService.ENTITY_NOT_FOUND);
    return c.json(await entitiesService.deleteEntity(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
