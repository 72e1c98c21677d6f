import { Hono } from "hono";
import { SetPremiumSchema, StripeKeysSchema, UpgradeSchema } from "../../db/validation";
import * as admin from "../services/admin";
import * as billing from "../services/billing";
import { type ApiEnv, currentUser, jsonBody, requireAdmin, requireAuth } from "./context";
import { idParam } from "./params";

/**
 * Plans, billing and administration (SPEC.md §7, DESIGN.md §7–§8). Mounted at the API root, so
 * each route carries its full path below /api.
 */
export const billingApi = new Hono<ApiEnv>()
  .use("/admin/*", requireAdmin)
  .use("/config/stripe-*", requireAdmin)
  .get("/admin/users", async (c) => c.json(await admin.listUsers(c.var.db)))
  .post("/admin/users/:id/premium", jsonBody(SetPremiumSchema), async (c) => {
    const id = idParam(c.req.param("id"), admin.USER_NOT_FOUND);
    return c.json(await admin.setPremium(c.var.db, id, c.req.valid("json").premium));
  })
  .get("/config/stripe-status", async (c) => c.json(await billing.stripeStatus(c.var.db, c.env)))
  .post("/config/stripe-keys", jsonBody(StripeKeysSchema), async (c) => {
    const status = await billing.saveStripeKeys(c.var.db, c.env, c.req.valid("json"));
    return c.json({ success: true, message: "Stripe keys configured successfully", ...status });
  })
  // Stripe calls this one itself: no session, the signature is the authentication.
  .post("/subscription/webhook", async (c) => {
    const payload = await c.req.text();
    return c.json(await billing.handleWebhook(c.var.db, c.env, payload, c.req.header("Stripe-Signature") ?? null));
  })
  .use("/subscription/*", requireAuth)
  .post("/subscription/create-checkout-session", async (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json(await billing.createCheckout(c.var.db, c.env, currentUser(c), origin));
  })
  .post("/subscription/upgrade", jsonBody(UpgradeSchema), async (c) => {
    return c.json(await billing.confirmUpgrade(c.var.db, c.env, currentUser(c), c.req.valid("json").session_id));
  })
  .post("/subscription/downgrade", async (c) => c.json(await billing.downgrade(c.var.db, c.env, currentUser(c))));
