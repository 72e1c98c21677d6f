import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../worker/index";

export const ORIGIN = "http://storyweave.test";
let counter = 0;

/** A unique email per call: test files never depend on order or on empty tables. */
export function uniqueEmail(prefix = "writer") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

type CallOptions = { token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string };

/** Calls the real Worker (API, guards, headers) inside workerd. */
export async function call(method: string, path: string, opts: CallOptions = {}) {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("Authorization", `Bearer ${opts.token}`);
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, { method, headers, body }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export async function registerUser(overrides: { name?: string; email?: string; password?: string } = {}) {
  const input = { name: "Test Writer", email: uniqueEmail(), password: "secret-pass-1", ...overrides };
  const res = await call("POST", "/api/auth/register", { body: input });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { ...input, token: res.json.token as string, user: res.json.user, cookie: res.headers.get("Set-Cookie") };
}
