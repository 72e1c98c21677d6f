import { and, count, eq, gt, gte, sql } from "drizzle-orm";
import OpenAI from "openai";
import type { Db } from "../../db/client";
import { FREE_AI_USES } from "../../db/domain/validation";
import { aiUsage, ideas, type User } from "../../db/schema";
import type { Env } from "../env";
import { HttpError } from "../lib/errors";
import { DAY, nowIso } from "../lib/time";
import { isPremium } from "./plans";
import { createLimiter, spend } from "./rate-limits";
import type { SessionUser } from "./sessions";
import { getSecret } from "./settings";
import { completeWith, getWriterAi, type WriterAi, writerAiError } from "./writer-ai";

export const AI_NOT_CONFIGURED =
  "The AI assistant is not configured yet. An admin can add an OpenAI API key in Admin → AI configuration (/admin/config), or set the OPENAI_API_KEY secret.";
export const USAGE_LIMIT_TITLE = "Usage Limit Reached";
export const USAGE_LIMIT_MESSAGE = `Free users are limited to ${FREE_AI_USES} AI requests per session. Upgrade to Premium for unlimited access!`;
const TIMED_OUT = "The AI service took too long to answer. Please try again.";

const modelOf = (env: Env) => env.OPENAI_MODEL || "gpt-4o-mini";

/** How writers should be helped: short, concrete, in the writer's voice, never preachy. */
const SYSTEM = {
  ideas:
    "You are Writer's Unblock, a creative partner for fiction writers who are stuck. Given a prompt, offer one vivid, specific story idea: a premise, a central conflict and a turn the writer would not expect, in under 250 words. Use plain paragraphs or a short numbered list. No preamble, no moralising.",
  enhance:
    "You are an experienced fiction editor. Rewrite the writer's passage following their instruction. Keep their voice, tense, point of view and plot facts; sharpen verbs, cut filler, add sensory detail where it earns its place. Return only the revised passage.",
  character:
    "You create character profiles for novelists. From the description, write a profile with: name, age and background; what they want and what they fear; a contradiction; how they speak (one sample line); and a secret that could drive plot. Use short labelled sections and bullet points. Under 300 words.",
  continue:
    "You are a co-writer continuing a novelist's scene. You get a story bible (the story, its codex of characters, places and things, and nearby scenes) and the current scene. Continue the current scene from exactly where it stops, in the same voice, tense and point of view, for two to four paragraphs. Stay consistent with the codex and the nearby scenes. Return only the new prose, no preamble, no repetition of what is already written.",
  transform:
    "You are a fiction editor working on one passage a writer selected. Follow the instruction exactly, keep the writer's voice, tense, point of view and plot facts, and return only the new passage: no preamble, no quotes, no notes.",
  plot: "You are a story consultant looking at a writer's timeline. Suggest exactly one next plot event that fits the story so far and raises the stakes. First line: a short event title (under 50 characters). Following lines: two to four sentences describing what happens. No preamble, no lists.",
} as const;

export type AiKind = keyof typeof SYSTEM;

export type AiUsage = { used: number; limit: number | null; premium: boolean };

/**
 * The free allowance is per writer over a rolling window, not per session: signing out and in, or a
 * second browser, starts no new count. Each use is a row of `ai_usage` marked `free`.
 */
export const FREE_AI_WINDOW_MS = DAY;
const windowStart = (now = Date.now()) => new Date(now - FREE_AI_WINDOW_MS).toISOString();

/** Where a writer's free allowance stands now (premium: uncounted). */
export async function usageFor(db: Db, user: Pick<User, "id" | "subscriptionTier" | "subscriptionEndDate">): Promise<AiUsage> {
  if (isPremium(user)) return { used: 0, limit: null, premium: true };
  const row = await db
    .select({ used: count() })
    .from(aiUsage)
    .where(and(eq(aiUsage.userId, user.id), eq(aiUsage.free, true), gt(aiUsage.createdAt, windowStart())))
    .get();
  return { used: Math.min(row?.used ?? 0, FREE_AI_USES), limit: FREE_AI_USES, premium: false };
}

/** The key: the OPENAI_API_KEY secret, else the one an admin saved. */
export async function aiStatus(db: Db, env: Env) {
  const key = await getSecret(db, env, "OPENAI_API_KEY");
  return { configured: Boolean(key), source: key?.source ?? null, model: modelOf(env) };
}

