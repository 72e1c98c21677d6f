import { and, eq, lt, sql } from "drizzle-orm";
import OpenAI from "openai";
import type { Db } from "../../db/client";
import { FREE_AI_USES } from "../../db/validation";
import { ideas, sessions, type User } from "../../db/schema";
import type { Env } from "../env";
import { HttpError } from "../lib/errors";
import { isPremium } from "./plans";
import type { SessionUser } from "./sessions";
import { getSecret } from "./settings";

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
  plot: "You are a story consultant looking at a writer's timeline. Suggest exactly one next plot event that fits the story so far and raises the stakes. First line: a short event title (under 50 characters). Following lines: two to four sentences describing what happens. No preamble, no lists.",
} as const;

export type AiKind = keyof typeof SYSTEM;

export type AiUsage = { used: number; limit: number | null; premium: boolean };

export function usageOf(session: SessionUser): AiUsage {
  const premium = isPremium(session.user);
  return { used: premium ? 0 : Math.min(session.aiUses, FREE_AI_USES), limit: premium ? null : FREE_AI_USES, premium };
}

/** The key: the OPENAI_API_KEY secret, else the one an admin saved (DESIGN.md §6, §8). */
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
 * Upstream failures become 502 (DESIGN.md §6) with a generic message: the upstream's own text (which
 * may name the account, the key's state or the server) goes to the server log only.
 */
function upstreamError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new HttpError(502, TIMED_OUT, { success: false });
  console.error("[ai] upstream error:", error instanceof OpenAI.APIError ? `${error.status} ${error.message}` : String(error));
  return new HttpError(502, AI_UPSTREAM_FAILED, { success: false });
}

/**
 * Free plan: a use is reserved atomically before the call (so parallel requests cannot exceed 3)
 * and given back if the call fails (failures do not count). Premium is never counted.
 */
async function reserveUse(db: Db, session: SessionUser) {
  if (isPremium(session.user)) return false;
  const reserved = await db
    .update(sessions)
    .set({ aiUses: sql`${sessions.aiUses} + 1` })
    .where(and(eq(sessions.id, session.sessionId), lt(sessions.aiUses, FREE_AI_USES)))
    .returning({ aiUses: sessions.aiUses });
  if (reserved.length === 0) {
    throw new HttpError(429, USAGE_LIMIT_MESSAGE, {
      success: false,
      title: USAGE_LIMIT_TITLE,
      usage: { used: FREE_AI_USES, limit: FREE_AI_USES, premium: false },
    });
  }
  session.aiUses = reserved[0].aiUses;
  return true;
}

async function releaseUse(db: Db, session: SessionUser) {
  await db
    .update(sessions)
    .set({ aiUses: sql`max(${sessions.aiUses} - 1, 0)` })
    .where(eq(sessions.id, session.sessionId));
  session.aiUses = Math.max(session.aiUses - 1, 0);
}

/** One completion for a counted tool call. Order (DESIGN.md §6): allowance → configured → upstream. */
export async function runTool(db: Db, env: Env, session: SessionUser, kind: AiKind, userMessage: string) {
  const counted = await reserveUse(db, session);
  try {
    const ai = await client(db, env);
    const completion = await ai.chat.completions.create({
      model: modelOf(env),
      temperature: kind === "enhance" ? 0.6 : 0.9,
      max_tokens: 700,
      messages: [
        { role: "system", content: SYSTEM[kind] },
        { role: "user", content: userMessage },
      ],
    });
    const text = completion.choices[0]?.message?.content?.trim();
    if (!text) throw new HttpError(502, AI_UPSTREAM_FAILED, { success: false });
    return { text, usage: usageOf(session) };
  } catch (error) {
    if (counted) await releaseUse(db, session);
    throw upstreamError(error);
  }
}

/** Keeps what Writer's Unblock generated (SPEC.md §3 ideas). */
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
