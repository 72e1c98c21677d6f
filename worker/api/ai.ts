import { Hono } from "hono";
import type { ApiEnv } from "./context";

/**
 * AI calls (SPEC.md §7, DESIGN.md §6): /ideas/generate, /writing/enhance, /writing/character,
 * /story/suggest-plot, /test/openai, and the admin-only /config/openai-status and /config/openai-key.
 * Mounted at the API root, so each route carries its full path below /api.
 */
export const aiApi = new Hono<ApiEnv>();
