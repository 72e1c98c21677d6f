import { Hono } from "hono";
import { CharacterSchema, EnhanceSchema, IdeasSchema, SuggestPlotSchema } from "../../db/validation";
import { HttpError } from "../lib/errors";
import * as ai from "../services/ai";
import { suggestPlot } from "../services/story-ai";
import { type ApiEnv, jsonBody, rateLimited, requireAdmin, requireAuth } from "./context";
import { shareQuery } from "./params";

const session = (c: { var: ApiEnv["Variables"] }) => {
  if (!c.var.session) throw new HttpError(401, "Not authenticated");
  return c.var.session;
};

/** After the input is valid: per account and per client address (RATE_AI_* vars). */
const aiRate = rateLimited("aiAccount", "aiClient");

/**
 * AI calls (SPEC.md §7, DESIGN.md §6); the admin-only OpenAI configuration is in admin.ts.
 * Mounted at the API root, so each route carries its full path below /api.
 */
export const aiApi = new Hono<ApiEnv>()
  .use("/ideas/*", requireAuth)
  .use("/writing/*", requireAuth)
  .use("/story/*", requireAuth)
  .use("/ai/*", requireAuth)
  // Spends the AI key without counting against any allowance: admins only (DESIGN.md §10 Deviation (AI test)).
  .use("/test/*", requireAdmin)
  .get("/ai/usage", (c) => c.json(ai.usageOf(session(c))))
  .post("/ideas/generate", jsonBody(IdeasSchema), aiRate, async (c) => {
    const { prompt } = c.req.valid("json");
    const s = session(c);
    const { text, usage } = await ai.runTool(c.var.db, c.env, s, "ideas", prompt);
    c.executionCtx.waitUntil(ai.saveIdea(c.var.db, s.user, prompt, text).catch((e) => console.error("[ai] saving idea failed:", e)));
    return c.json({ success: true, result: text, usage });
  })
  .post("/writing/enhance", jsonBody(EnhanceSchema), aiRate, async (c) => {
    const { text, instruction } = c.req.valid("json");
    const result = await ai.runTool(c.var.db, c.env, session(c), "enhance", `Instruction: ${instruction}\n\nText:\n${text}`);
    return c.json({ success: true, result: result.text, usage: result.usage });
  })
  .post("/writing/character", jsonBody(CharacterSchema), aiRate, async (c) => {
    const { description } = c.req.valid("json");
    const result = await ai.runTool(c.var.db, c.env, session(c), "character", description);
    return c.json({ success: true, result: result.text, usage: result.usage });
  })
  .post("/story/suggest-plot", shareQuery, jsonBody(SuggestPlotSchema), aiRate, async (c) => {
    const { suggestion, text, usage } = await suggestPlot(c.var.db, c.env, session(c), c.req.valid("json"), c.req.valid("query").share);
    return c.json({ suggestion, text, usage });
  })
  .get("/test/openai", rateLimited("aiTest"), async (c) => c.json(await ai.testConnection(c.var.db, c.env)));
