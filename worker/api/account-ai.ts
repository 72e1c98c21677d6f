import { Hono } from "hono";
import { removeWriterAi, describeWriterAi, saveWriterAi, testWriterAi, WriterAiSchema } from "../services/writer-ai";
import { type ApiEnv, currentUser, jsonBody, rateLimited } from "./context";

/** Bring your own model (DESIGN.md §12), mounted at /api/account/ai behind the account's requireAuth. */
export const accountAiApi = new Hono<ApiEnv>()
  .get("/", async (c) => c.json(await describeWriterAi(c.var.db, currentUser(c).id)))
  .put("/", jsonBody(WriterAiSchema), async (c) => c.json(await saveWriterAi(c.var.db, c.env, currentUser(c).id, c.req.valid("json"))))
  .delete("/", async (c) => {
    await removeWriterAi(c.var.db, currentUser(c).id);
    return c.json({ provider: null, baseUrl: null, model: null, keySet: false });
  })
  // 'Test connection': spends the writer's own key, rate-limited like the admin's test.
  .post("/test", rateLimited("aiTest"), async (c) => c.json(await testWriterAi(c.var.db, c.env, currentUser(c).id)));
