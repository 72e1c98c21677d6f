import { Hono } from "hono";
import * as trash from "../services/trash";
import { type ApiEnv, currentUser, deps, rateLimited, requireAuth } from "./context";
import { idParam } from "./params";

/** GET /api/trash and POST /api/trash/{kind}/{id}/restore (signed in). */
export const trashApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .get("/", async (c) => c.json(await trash.listTrash(c.var.db, currentUser(c))))
  .post("/:kind/:id/restore", rateLimited("trashRestores"), async (c) => {
    const kind = trash.trashKind(c.req.param("kind"));
    const id = idParam(c.req.param("id"), kind === "event" ? trash.EVENT_NOT_FOUND : trash.TIMELINE_NOT_FOUND);
    return c.json(await trash.restoreFromTrash(deps(c), currentUser(c), kind, id));
  });
