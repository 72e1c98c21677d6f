import { Hono } from "hono";
import { UpgradeSchema } from "../../db/domain/validation";
import * as billing from "../services/billing";
import { type ApiEnv, currentUser, jsonBody, requireAuth } from "./context";

/** Subscriptions; the Stripe key configuration is in admin.ts. */
export const billingApi = new Hono<ApiEnv>()
  // Stripe calls this one itself: no session, the signature is the authentication.
  .post("/webhook", async (c) => {
    const payload = await c.req.text();
    return c.json(await billing.handleWebhook(c.var.db, c.env, payload, c.req.header("Stripe-Signature") ?? null));
  })
  .use(requireAuth)
  .post("/create-checkout-session", async (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json(await billing.createCheckout(c.var.db, c.env, currentUser(c), origin));
  })
  .post("/upgrade", jsonBody(UpgradeSchema), async (c) => {
    return c.json(await billing.confirmUpgrade(c.var.db, c.env, currentUser(c), c.req.valid("json").session_id));
  })
  .post("/downgrade", async (c) => c.json(await billing.downgrade(c.var.db, c.env, currentUser(c))));