async function client(db: Db, env: Env) {
  const key = await getSecret(db, env, "OPENAI_API_KEY");
  if (!key) throw new HttpError(503, AI_NOT_CONFIGURED, { success: false });
  return new OpenAI({
    apiKey: key.value,
    baseURL: env.OPENAI_BASE_URL || undefined,
    timeout: Number(env.AI_TIMEOUT_MS) || 30_000,
    maxRetries: 0,
  });
}

export const AI_UPSTREAM_FAILED = "The AI service could not answer. Please try again later.";

/**
 * Upstream failures become 502 with a generic message: the upstream's own text (which
 * may name the account, the key's state or the server) goes to the server log only.
 */
function upstreamError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new HttpError(502, TIMED_OUT, { success: false });
  console.error("[ai] upstream error:", error instanceof OpenAI.APIError ? `${error.status} ${error.message}` : String(error));
  return new HttpError(502, AI_UPSTREAM_FAILED, { success: false });
}

/**
 * Free plan: a use is taken atomically before the call (one INSERT that only happens while fewer than
 * FREE_AI_USES free rows fall in the window, so parallel requests cannot exceed it) and returned as
 * the row's id. Premium is never counted but is rate-limited per minute against abuse
 * (RATE_AI_PREMIUM_PER_MINUTE): null.
 */
async function takeUse(db: Db, env: Env, session: SessionUser, tool: ToolName): Promise<number | null> {
  if (isPremium(session.user)) {
    try {
      await spend(createLimiter(db, env, ""), "aiPremium", `user:${session.user.id}`);
    } catch (error) {
      if (error instanceof HttpError && error.status === 429) {
        throw new HttpError(429, PREMIUM_RATE_MESSAGE, { success: false, retryAfter: error.extra?.retryAfter ?? 60 });
      }
      throw error;
    }
    return null;
  }
  const userId = session.user.id;
  const taken = await db.all<{ id: number }>(sql`INSERT INTO ai_usage (user_id, tool, free, created_at)
    SELECT ${userId}, ${tool}, 1, ${nowIso()}
    WHERE (SELECT count(*) FROM ai_usage WHERE user_id = ${userId} AND free = 1 AND created_at > ${windowStart()}) < ${FREE_AI_USES}
    RETURNING id`);
  if (taken.length === 0) {
    throw new HttpError(429, USAGE_LIMIT_MESSAGE, {
      success: false,
      title: USAGE_LIMIT_TITLE,
      usage: { used: FREE_AI_USES, limit: FREE_AI_USES, premium: false },
    });
  }
  return taken[0].id;
}

async function giveBack(db: Db, useId: number) {
  await db.delete(aiUsage).where(eq(aiUsage.id, useId));
}

export const PREMIUM_RATE_MESSAGE = "Too many AI requests. Try again in a minute.";
export const STREAM_BROKE = "The AI stopped before finishing. What arrived is kept.";
export const STOPPED = "Generation stopped.";

/**
 * How a caller follows a streamed answer (SSE adapters): each piece of text (`onDelta` answers false
 * when it could not be passed on, the writer having gone), the stop signal, the moment the upstream call starts.
 */
export type StreamOptions = {
  onDelta?: (delta: string) => boolean | undefined;
  signal?: AbortSignal;
  /** Called once every check (allowance, configuration) has passed, just before the upstream call. */
  onReady?: () => void;
};

/** What a tool run records in `ai_usage` (the /account chart): the tool's name. */
export type ToolName = AiKind | "continue" | "describe" | "rewrite" | "expand";

/**
 * One completion for a counted tool call. Order: allowance → configured → upstream.
 * With `onDelta` the model streams (`stream: true`) and each piece is handed on as it arrives. A use
 * counts as soon as text has reached the writer, so a stream the writer stops keeps its use; it is
 * given back only when nothing was delivered or the upstream failed (an error, a broken stream, an
 * empty answer). Premium uses are recorded in `ai_usage` (the /account chart) when they count.
 */
