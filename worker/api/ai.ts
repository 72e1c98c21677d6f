import { Hono } from "hono";
import { CharacterSchema, EnhanceSchema, IdeasSchema, OpenAIKeySchema, SuggestPlotSchema } from "../../db/validation";
import { parseSuggestion } from "../../app/lib/suggestion";
import { HttpError } from "../lib/errors";
import * as ai from "../services/ai";
import { listEventsForTimeline } from "../services/events";
import { setSecret } from "../services/settings";
import { requireTimelineAccess } from "../services/access";
import { type ApiEnv, jsonBody, requireAdmin, requireAuth } from "./context";
import { shareQuery } from "./params";

const session = (c: { var: ApiEnv["Variables"] }) => {
  if (!c.var.session) throw new HttpError(401, "Not authenticated");
  return c.var.session;
};

/**
 * AI calls (SPEC.md §7, DESIGN.md §6) and the admin-only OpenAI configuration (DESIGN.md §8).
 * Mounted at the API root, so each route carries its full path below /api.
 */
export const aiApi = new Hono<ApiEnv>()
  .use("/ideas/*", requireAuth)
  .use("/writing/*", requireAuth)
  .use("/story/*", requireAuth)
  .use("/ai/*", requireAuth)
  .use("/test/*", requireAuth)
  .use("/config/openai-status", requireAdmin)
  .use("/config/openai-key", requireAdmin)
  .get("/ai/usage", (c) => c.json(ai.usageOf(session(c))))
  .post("/ideas/generate", jsonBody(IdeasSchema), async (c) => {
    const { prompt } = c.req.valid("json");
    const s = session(c);
    const { text, usage } = await ai.runTool(c.var.db, c.env, s, "ideas", prompt);
    c.executionCtx.waitUntil(ai.saveIdea(c.var.db, s.user, prompt, text).catch((e) => console.error("[ai] saving idea failed:", e)));
    return c.json({ success: true, result: text, usage });
  })
  .post("/writing/enhance", jsonBody(EnhanceSchema), async (c) => {
    const { text, instruction } = c.req.valid("json");
    const result = await ai.runTool(c.var.db, c.env, session(c), "enhance", `Instruction: ${instruction}\n\nText:\n${text}`);
    return c.json({ success: true, result: result.text, usage: result.usage });
  })
  .post("/writing/character", jsonBody(CharacterSchema), async (c) => {
    const { description } = c.req.valid("json");
    const result = await ai.runTool(c.var.db, c.env, session(c), "character", description);
    return c.json({ success: true, result: result.text, usage: result.usage });
  })
  .post("/story/suggest-plot", shareQuery, jsonBody(SuggestPlotSchema), async (c) => {
    const { timelineId, prompt } = c.req.valid("json");
    const s = session(c);
    // Strangers get 404 like the timeline API; viewers may not use the Story Assistant.
    const { timeline } = await requireTimelineAccess(c.var.db, s.user, timelineId, "collaborator", c.req.query("share"));
    const events = await listEventsForTimeline(c.var.db, timelineId);
    const { text, usage } = await ai.runTool(c.var.db, c.env, s, "plot", ai.plotContext(timeline, events, prompt));
    const suggestion = parseSuggestion(text) ?? { title: "Untitled suggestion", content: "No content provided" };
    return c.json({ suggestion, text, usage });
  })
  .get("/test/openai", async (c) => c.json(await ai.testConnection(c.var.db, c.env)))
  .get("/config/openai-status", async (c) => {
    const { configured, source, model } = await ai.aiStatus(c.var.db, c.env);
    return c.json({ configured, source, model });
  })
  .post("/config/openai-key", jsonBody(OpenAIKeySchema), async (c) => {
    await setSecret(c.var.db, c.env, "OPENAI_API_KEY", c.req.valid("json").apiKey);
    const { configured, source } = await ai.aiStatus(c.var.db, c.env);
    return c.json({ success: true, message: "OpenAI API key configured successfully", configured, source });
  });
