import { Hono } from "hono";
import { CreateTemplateSchema, StructureSchema } from "../../db/domain/validation-templates";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as templatesService from "../services/templates";
import { type ApiEnv, currentUser, deps, jsonBody, rateLimited, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** Beat-sheet templates and a timeline's structure overlay, mounted at the API root: each route has its full path. */
export const templatesApi = new Hono<ApiEnv>()
  .get("/templates", requireAuth, async (c) => c.json(await templatesService.listTemplates(c.var.db, currentUser(c))))
  .post("/templates", requireAuth, rateLimited("planWrites"), jsonBody(CreateTemplateSchema), async (c) => {
    return c.json(await templatesService.saveTemplate(c.var.db, currentUser(c), c.req.valid("json")), 201);
  })
  .delete("/templates/:id", requireAuth, rateLimited("planWrites"), async (c) => {
    return c.json(await templatesService.deleteTemplate(c.var.db, currentUser(c), c.req.param("id")));
  })
  .get("/timelines/:id/structure", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await templatesService.getStructure(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .put("/timelines/:id/structure", requireAuth, rateLimited("planWrites"), shareQuery, jsonBody(StructureSchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    const { templateId } = c.req.valid("json");
    return c.json(await templatesService.setStructure(deps(c), currentUser(c), id, templateId, c.req.valid("query").share));
  });