export async function runTool(
  db: Db,
  env: Env,
  session: SessionUser,
  kind: AiKind,
  userMessage: string,
  options: StreamOptions & { tool?: ToolName } = {},
) {
  const tool = options.tool ?? kind;
  // A writer's own model (Account → Your AI model): their key, never counted against the allowance.
  const own = await getWriterAi(db, env, session.user.id);
  if (own) return runOwnModel(db, env, session, own, kind, tool, userMessage, options);
  const freeUse = await takeUse(db, env, session, tool);
  let received = "";
  let delivered = false;
  try {
    const ai = await client(db, env);
    options.onReady?.();
    const request = {
      model: modelOf(env),
      temperature: kind === "enhance" ? 0.6 : 0.9,
      max_tokens: kind === "continue" || kind === "transform" ? 900 : 700,
      messages: [
        { role: "system" as const, content: SYSTEM[kind] },
        { role: "user" as const, content: userMessage },
      ],
    };
    let text: string | undefined;
    if (options.onDelta) {
      const stream = await ai.chat.completions.create({ ...request, stream: true }, { signal: options.signal });
      try {
        for await (const chunk of stream) {
          const delta = chunk.choices[0]?.delta?.content;
          if (delta) {
            received += delta;
            if (options.onDelta(delta) !== false && delta.trim()) delivered = true;
          }
        }
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (received) {
          console.error("[ai] stream broke:", String(error));
          throw new HttpError(502, STREAM_BROKE, { success: false });
        }
        throw error;
      }
      if (options.signal?.aborted) throw new HttpError(499, STOPPED, { success: false });
      text = received.trim();
    } else {
      const completion = await ai.chat.completions.create(request, { signal: options.signal });
      text = completion.choices[0]?.message?.content?.trim();
    }
    if (!text) throw new HttpError(502, AI_UPSTREAM_FAILED, { success: false });
    if (freeUse === null) await recordUse(db, session.user.id, tool);
    return { text, usage: await usageFor(db, session.user) };
  } catch (error) {
    const stoppedAfterText = options.signal?.aborted === true && delivered;
    if (stoppedAfterText) {
      if (freeUse === null) await recordUse(db, session.user.id, tool);
    } else if (freeUse !== null) {
      await giveBack(db, freeUse);
    }
    if (options.signal?.aborted) throw new HttpError(499, STOPPED, { success: false });
    throw upstreamError(error);
  }
}

const requestFor = (kind: AiKind, userMessage: string) => ({
  system: SYSTEM[kind],
  user: userMessage,
  temperature: kind === "enhance" ? 0.6 : 0.9,
  maxTokens: kind === "continue" || kind === "transform" ? 900 : 700,
});

/** runTool with the writer's own provider: no allowance taken, the use recorded (uncounted) for the chart. */
async function runOwnModel(
  db: Db,
  env: Env,
  session: SessionUser,
  own: WriterAi,
  kind: AiKind,
  tool: ToolName,
  userMessage: string,
  options: StreamOptions,
) {
  let received = "";
  let delivered = false;
  try {
    options.onReady?.();
    const onDelta = options.onDelta;
    const answer = await completeWith(env, own, requestFor(kind, userMessage), {
      signal: options.signal,
      onDelta: onDelta
        ? (delta) => {
            received += delta;
            if (onDelta(delta) !== false && delta.trim()) delivered = true;
          }
        : undefined,
    }).catch((error) => {
      if (!options.signal?.aborted && received) {
        console.error("[ai] stream broke:", String(error));
        throw new HttpError(502, STREAM_BROKE, { success: false });
      }
      throw error;
    });
    if (options.signal?.aborted) throw new HttpError(499, STOPPED, { success: false });
    const text = answer.trim();
    if (!text) throw new HttpError(502, AI_UPSTREAM_FAILED, { success: false });
    await recordUse(db, session.user.id, tool);
    return { text, usage: await usageFor(db, session.user) };
  } catch (error) {
    if (options.signal?.aborted) {
      if (delivered) await recordUse(db, session.user.id, tool);
      throw new HttpError(499, STOPPED, { success: false });
    }
    throw writerAiError(error);
  }
}

async function recordUse(db: Db, userId: number, tool: string) {
  await db.insert(aiUsage).values({ userId, tool });
}

