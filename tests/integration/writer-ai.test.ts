import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { checkBaseUrl } from "../../worker/services/writer-ai";
import { FAKE_ANTHROPIC_KEY } from "../fakes/anthropic-server.mjs";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import { ORIGIN, call, createEvent, createTimeline, registerUser } from "./helpers";

// Bring your own model (DESIGN.md §12): PUT/GET/DELETE /api/account/ai, the writer's requests on their
// provider (the real OpenAI and Anthropic SDKs against the fakes on 127.0.0.1), uncounted.

const OPENAI_URL = env.OPENAI_BASE_URL!;
const ANTHROPIC_URL = env.FAKE_ANTHROPIC_URL!;
const openaiRequests = async () => (await (await fetch(OPENAI_URL.replace(/\/v1$/, "/requests"))).json()) as any[];
const anthropicRequests = async () => (await (await fetch(`${ANTHROPIC_URL}/requests`)).json()) as any[];

async function withOwnModel(body: Record<string, unknown>) {
  const writer = await registerUser();
  const saved = await call("PUT", "/api/account/ai", { token: writer.token, body });
  expect(saved.status).toBe(200);
  return writer;
}

const compatible = { provider: "openai-compatible", baseUrl: OPENAI_URL, model: "my-local-model", apiKey: FAKE_OPENAI_KEY };
const anthropic = { provider: "anthropic", baseUrl: ANTHROPIC_URL, model: "claude-fake-1", apiKey: FAKE_ANTHROPIC_KEY };

describe("the settings", () => {
  it("are saved with the key encrypted at rest, never returned, and removed with DELETE", async () => {
    const writer = await registerUser();
    expect((await call("GET", "/api/account/ai", { token: writer.token })).json).toEqual({
      provider: null,
      baseUrl: null,
      model: null,
      keySet: false,
    });
    const saved = await call("PUT", "/api/account/ai", { token: writer.token, body: { ...compatible, apiKey: ` ${FAKE_OPENAI_KEY} ` } });
    expect(saved.json).toEqual({ provider: "openai-compatible", baseUrl: OPENAI_URL, model: "my-local-model", keySet: true });
    expect(saved.text).not.toContain(FAKE_OPENAI_KEY);
    const read = await call("GET", "/api/account/ai", { token: writer.token });
    expect(read.json).toEqual(saved.json);
    expect(read.text).not.toContain(FAKE_OPENAI_KEY);
    const me = await call("GET", "/api/auth/me", { token: writer.token });
    expect(me.text).not.toContain(FAKE_OPENAI_KEY);

    const row = await env.DB.prepare("SELECT api_key FROM user_ai_settings WHERE user_id = ?")
      .bind(writer.user.id)
      .first<{ api_key: string }>();
    expect(row?.api_key).toMatch(/^v1\./);
    expect(row?.api_key).not.toContain("fake-openai");

    const removed = await call("DELETE", "/api/account/ai", { token: writer.token });
    expect(removed.json).toMatchObject({ keySet: false });
    expect(await env.DB.prepare("SELECT 1 FROM user_ai_settings WHERE user_id = ?").bind(writer.user.id).first()).toBeNull();
  });

  it("need a signed-in writer and valid input (clear 400s)", async () => {
    expect((await call("GET", "/api/account/ai")).status).toBe(401);
    expect((await call("PUT", "/api/account/ai", { body: compatible })).status).toBe(401);
    const writer = await registerUser();
    const put = (body: Record<string, unknown>) => call("PUT", "/api/account/ai", { token: writer.token, body });
    expect(await put({ ...compatible, provider: "mistral" })).toMatchObject({ status: 400 });
    expect(await put({ ...compatible, apiKey: "  " })).toMatchObject({ status: 400, json: { error: "Please enter an API key" } });
    expect(await put({ ...compatible, model: "" })).toMatchObject({ status: 400, json: { error: "Please enter a model name" } });
    expect(await put({ ...compatible, baseUrl: undefined })).toMatchObject({
      status: 400,
      json: { error: "An OpenAI-compatible server needs its base URL" },
    });
  });

  it("refuse addresses that are not public http(s) servers", async () => {
    const writer = await registerUser();
    const put = (baseUrl: string) => call("PUT", "/api/account/ai", { token: writer.token, body: { ...compatible, baseUrl } });
    for (const bad of [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "ftp://example.com/v1",
      "not a url",
      "http://10.0.0.5/v1",
      "http://192.168.1.2:8080/v1",
      "http://172.20.0.1/v1",
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]/v1",
      "http://[fd00::1]/v1",
      "http://metadata.google.internal/v1",
      "https://user:pass@openrouter.ai/api/v1",
      "https://openrouter.ai:8443/api/v1",
    ]) {
      const res = await put(bad);
      expect(res.status, bad).toBe(400);
      expect(res.json.error, bad).toMatch(/base URL/);
    }
    expect(await env.DB.prepare("SELECT 1 FROM user_ai_settings WHERE user_id = ?").bind(writer.user.id).first()).toBeNull();
  });

  it("outside development, loopback addresses and other ports are refused too", () => {
    for (const bad of [
      "http://127.0.0.1:8080/v1",
      "http://localhost/v1",
      "http://[::1]/v1",
      "https://api.example.com:8443/v1",
      "http://0.0.0.0/v1",
    ]) {
      expect(() => checkBaseUrl(bad, false), bad).toThrow(/base URL/);
    }
    expect(checkBaseUrl("https://openrouter.ai/api/v1/", false)).toBe("https://openrouter.ai/api/v1");
    expect(checkBaseUrl("http://127.0.0.1:11434/v1", true)).toBe("http://127.0.0.1:11434/v1");
  });
});

