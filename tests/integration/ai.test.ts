import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import {
  call,
  createEvent,
  createTimeline,
  premiumOwnerWithTimeline,
  registerUser,
  signInAdmin,
  shareByEmail,
  fakeRequests,
} from "./helpers";

const NOT_CONFIGURED = /not configured yet.*\/admin\/config/;
const LIMIT = "Free users are limited to 3 AI requests per session. Upgrade to Premium for unlimited access!";

async function adminToken() {
  return (await signInAdmin()).token;
}

describe("without a key", () => {
  it("every AI call answers 503 telling an admin where to configure it, and nothing is counted", async () => {
    await env.DB.prepare("DELETE FROM app_config").run();
    const writer = await registerUser();
    const res = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "a lighthouse" } });
    expect(res.status).toBe(503);
    expect(res.json.success).toBe(false);
    expect(res.json.error).toMatch(NOT_CONFIGURED);
    expect((await call("GET", "/api/ai/usage", { token: writer.token })).json).toEqual({ used: 0, limit: 3, premium: false });
    // The connection test spends the key uncounted: admins only.
    const refused = await call("GET", "/api/test/openai", { token: writer.token });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: "Admin access required" });
    const test = await call("GET", "/api/test/openai", { token: await adminToken() });
    expect(test.json).toMatchObject({ success: false, details: { configured: false } });
  });
});

