import Anthropic from "@anthropic-ai/sdk";
import { eq } from "drizzle-orm";
import OpenAI from "openai";
import { z } from "zod";
import type { Db } from "../../db/client";
import { userAiSettings } from "../../db/schema";
import type { Env } from "../env";
import { decryptSecret, encryptSecret } from "../lib/crypto";
import { HttpError, badRequest } from "../lib/errors";
import { nowIso } from "../lib/time";

/**
 * Bring your own model (DESIGN.md §12): a writer's own AI provider, model and key. The key is sealed
 * with AES-GCM under a key derived from APP_SECRET (as the admin's keys in settings.ts) and never
 * returned; their AI requests use it and are not counted against the free allowance.
 */
export const PROVIDERS = ["openai", "openai-compatible", "anthropic"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const WriterAiSchema = z.object({
  provider: z.enum(PROVIDERS, { message: "Choose a provider: OpenAI, OpenAI-compatible or Anthropic" }),
  baseUrl: z
    .string()
    .trim()
    .max(500, "The base URL is too long")
    .optional()
    .transform((v) => v || undefined),
  model: z.string().trim().min(1, "Please enter a model name").max(200, "The model name is too long"),
  apiKey: z.string().trim().min(1, "Please enter an API key").max(500, "The API key is too long"),
});
export type WriterAiInput = z.infer<typeof WriterAiSchema>;

export type WriterAi = { provider: Provider; baseUrl: string | null; model: string; apiKey: string };

const isDevelopment = (env: Env) => env.ENVIRONMENT === "development";

/** IPv4 dotted quad → its four numbers, or null. */
function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function isLoopback(host: string) {
  const v4 = ipv4(host);
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || (v4 !== null && v4[0] === 127);
}

/** Private, link-local, loopback, carrier-grade NAT, 'this network', multicast and reserved addresses. */
function isInternal(host: string) {
  if (isLoopback(host)) return true;
  const v4 = ipv4(host);
  if (v4) {
    const [a, b] = v4;
    return (
      a === 0 ||
      a === 10 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (host.startsWith("[")) {
    // Any IPv6 literal but a public unicast one: unique-local fc00::/7, link-local fe80::/10, mapped IPv4, unspecified.
    const h = host.slice(1, -1).toLowerCase();
    return (
      h === "::" ||
      h.startsWith("fc") ||
      h.startsWith("fd") ||
      h.startsWith("fe8") ||
      h.startsWith("fe9") ||
      h.startsWith("fea") ||
      h.startsWith("feb") ||
      h.startsWith("::ffff:") ||
      h.startsWith("ff")
    );
  }
  // Names that only mean something inside a network.
  return host.endsWith(".internal") || host.endsWith(".local") || !host.includes(".");
}

export const BAD_BASE_URL = "The base URL must be an http(s) address of a public server, such as https://openrouter.ai/api/v1";

/**
 * Where a writer's requests may go: http(s) only, no credentials in the address, no private,
 * link-local or loopback host and only the default ports. In development (ENVIRONMENT=development:
 * the dev server and the test suites) a loopback host on any port is allowed, for a local model and the fakes.
 */
export function checkBaseUrl(raw: string, development: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(BAD_BASE_URL);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badRequest(BAD_BASE_URL);
  if (url.username || url.password) throw badRequest("The base URL must not contain a user name or password");
  const host = url.hostname.toLowerCase();
  const localDev = development && isLoopback(host);
  if (!localDev && isInternal(host)) throw badRequest("The base URL points to a private or local address, which is not allowed");
  if (!localDev && url.port !== "") throw badRequest("The base URL must use the standard port (443 for https)");
  return url.toString().replace(/\/+$/, "");
}

export async function getWriterAi(db: Db, env: Env, userId: number): Promise<WriterAi | null> {
  const row = await db.select().from(userAiSettings).where(eq(userAiSettings.userId, userId)).get();
  if (!row) return null;
  const apiKey = await decryptSecret(row.apiKey, env.APP_SECRET);
  if (!apiKey) return null;
  return { provider: row.provider, baseUrl: row.baseUrl, model: row.model, apiKey };
}

/** GET /api/account/ai: what is set, never the key. */
export async function describeWriterAi(db: Db, userId: number) {
  const row = await db.select().from(userAiSettings).where(eq(userAiSettings.userId, userId)).get();
  if (!row) return { provider: null, baseUrl: null, model: null, keySet: false };
  return { provider: row.provider, baseUrl: row.baseUrl, model: row.model, keySet: true };
}

export async function saveWriterAi(db: Db, env: Env, userId: number, input: WriterAiInput) {
  if (input.provider === "openai-compatible" && !input.baseUrl) throw badRequest("An OpenAI-compatible server needs its base URL");
  const baseUrl = input.baseUrl ? checkBaseUrl(input.baseUrl, isDevelopment(env)) : null;
  const values = {
    provider: input.provider,
    baseUrl,
    model: input.model,
    apiKey: await encryptSecret(input.apiKey, env.APP_SECRET),
    updatedAt: nowIso(),
  };
  await db
    .insert(userAiSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userAiSettings.userId, set: values });
  return describeWriterAi(db, userId);
}

export async function removeWriterAi(db: Db, userId: number) {
  await db.delete(userAiSettings).where(eq(userAiSettings.userId, userId));
}

export const YOUR_KEY_REFUSED = "Your AI provider refused the API key. Check the key under Account → Your AI model.";
export const YOUR_MODEL_REFUSED = "Your AI provider did not accept the request. Check the model name under Account → Your AI model.";
export const YOUR_PROVIDER_BUSY = "Your AI provider is limiting requests right now. Please try again in a moment.";
export const YOUR_PROVIDER_FAILED = "Your AI provider could not answer. Please try again later.";
export const YOUR_PROVIDER_UNREACHABLE = "Your AI provider could not be reached. Check the base URL under Account → Your AI model.";
export const YOUR_PROVIDER_TIMED_OUT = "Your AI provider took too long to answer. Please try again.";

/** An upstream failure in the product's words (502); the upstream's own text goes to the log only. */
export function writerAiError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError || error instanceof Anthropic.APIConnectionTimeoutError) {
    return new HttpError(502, YOUR_PROVIDER_TIMED_OUT, { success: false });
  }
  const status = error instanceof OpenAI.APIError || error instanceof Anthropic.APIError ? error.status : undefined;
  console.error("[ai] writer's provider error:", status ?? "", error instanceof Error ? error.message : String(error));
  const message =
    status === 401 || status === 403
      ? YOUR_KEY_REFUSED
      : status === 400 || status === 404 || status === 422
        ? YOUR_MODEL_REFUSED
        : status === 429
          ? YOUR_PROVIDER_BUSY
          : status === undefined
            ? YOUR_PROVIDER_UNREACHABLE
            : YOUR_PROVIDER_FAILED;
  return new HttpError(502, message, { success: false });
}

