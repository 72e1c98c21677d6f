import { Hono } from "hono";
import { SetPremiumSchema } from "../../db/validation";
import * as admin from "../services/admin";
import { type ApiEnv, jsonBody, requireAdmin } from "./context";
import { idParam } from "./params";

/**
 * Plans and administration (SPEC.md §7, DESIGN.md §7–§8). Mounted at the API root, so each route
 * carries its full path below /api.
 */
export const billingApi = new Hono<ApiEnv>()
  .use("/admin/*", requireAdmin)
  .get("/admin/users", async (c) => c.json(await admin.listUsers(c.var.db)))
  .post("/admin/users/:id/premium", jsonBody(SetPremiumSchema), async (c) => {
    const id = idParam(c.req.param("id"), admin.USER_NOT_FOUND);
    return c.json(await admin.setPremium(c.var.db, id, c.req.valid("json").premium));
  });