describe("an OpenAI-compatible server of the writer's own", () => {
  it("answers their AI requests with their key and model, never counted against the free allowance", async () => {
    const writer = await withOwnModel(compatible);
    // More uses than the free allowance (3), none counted; the site has no key configured in this file.
    for (let i = 0; i < 4; i++) {
      const res = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: `own-model lighthouse ${i}` } });
      expect(res.status).toBe(200);
      expect(res.json.success).toBe(true);
      expect(res.text).not.toContain(FAKE_OPENAI_KEY);
    }
    const last = (await openaiRequests()).filter((r) => r.user.includes("own-model lighthouse 3")).at(-1);
    expect(last).toMatchObject({ model: "my-local-model", authorization: `Bearer ${FAKE_OPENAI_KEY}` });
    expect((await call("GET", "/api/ai/usage", { token: writer.token })).json).toEqual({ used: 0, limit: 3, premium: false });
    const free = await env.DB.prepare("SELECT count(*) AS n FROM ai_usage WHERE user_id = ? AND free = 1")
      .bind(writer.user.id)
      .first<{ n: number }>();
    expect(free?.n).toBe(0);
    // Still in the writer's own chart.
    const chart = await call("GET", "/api/ai/usage/daily", { token: writer.token });
    expect(chart.json.total).toBe(4);
  });

  it("'Test connection' reports success, or a refused key in the product's words", async () => {
    const writer = await withOwnModel(compatible);
    const ok = await call("POST", "/api/account/ai/test", { token: writer.token });
    expect(ok.json).toMatchObject({ success: true });
    await call("PUT", "/api/account/ai", { token: writer.token, body: { ...compatible, apiKey: "sk-wrong-key-123" } });
    const refused = await call("POST", "/api/account/ai/test", { token: writer.token });
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual({
      success: false,
      error: "Your AI provider refused the API key. Check the key under Account → Your AI model.",
    });
    expect(refused.text).not.toContain("sk-wrong-key-123");
    expect(refused.text).not.toContain("Incorrect API key");
    const nothing = await call("POST", "/api/account/ai/test", { token: (await registerUser()).token });
    expect(nothing).toMatchObject({ status: 400, json: { error: "Save your AI model first" } });
  });

  it("upstream 401, 500 and timeouts become 502s in the product's words, and nothing is counted", async () => {
    const writer = await withOwnModel(compatible);
    const failed = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "[[error]] a lighthouse" } });
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ success: false, error: "Your AI provider could not answer. Please try again later." });
    expect(failed.text).not.toContain("overloaded");
    const slow = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "[[slow]] a lighthouse" } });
    expect(slow.status).toBe(502);
    expect(slow.json.error).toBe("Your AI provider took too long to answer. Please try again.");
    await call("PUT", "/api/account/ai", { token: writer.token, body: { ...compatible, apiKey: "sk-not-the-right-one" } });
    const refused = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "a lighthouse" } });
    expect(refused.status).toBe(502);
    expect(refused.json.error).toMatch(/refused the API key/);
    expect(refused.text).not.toContain("sk-not-the-right-one");
    expect((await call("GET", "/api/ai/usage/daily", { token: writer.token })).json.total).toBe(0);
  });

  it("an unreachable server is named, not a 500", async () => {
    const writer = await withOwnModel({ ...compatible, baseUrl: "http://127.0.0.1:9/v1" });
    const res = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "a lighthouse" } });
    expect(res.status).toBe(502);
    expect(res.json.error).toMatch(/could not be reached|took too long/);
  });
});

