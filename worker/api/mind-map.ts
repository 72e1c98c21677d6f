import { Hono } from "hono";
import {
  CreateMapEdgeSchema,
  CreateMapNodeSchema,
  MapPositionsSchema,
  UpdateMapEdgeSchema,
  UpdateMapNodeSchema,
} from "../../db/domain/validation";
import { localeOf } from "../../db/domain/calendar/locale";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as mindMap from "../services/mind-map";
import { type ApiEnv, currentUser, deps, jsonBody, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/**
 * The mind map. Mounted at the API root like the codex, so each route
 * carries its full path below /api and its own auth check.
 */
export const mindMapApi = new Hono<ApiEnv>()
  .get("/timelines/:id/map", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(
      await mindMap.getMap(c.var.db, currentUser(c), id, c.req.valid("query").share, localeOf(c.req.header("Accept-Language"))),
    );
  })
  .put("/timelines/:id/map/positions", requireAuth, shareQuery, jsonBody(MapPositionsSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await mindMap.savePositions(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .post("/timelines/:id/map/nodes", requireAuth, shareQuery, jsonBody(CreateMapNodeSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await mindMap.createNode(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share), 201);
  })
  .patch("/map-nodes/:id", requireAuth, shareQuery, jsonBody(UpdateMapNodeSchema), async (c) => {
    const id = idParam(c.req.param("id"), mindMap.MAP_NODE_NOT_FOUND);
    return c.json(await mindMap.updateNode(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/map-nodes/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), mindMap.MAP_NODE_NOT_FOUND);
    return c.json(await mindMap.deleteNode(deps(c), currentUser(c), id, c.req.valid("query").share));
  })
  .post("/timelines/:id/map/edges", requireAuth, shareQuery, jsonBody(CreateMapEdgeSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await mindMap.createEdge(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share), 201);
  })
  .patch("/map-edges/:id", requireAuth, shareQuery, jsonBody(UpdateMapEdgeSchema), async (c) => {
    const id = idParam(c.req.param("id"), mindMap.MAP_EDGE_NOT_FOUND);
    return c.json(await mindMap.updateEdge(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/map-edges/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), mindMap.MAP_EDGE_NOT_FOUND);
    return c.json(await mindMap.deleteEdge(deps(c), currentUser(c), id, c.req.valid("query").share));
  });