/** Completed AI uses per day (UTC) from `since` (ISO), for one writer or (no user) everyone. */
export async function usagePerDay(db: Db, since: string, userId?: number) {
  const rows = await db
    .select({ day: sql<string>`substr(${aiUsage.createdAt}, 1, 10)`, count: sql<number>`count(*)` })
    .from(aiUsage)
    .where(userId === undefined ? gte(aiUsage.createdAt, since) : and(eq(aiUsage.userId, userId), gte(aiUsage.createdAt, since)))
    .groupBy(sql`substr(${aiUsage.createdAt}, 1, 10)`)
    .orderBy(sql`substr(${aiUsage.createdAt}, 1, 10)`);
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}

/** Every day from `from` to `to` (YYYY-MM-DD, UTC), zero where nothing was used: what the charts draw. */
export function fillDays(rows: { day: string; count: number }[], from: Date, to: Date) {
  const byDay = new Map(rows.map((r) => [r.day, r.count]));
  const days: { day: string; count: number }[] = [];
  for (
    let d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
    d <= to;
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    const day = d.toISOString().slice(0, 10);
    days.push({ day, count: byDay.get(day) ?? 0 });
  }
  return { days, total: days.reduce((n, d) => n + d.count, 0) };
}

/** GET /api/ai/usage/daily: this writer's completed AI uses per day of the current month (UTC). */
export async function monthlyUsage(db: Db, userId: number, now = new Date()) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return fillDays(await usagePerDay(db, from.toISOString(), userId), from, now);
}

/** Admin: everyone's completed AI uses per day over the last 30 days. */
export async function adminUsage(db: Db, now = new Date()) {
  const from = new Date(now.getTime() - 29 * 24 * 3600 * 1000);
  from.setUTCHours(0, 0, 0, 0);
  return fillDays(await usagePerDay(db, from.toISOString()), from, now);
}

/**
 * 'Stop generating' said explicitly (POST /api/ai/stop): a client going away normally cancels the
 * response stream, but a proxy in between (the local preview server, some corporate proxies) may keep
 * reading, so the page also names the stream it stopped. The flag is a short-lived row in
 * `rate_limits` (a key/value table already swept by window), per writer and stream id.
 */
const stopKey = (userId: number, streamId: string) => `aistop:${userId}:${streamId}`;
export const STREAM_ID = /^[A-Za-z0-9-]{8,64}$/;

export async function requestStop(db: Db, userId: number, streamId: string) {
  await db.run(sql`INSERT INTO rate_limits (key, count, window_start) VALUES (${stopKey(userId, streamId)}, 1, ${new Date().toISOString()})
    ON CONFLICT(key) DO NOTHING`);
}

/** Polls for an explicit stop of `streamId` while it streams; returns the function that ends the polling. */
export function watchStop(db: Db, userId: number, streamId: string, onStop: () => void, everyMs = 400) {
  const key = stopKey(userId, streamId);
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const row = await db.get<{ key: string }>(sql`SELECT key FROM rate_limits WHERE key = ${key}`);
      if (row) onStop();
    } catch {
    } finally {
      busy = false;
    }
  }, everyMs);
  return async () => {
    clearInterval(timer);
    await db.run(sql`DELETE FROM rate_limits WHERE key = ${key}`).catch(() => {});
  };
}

/** Keeps what Writer's Unblock generated. */
export async function saveIdea(db: Db, user: User, prompt: string, content: string) {
  await db.insert(ideas).values({ userId: user.id, prompt, content });
}

/** GET /api/test/openai: a tiny uncounted request that shows what the server sees. */
export async function testConnection(db: Db, env: Env) {
  const status = await aiStatus(db, env);
  const details = {
    configured: status.configured,
    source: status.source,
    model: status.model,
    baseURL: env.OPENAI_BASE_URL || "https://api.openai.com/v1",
  };
  if (!status.configured) return { success: false, error: AI_NOT_CONFIGURED, details };
  try {
    const ai = await client(db, env);
    const started = Date.now();
    const completion = await ai.chat.completions.create({
      model: status.model,
      max_tokens: 20,
      messages: [{ role: "user", content: "Reply with the single word: ready" }],
    });
    return { success: true, result: completion.choices[0]?.message?.content ?? "", details: { ...details, ms: Date.now() - started } };
  } catch (error) {
    return { success: false, error: upstreamError(error).message, details };
  }
}
