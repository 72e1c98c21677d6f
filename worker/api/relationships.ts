import { Hono } from "hono";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as relationships from "../services/relationships";
import { type ApiEnv, currentUser, deps, jsonBody, rateLimited, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/**
 * Relationships between codex entries (DESIGN.md §12). Mounted at the API root: each route carries its own auth check.
 * Writes spend the account's relationship budget (429 past it) and tell the timeline's room.
 */
const writeRate = rateLimited("relationshipWrites");
export const relationshipsApi = new Hono<ApiEnv>()
  .get("/timelines/:id/relationships", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await relationships.listRelationships(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/timelines/:id/relationships", requireAuth, writeRate, shareQuery, jsonBody(relationships.CreateRelationshipSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const body = c.req.valid("json");
    return c.json(await relationships.createRelationship(deps(c), currentUser(c), id, body, c.req.valid("query").share), 201);
  })
  .patch("/relationships/:id", requireAuth, writeRate, shareQuery, jsonBody(relationships.UpdateRelationshipSchema), async (c) => {
    const id = idParam(c.req.param("id"), relationships.RELATIONSHIP_NOT_FOUND);
    return c.json(await relationships.updateRelationship(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/relationships/:id", requireAuth, writeRate, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), relationships.RELATIONSHIP_NOT_FOUND);
    return c.json(await relationships.deleteRelationship(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