describe("with a key an admin saved", () => {
  beforeAll(async () => {
    const token = await adminToken();
    const saved = await call("POST", "/api/config/openai-key", { token, body: { apiKey: `  ${FAKE_OPENAI_KEY} ` } });
    expect(saved.status).toBe(200);
  });

  it("the key is stored encrypted and never returned", async () => {
    const token = await adminToken();
    const status = await call("GET", "/api/config/openai-status", { token });
    expect(status.json).toEqual({ configured: true, source: "admin", model: "gpt-4o-mini" });
    expect(status.text).not.toContain(FAKE_OPENAI_KEY);
    const row = await env.DB.prepare("SELECT value FROM app_config WHERE key = 'secret:OPENAI_API_KEY'").first<{ value: string }>();
    expect(row?.value).toMatch(/^v1\./);
    expect(row?.value).not.toContain("fake-openai");
    const test = await call("GET", "/api/test/openai", { token });
    expect(test.json.success).toBe(true);
    expect(test.text).not.toContain(FAKE_OPENAI_KEY);
  });

  it("the config endpoints are admin only and validate the key", async () => {
    const writer = await registerUser();
    expect((await call("GET", "/api/config/openai-status")).status).toBe(401);
    expect((await call("GET", "/api/config/openai-status", { token: writer.token })).status).toBe(403);
    expect((await call("POST", "/api/config/openai-key", { token: writer.token, body: { apiKey: "sk-x" } })).status).toBe(403);
    const blank = await call("POST", "/api/config/openai-key", { token: await adminToken(), body: { apiKey: "   " } });
    expect(blank).toMatchObject({ status: 400, json: { error: "Please enter an API key" } });
  });

  it("ideas, enhance and character succeed through the real SDK", async () => {
    const premium = await premiumOwnerWithTimeline();
    const token = premium.owner.token;
    const ideas = await call("POST", "/api/ideas/generate", { token, body: { prompt: "  a drowned bell  " } });
    expect(ideas.status).toBe(200);
    expect(ideas.json).toMatchObject({ success: true, result: expect.stringContaining("a drowned bell") });
    const enhance = await call("POST", "/api/writing/enhance", { token, body: { text: "She walked slowly." } });
    expect(enhance.json).toMatchObject({ success: true, result: expect.any(String) });
    const character = await call("POST", "/api/writing/character", { token, body: { description: "a lighthouse keeper" } });
    expect(character.json.result).toContain("Mara Quill");

    const seen = await fakeRequests();
    const enhanceCall = seen.find((r) => r.user.includes("She walked slowly."));
    expect(enhanceCall.user).toContain("Instruction: Enhance this text");
    expect(enhanceCall.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
    expect(enhanceCall.model).toBe("gpt-4o-mini");
    const saved = await env.DB.prepare("SELECT prompt FROM ideas WHERE user_id = ?").bind(premium.owner.user.id).all();
    expect(saved.results).toEqual([{ prompt: "a drowned bell" }]);
  });

  it("validates input with the product's messages", async () => {
    const { token } = await registerUser();
    const cases: [string, unknown, string][] = [
      ["/api/ideas/generate", { prompt: "   " }, "Please enter a writing prompt"],
      ["/api/writing/enhance", { text: "" }, "Please enter text to enhance"],
      ["/api/writing/character", {}, "Character description is required"],
      ["/api/story/suggest-plot", { timelineId: "abc", prompt: "x" }, "Timeline id must be an integer"],
      ["/api/ideas/generate", { prompt: "x".repeat(5000) }, "Please keep it under 4000 characters"],
    ];
    for (const [path, body, error] of cases) {
      const res = await call("POST", path, { token, body });
      expect(res.status, path).toBe(400);
      expect(res.json.error).toBe(error);
    }
    expect((await call("POST", "/api/ideas/generate", { body: { prompt: "x" } })).status).toBe(401);
    expect((await call("GET", "/api/ai/usage", { token })).json.used).toBe(0);
  });

  it("upstream errors and timeouts are 502 with a generic message (details only in the log), and are not counted", async () => {
    const writer = await registerUser();
    const failed = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "[[error]]" } });
    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({ success: false, error: "The AI service could not answer. Please try again later." });
    const slow = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "[[slow]]" } });
    expect(slow.status).toBe(502);
    expect(slow.json.error).toBe("The AI service took too long to answer. Please try again.");
    expect((await call("GET", "/api/ai/usage", { token: writer.token })).json.used).toBe(0);
  });

  it("free writers get 3 uses, then 429, in a new session too; premium is unlimited", async () => {
    const writer = await registerUser();
    for (let i = 1; i <= 3; i++) {
      const res = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: `idea ${i}` } });
      expect(res.status).toBe(200);
      expect(res.json.usage).toEqual({ used: i, limit: 3, premium: false });
    }
    const fourth = await call("POST", "/api/writing/character", { token: writer.token, body: { description: "a sailor" } });
    expect(fourth.status).toBe(429);
    expect(fourth.json).toMatchObject({ error: LIMIT, title: "Usage Limit Reached", success: false });

    // A new session does not start again at zero: the allowance is the writer's.
    const again = await call("POST", "/api/auth/login", { body: { email: writer.email, password: writer.password } });
    expect(await call("POST", "/api/ideas/generate", { token: again.json.token, body: { prompt: "fresh" } })).toMatchObject({
      status: 429,
      json: { error: LIMIT },
    });

    const { owner } = await premiumOwnerWithTimeline();
    for (let i = 0; i < 5; i++) {
      expect((await call("POST", "/api/ideas/generate", { token: owner.token, body: { prompt: `p${i}` } })).status).toBe(200);
    }
    expect((await call("GET", "/api/ai/usage", { token: owner.token })).json).toEqual({ used: 0, limit: null, premium: true });
  });

  it("parallel requests cannot exceed the free allowance", async () => {
    const writer = await registerUser();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: `race ${i}` } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
  });

  it("suggest-plot: uses the timeline as context; strangers 404, viewers 403; returns {suggestion}", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Saltmarsh");
    await createEvent(owner.token, timelineId, { title: "The keeper arrives", content: "Rain." });
    const viewer = await registerUser();
    const collab = await registerUser();
    await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const stranger = await registerUser();

    const ok = await call("POST", "/api/story/suggest-plot", { token: collab.token, body: { timelineId, prompt: "what next?" } });
    expect(ok.status).toBe(200);
    expect(ok.json.suggestion).toEqual({
      title: "A Bell Beneath the Tide",
      content: expect.stringContaining("drowned bell"),
    });
    const seen = (await fakeRequests()).at(-1);
    expect(seen.user).toContain("Story: Saltmarsh");
    expect(seen.user).toContain("The keeper arrives: Rain.");

    const long = await call("POST", "/api/story/suggest-plot", { token: owner.token, body: { timelineId, prompt: "[[long-title]]" } });
    expect(long.json.suggestion.title).toHaveLength(50);
    expect(long.json.suggestion.title.endsWith("...")).toBe(true);

    const refused = await call("POST", "/api/story/suggest-plot", { token: viewer.token, body: { timelineId, prompt: "x" } });
    expect(refused).toMatchObject({ status: 403, json: { error: "You have view-only access to this timeline" } });
    const hidden = await call("POST", "/api/story/suggest-plot", { token: stranger.token, body: { timelineId, prompt: "x" } });
    expect(hidden).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    const own = await createTimeline(stranger.token);
    expect(
      (await call("POST", "/api/story/suggest-plot", { token: stranger.token, body: { timelineId: own.id, prompt: "go" } })).status,
    ).toBe(200);
  });
});
