import { Hono } from "hono";
import type { Context } from "hono";
import {
  CharacterSchema,
  ContinueSceneSchema,
  EnhanceSchema,
  IdeasSchema,
  StopStreamSchema,
  SuggestPlotSchema,
  TransformSchema,
} from "../../db/domain/validation";
import { HttpError, UNEXPECTED } from "../lib/errors";
import * as ai from "../services/ai";
import { continueScene, suggestPlot, transformText } from "../services/story-ai";
import { type ApiEnv, jsonBody, rateLimited, requireAdmin, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

const session = (c: { var: ApiEnv["Variables"] }) => {
  if (!c.var.session) throw new HttpError(401, "Not authenticated");
  return c.var.session;
};

/** After the input is valid: per account and per client address (RATE_AI_* vars). */
const aiRate = rateLimited("aiAccount", "aiClient");

const wantsStream = (c: Context<ApiEnv>) => (c.req.header("Accept") ?? "").includes("text/event-stream");

/**
 * Streaming AI (docs/api.md). Without `Accept: text/event-stream`: the JSON answer (`json`). With it:
 * every check before the upstream call (access, allowance, configuration) still answers with its
 * status and JSON error; after that the answer is Server-Sent Events — `{"delta"}` as the model
 * writes, then `{"done": true, "result"}` or `{"error"}`. A client that goes away (request signal or
 * stream cancel) aborts the upstream call; the service gives the free use back only if no text had reached it.
 */
async function answer<R, J extends object>(
  c: Context<ApiEnv>,
  work: (stream: ai.StreamOptions) => Promise<R>,
  json: (r: R) => J,
  done: (r: R) => unknown,
) {
  const asJson = (r: R) => c.json(json(r));
  if (!wantsStream(c)) return asJson(await work({}));
  const stop = new AbortController();
  const abort = () => stop.abort();
  c.req.raw.signal?.addEventListener?.("abort", abort);
  // 'Stop generating' may also arrive as POST /api/ai/stop naming this stream (X-AI-Stream-Id).
  const streamId = c.req.header("X-AI-Stream-Id");
  const unwatch =
    streamId && ai.STREAM_ID.test(streamId) && c.var.session ? ai.watchStop(c.var.db, c.var.session.user.id, streamId, abort) : null;
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  /** False when the writer has gone (the body was cancelled): the text did not reach them. */
  const send = (payload: unknown) => {
    if (!open) return false;
    try {
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(payload)}\n\n`));
      return true;
    } catch {
      open = false;
      return false;
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      controller = ctrl;
    },
    cancel() {
      open = false;
      abort();
    },
  });
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const run = work({ signal: stop.signal, onReady: ready, onDelta: (delta) => send({ delta }) });
  // Errors before the upstream call (access, allowance, configuration) are ordinary JSON answers.
  try {
    await Promise.race([started, run]);
  } catch (error) {
    await unwatch?.();
    throw error;
  }
  const finished = run
    .then((r) => send({ ...json(r), done: true, result: done(r) }))
    .catch((error) => {
      const message = error instanceof HttpError ? error.message : UNEXPECTED;
      if (!(error instanceof HttpError)) console.error("[ai] stream failed:", error);
      send({ error: message });
    })
    .finally(async () => {
      await unwatch?.();
      c.req.raw.signal?.removeEventListener?.("abort", abort);
      if (open) {
        open = false;
        try {
          controller.close();
        } catch {}
      }
    });
  c.executionCtx.waitUntil(finished);
  // Typed as the JSON answer for the typed client (`hc<Api>`); streaming callers read the body themselves.
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
  }) as unknown as ReturnType<typeof asJson>;
}

/**
 * AI calls; the admin-only OpenAI configuration is in admin.ts.
 * Mounted at the API root, so each route carries its full path below /api.
 */
export const aiApi = new Hono<ApiEnv>()
  .use("/ideas/*", requireAuth)
  .use("/writing/*", requireAuth)
  .use("/story/*", requireAuth)
  .use("/ai/*", requireAuth)
  .use("/events/:id/continue", requireAuth)
  // Spends the AI key without counting against any allowance: admins only.
  .use("/test/*", requireAdmin)
  .get("/ai/usage", async (c) => c.json(await ai.usageFor(c.var.db, session(c).user)))
  // This writer's completed AI uses per day of the current month (the /account chart).
  // 'Stop generating' for a stream a proxy keeps open (see ai.watchStop): 204 whatever the id.
  .post("/ai/stop", jsonBody(StopStreamSchema), rateLimited("aiAccount"), async (c) => {
    await ai.requestStop(c.var.db, session(c).user.id, c.req.valid("json").id);
    return c.body(null, 204);
  })
  .get("/ai/usage/daily", async (c) => c.json(await ai.monthlyUsage(c.var.db, session(c).user.id)))
  .post("/ideas/generate", jsonBody(IdeasSchema), aiRate, async (c) => {
    const { prompt } = c.req.valid("json");
    const s = session(c);
    return answer(
      c,
      async (stream) => {
        const r = await ai.runTool(c.var.db, c.env, s, "ideas", prompt, stream);
        c.executionCtx.waitUntil(ai.saveIdea(c.var.db, s.user, prompt, r.text).catch((e) => console.error("[ai] saving idea failed:", e)));
        return r;
      },
      (r) => ({ success: true, result: r.text, usage: r.usage }),
      (r) => r.text,
    );
  })
  .post("/writing/enhance", jsonBody(EnhanceSchema), aiRate, async (c) => {
    const { text, instruction } = c.req.valid("json");
    return answer(
      c,
      (stream) => ai.runTool(c.var.db, c.env, session(c), "enhance", `Instruction: ${instruction}\n\nText:\n${text}`, stream),
      (r) => ({ success: true, result: r.text, usage: r.usage }),
      (r) => r.text,
    );
  })
  .post("/writing/character", jsonBody(CharacterSchema), aiRate, async (c) => {
    const { description } = c.req.valid("json");
    return answer(
      c,
      (stream) => ai.runTool(c.var.db, c.env, session(c), "character", description, stream),
      (r) => ({ success: true, result: r.text, usage: r.usage }),
      (r) => r.text,
    );
  })
  .post("/writing/transform", shareQuery, jsonBody(TransformSchema), aiRate, async (c) => {
    const input = c.req.valid("json");
    return answer(
      c,
      (stream) => transformText(c.var.db, c.env, session(c), input, c.req.valid("query").share, stream),
      (r) => ({ success: true, result: r.result, usage: r.usage }),
      (r) => r.result,
    );
  })
  .post("/story/suggest-plot", shareQuery, jsonBody(SuggestPlotSchema), aiRate, async (c) => {
    const input = c.req.valid("json");
    return answer(
      c,
      (stream) => suggestPlot(c.var.db, c.env, session(c), input, c.req.valid("query").share, stream),
      (r) => ({ suggestion: r.suggestion, text: r.text, usage: r.usage }),
      (r) => r.suggestion,
    );
  })
  .post("/events/:id/continue", shareQuery, jsonBody(ContinueSceneSchema), aiRate, async (c) => {
    const eventId = idParam(c.req.param("id"), "Event not found");
    const input = c.req.valid("json");
    return answer(
      c,
      (stream) => continueScene(c.var.db, c.env, session(c), eventId, input, c.req.valid("query").share, stream),
      (r) => ({ success: true, result: r.result, usage: r.usage }),
      (r) => r.result,
    );
  })
  .get("/test/openai", rateLimited("aiTest"), async (c) => c.json(await ai.testConnection(c.var.db, c.env)));