describe("Anthropic", () => {
  it("the Messages API answers a scene's continuation with the story bible and the writer's key", async () => {
    const writer = await withOwnModel(anthropic);
    const timeline = await createTimeline(writer.token, { title: "Salt and Iron" });
    const event = await createEvent(writer.token, timeline.id, { title: "The wreck", content: "The bell rang twice." });
    const res = await call("POST", `/api/events/${event.id}/continue`, {
      token: writer.token,
      body: { instruction: "anthropic-continue" },
    });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatch(/Claude's fake answer/);
    const last = (await anthropicRequests()).filter((r) => r.user.includes("anthropic-continue")).at(-1);
    expect(last).toMatchObject({ model: "claude-fake-1", apiKey: FAKE_ANTHROPIC_KEY, maxTokens: 900 });
    expect(last.version).toBeTruthy();
    expect(last.system).toMatch(/co-writer/);
    expect(last.user).toContain("Salt and Iron");
    expect((await call("GET", "/api/ai/usage", { token: writer.token })).json.used).toBe(0);
  });

  it("streams over SSE through the real SDK", async () => {
    const writer = await withOwnModel(anthropic);
    const ctx = createExecutionContext();
    const request = new Request(`${ORIGIN}/api/ideas/generate`, {
      method: "POST",
      headers: { Authorization: `Bearer ${writer.token}`, "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ prompt: "anthropic-stream tide" }),
    }) as Request<unknown, IncomingRequestCfProperties>;
    const res = await worker.fetch(request, env, ctx);
    expect(res.headers.get("Content-Type")).toMatch(/text\/event-stream/);
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    const events = text
      .split("\n\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    const deltas = events.filter((e) => e.delta).map((e) => e.delta);
    expect(deltas.length).toBeGreaterThan(2);
    const done = events.find((e) => e.done);
    expect(done.result).toBe(deltas.join("").trim());
    expect(done.result).toMatch(/anthropic-stream tide/);
    expect((await anthropicRequests()).filter((r) => r.user.includes("anthropic-stream tide")).at(-1).stream).toBe(true);
  });

  it("a wrong key and an upstream 500 are told in the product's words", async () => {
    const writer = await withOwnModel({ ...anthropic, apiKey: "sk-ant-wrong" });
    const test = await call("POST", "/api/account/ai/test", { token: writer.token });
    expect(test.json).toEqual({
      success: false,
      error: "Your AI provider refused the API key. Check the key under Account → Your AI model.",
    });
    await call("PUT", "/api/account/ai", { token: writer.token, body: anthropic });
    expect((await call("POST", "/api/account/ai/test", { token: writer.token })).json).toMatchObject({ success: true });
    const failed = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "[[error]] tide" } });
    expect(failed).toMatchObject({ status: 502, json: { error: "Your AI provider could not answer. Please try again later." } });
  });
});
