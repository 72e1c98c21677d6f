import { hc } from "hono/client";
// Type-only: the API's route types travel to the browser, its code does not.
import type { Api } from "../../worker/api/index";
import type { EventView } from "../../worker/services/events";

/** Every browser call to /api/* goes through this typed client (cookie session, same origin). */
export const client = hc<Api>("/");

/** The typed client's type (a timeline session hands one out with the room connection already set). */
export type ApiClient = typeof client;

/**
 * A typed client whose every call carries `headers()`, read when the call is sent (so a reconnection's new id
 * reaches the next call without a new client). `fetch` is for tests.
 */
export function clientWith(headers: () => Record<string, string>, fetch?: typeof globalThis.fetch): ApiClient {
  return hc<Api>("/", fetch ? { headers, fetch } : { headers });
}

/** What our API answers on failure: its message, and for some errors more (409 `current`, AI 429 `title`/`usage`). */
/** The writer's AI uses this month (limit null: unlimited). */
export type AiUsage = { used: number; limit: number | null; premium: boolean };

export type ErrorBody = { error?: string; current?: EventView; title?: string; usage?: AiUsage };

/** A non-OK response. The message is the product's 'API request failed: {status} {statusText} - {body}'. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody | null,
    /** The seconds the server asked to wait before trying again (its Retry-After header), when it sent one. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type AnyResponse = {
  ok: boolean;
  status: number;
  statusText: string;
  headers?: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
};

/** A Retry-After header's wait in seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The typed JSON of an OK response; any other response throws an ApiError carrying status and body. */
export async function unwrap<R extends AnyResponse>(response: R | Promise<R>): Promise<Awaited<ReturnType<R["json"]>>> {
  const res = await response;
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const errorBody = body && typeof body === "object" ? (body as ErrorBody) : null;
    const detail = errorBody?.error ?? text;
    throw new ApiError(
      res.status,
      `API request failed: ${res.status} ${res.statusText} - ${detail}`,
      errorBody,
      retryAfterSeconds(res.headers?.get("Retry-After")),
    );
  }
  return body as Awaited<ReturnType<R["json"]>>;
}

/** The server's message when it gave one (e.g. the free-plan limit), else the product's fallback. */
export function errorMessage(error: unknown, fallback: string) {
  if (error instanceof ApiError && error.body?.error) return String(error.body.error);
  return fallback;
}

/** The `?share=` of shared mode, only when there is a code. */
export const shareParam = (shareCode: string | null | undefined) => (shareCode ? { share: shareCode } : {});
