import { Hono } from "hono";
import type { ApiEnv } from "./context";

/**
 * Plans and billing (SPEC.md §7, DESIGN.md §7–§8): /subscription/*, the Stripe webhook, the
 * admin-only /config/stripe-status and /config/stripe-keys, and /admin/users.
 * Mounted at the API root, so each route carries its full path below /api.
 */
export const billingApi = new Hono<ApiEnv>();
