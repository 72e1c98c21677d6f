import { Hono } from "hono";
import { OpenAIKeySchema, SetPremiumSchema, StripeKeysSchema } from "../../db/domain/validation";
import * as admin from "../services/admin";
import { adminUsage, aiStatus } from "../services/ai";
import { saveStripeKeys, stripeStatus } from "../services/billing";
import { setSecret } from "../services/settings";
import { type ApiEnv, jsonBody, requireAdmin } from "./context";
import { idParam } from "./params";

/**
 * Admin-only calls: 401 anonymous, 403 signed-in non-admin for everything below
 * `/api/admin` and `/api/config`. Keys saved here are never sent back: status calls answer only
 * whether a key is configured, where it comes from and its mode.
 */
export const adminApi = new Hono<ApiEnv>()
  .use(requireAdmin)
  .get("/users", async (c) => c.json(await admin.listUsers(c.var.db)))
  // Completed AI uses per day, everyone, last 30 days.
  .get("/ai-usage", async (c) => c.json(await adminUsage(c.var.db)))
  .post("/users/:id/premium", jsonBody(SetPremiumSchema), async (c) => {
    const id = idParam(c.req.param("id"), admin.USER_NOT_FOUND);
    return c.json(await admin.setPremium(c.var.db, id, c.req.valid("json").premium));
  });

export const configApi = new Hono<ApiEnv>()
  .use(requireAdmin)
  .get("/openai-status", async (c) => {
    const { configured, source, model } = await aiStatus(c.var.db, c.env);
    return c.json({ configured, source, model });
  })
  .post("/openai-key", jsonBody(OpenAIKeySchema), async (c) => {
    await setSecret(c.var.db, c.env, "OPENAI_API_KEY", c.req.valid("json").apiKey);
    const { configured, source } = await aiStatus(c.var.db, c.env);
    return c.json({ success: true, message: "OpenAI API key configured successfully", configured, source });
  })
  .get("/stripe-status", async (c) => c.json(await stripeStatus(c.var.db, c.env)))
  .post("/stripe-keys", jsonBody(StripeKeysSchema), async (c) => {
    const status = await saveStripeKeys(c.var.db, c.env, c.req.valid("json"));
    return c.json({ success: true, message: "Stripe keys configured successfully", ...status });
  });