export type Completion = {
  system?: string;
  user: string;
  maxTokens: number;
  temperature?: number;
};

/**
 * One completion from the writer's own provider: OpenAI's SDK (openai, any OpenAI-compatible server
 * at its base URL) or Anthropic's SDK (Messages API). With `onDelta` the answer streams.
 */
export async function completeWith(
  env: Env,
  setting: WriterAi,
  request: Completion,
  options: { onDelta?: (delta: string) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const timeout = Number(env.AI_TIMEOUT_MS) || 30_000;
  // The stored address was checked when saved; checked again here in case the rules tightened.
  const baseURL = setting.baseUrl ? checkBaseUrl(setting.baseUrl, isDevelopment(env)) : undefined;
  if (setting.provider === "anthropic") {
    const ai = new Anthropic({ apiKey: setting.apiKey, baseURL, timeout, maxRetries: 0 });
    const body = {
      model: setting.model,
      max_tokens: request.maxTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.system ? { system: request.system } : {}),
      messages: [{ role: "user" as const, content: request.user }],
    };
    if (options.onDelta) {
      const stream = await ai.messages.create({ ...body, stream: true }, { signal: options.signal });
      let text = "";
      for await (const event of stream) {
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
          text += event.delta.text;
          options.onDelta(event.delta.text);
        }
      }
      return text;
    }
    const message = await ai.messages.create(body, { signal: options.signal });
    return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  }
  const ai = new OpenAI({ apiKey: setting.apiKey, baseURL, timeout, maxRetries: 0 });
  const body = {
    model: setting.model,
    max_tokens: request.maxTokens,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    messages: [
      ...(request.system ? [{ role: "system" as const, content: request.system }] : []),
      { role: "user" as const, content: request.user },
    ],
  };
  if (options.onDelta) {
    const stream = await ai.chat.completions.create({ ...body, stream: true }, { signal: options.signal });
    let text = "";
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        text += delta;
        options.onDelta(delta);
      }
    }
    return text;
  }
  const completion = await ai.chat.completions.create(body, { signal: options.signal });
  return completion.choices[0]?.message?.content ?? "";
}

/** POST /api/account/ai/test: a tiny request with the saved settings; the answer in the product's words. */
export async function testWriterAi(db: Db, env: Env, userId: number) {
  const setting = await getWriterAi(db, env, userId);
  if (!setting) throw badRequest("Save your AI model first");
  const started = Date.now();
  try {
    const text = await completeWith(env, setting, { user: "Reply with the single word: ready", maxTokens: 20 });
    return { success: true as const, result: text.slice(0, 200), ms: Date.now() - started };
  } catch (error) {
    return { success: false as const, error: writerAiError(error).message };
  }
}
