import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import {
  ORIGIN,
  call,
  createEvent,
  createTimeline,
  premiumOwnerWithTimeline,
  registerUser,
  shareByEmail,
  signInAdmin,
  lastRequestWith,
} from "./helpers";

// Streaming AI: SSE answers, refunds, story context, usage.

type Sse = { status: number; type: string | null; events: any[]; json: any };

/** Sends a request with `Accept: text/event-stream`; `stopAfter` cancels the body after that many deltas. */
async function stream(
  path: string,
  token: string,
  body: unknown,
  stopAfter?: number,
  opts: { streamId?: string; onDelta?: () => Promise<void> } = {},
): Promise<Sse> {
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "text/event-stream",
      ...(opts.streamId ? { "X-AI-Stream-Id": opts.streamId } : {}),
    },
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  const type = res.headers.get("Content-Type");
  if (!type?.startsWith("text/event-stream")) {
    const json = await res.json();
    await waitOnExecutionContext(ctx);
    return { status: res.status, type, events: [], json };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: any[] = [];
  let buffer = "";
  if (stopAfter === 0) await reader.cancel();
  for (; stopAfter !== 0; ) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith("data: ")) {
        const event = JSON.parse(frame.slice(6));
        events.push(event);
        if (event.delta && opts.onDelta) await opts.onDelta();
      }
      end = buffer.indexOf("\n\n");
    }
    if (stopAfter !== undefined && events.filter((e) => e.delta).length >= stopAfter) {
      await reader.cancel();
      break;
    }
  }
  await waitOnExecutionContext(ctx);
  return { status: res.status, type, events, json: null };
}

const usage = async (token: string) => (await call("GET", "/api/ai/usage", { token })).json;

beforeAll(async () => {
  const { token } = await signInAdmin();
  expect((await call("POST", "/api/config/openai-key", { token, body: { apiKey: FAKE_OPENAI_KEY } })).status).toBe(200);
});

describe("streaming (Accept: text/event-stream)", () => {
  it("sends the deltas in order, then done with the whole result; JSON without the header is unchanged", async () => {
    const writer = await registerUser();
    const sse = await stream("/api/ideas/generate", writer.token, { prompt: "a drowned bell" });
    expect(sse.status).toBe(200);
    expect(sse.type).toMatch(/^text\/event-stream/);
    const deltas = sse.events.filter((e) => "delta" in e).map((e) => e.delta);
    expect(deltas.length).toBeGreaterThan(3);
    const last = sse.events.at(-1);
    expect(last).toMatchObject({ done: true, success: true, usage: { used: 1, limit: 3, premium: false } });
    expect(deltas.join("").trim()).toBe(last.result);
    expect(last.result).toContain('Here is an idea for "a drowned bell"');
    expect((await lastRequestWith("a drowned bell")).stream).toBe(true);

    const json = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "a drowned bell" } });
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(json.json).toEqual({ success: true, result: last.result, usage: { used: 2, limit: 3, premium: false } });
  });

  it("every tool streams; suggest-plot's done carries the suggestion", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Saltmarsh");
    const enhance = await stream("/api/writing/enhance", owner.token, { text: "She walked." });
    expect(enhance.events.at(-1)).toMatchObject({ done: true, result: expect.any(String) });
    const character = await stream("/api/writing/character", owner.token, { description: "a keeper" });
    expect(character.events.at(-1).result).toContain("Mara Quill");
    const plot = await stream("/api/story/suggest-plot", owner.token, { timelineId, prompt: "what next?" });
    expect(plot.events.at(-1)).toMatchObject({
      done: true,
      result: { title: "A Bell Beneath the Tide", content: expect.stringContaining("drowned bell") },
      suggestion: { title: "A Bell Beneath the Tide" },
    });
  });

  it("checks before the upstream call keep their status and JSON error", async () => {
    const writer = await registerUser();
    const bad = await stream("/api/ideas/generate", writer.token, { prompt: " " });
    expect(bad).toMatchObject({ status: 400, json: { error: "Please enter a writing prompt" } });
    const { timelineId } = await premiumOwnerWithTimeline();
    const hidden = await stream("/api/story/suggest-plot", writer.token, { timelineId, prompt: "x" });
    expect(hidden).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
  });

  it("stopping mid-stream aborts upstream; the use counts once text has reached the writer", async () => {
    const writer = await registerUser();
    const sse = await stream("/api/ideas/generate", writer.token, { prompt: "[[slowstream]] a long one" }, 1);
    expect(sse.events.filter((e) => e.delta)).toHaveLength(1);
    expect(sse.events.some((e) => e.done)).toBe(false);
    expect(await usage(writer.token)).toEqual({ used: 1, limit: 3, premium: false });
    expect((await call("GET", "/api/ai/usage/daily", { token: writer.token })).json.total).toBe(1);
  });

  it("stopping before any text arrived gives the use back", async () => {
    const writer = await registerUser();
    const sse = await stream("/api/ideas/generate", writer.token, { prompt: "[[slowstream]] never mind" }, 0);
    expect(sse.events).toEqual([]);
    expect(await usage(writer.token)).toEqual({ used: 0, limit: 3, premium: false });
    expect((await call("GET", "/api/ai/usage/daily", { token: writer.token })).json.total).toBe(0);
  });

  it("streams stopped just before their end cannot farm the allowance: three count, the fourth is refused", async () => {
    const writer = await registerUser();
    const whole = (await stream("/api/ideas/generate", (await registerUser()).token, { prompt: "farm" })).events.filter(
      (e) => e.delta,
    ).length;
    expect(whole).toBeGreaterThan(2);
    for (let i = 0; i < 3; i++) {
      const sse = await stream("/api/ideas/generate", writer.token, { prompt: "farm" }, whole - 1);
      expect(sse.events.some((e) => e.done)).toBe(false);
      expect(await usage(writer.token)).toEqual({ used: i + 1, limit: 3, premium: false });
    }
    const refused = await stream("/api/ideas/generate", writer.token, { prompt: "farm" }, whole - 1);
    expect(refused).toMatchObject({ status: 429, json: { title: "Usage Limit Reached", usage: { used: 3, limit: 3, premium: false } } });
  });

  it("'Stop generating' named by POST /api/ai/stop (a proxy kept the stream open) also stops; what arrived counts", async () => {
    const writer = await registerUser();
    const streamId = "test-stream-0001";
    let asked = false;
    const sse = await stream("/api/ideas/generate", writer.token, { prompt: "[[slowstream]] stop by name" }, undefined, {
      streamId,
      onDelta: async () => {
        if (asked) return;
        asked = true;
        expect((await call("POST", "/api/ai/stop", { token: writer.token, body: { id: streamId } })).status).toBe(204);
      },
    });
    expect(sse.events.some((e) => e.done)).toBe(false);
    expect(sse.events.at(-1)).toEqual({ error: "Generation stopped." });
    expect(await usage(writer.token)).toEqual({ used: 1, limit: 3, premium: false });
    expect((await call("POST", "/api/ai/stop", { token: writer.token, body: { id: "bad id!" } })).status).toBe(400);
    expect((await call("POST", "/api/ai/stop", { body: { id: streamId } })).status).toBe(401);
  });

  it("upstream failure and a stream that breaks mid-answer send an error event and are refunded", async () => {
    const writer = await registerUser();
    const failed = await stream("/api/ideas/generate", writer.token, { prompt: "[[error]]" });
    expect(failed.status).toBe(200);
    expect(failed.events).toEqual([{ error: "The AI service could not answer. Please try again later." }]);
    const broke = await stream("/api/ideas/generate", writer.token, { prompt: "[[break]]" });
    expect(broke.events.filter((e) => e.delta).length).toBeGreaterThan(0);
    expect(broke.events.at(-1)).toEqual({ error: "The AI stopped before finishing. What arrived is kept." });
    expect(await usage(writer.token)).toEqual({ used: 0, limit: 3, premium: false });
  });

  it("the allowance is per writer: signing out and in again starts no new count", async () => {
    const writer = await registerUser();
    for (const prompt of ["one", "two"]) {
      expect((await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt } })).status).toBe(200);
    }
    expect((await call("POST", "/api/auth/logout", { token: writer.token })).status).toBeLessThan(300);
    const again = await call("POST", "/api/auth/login", { body: { email: writer.email, password: writer.password } });
    expect(again.status, again.text).toBe(200);
    const token = again.json.token as string;
    expect(token).not.toBe(writer.token);
    expect(await usage(token)).toEqual({ used: 2, limit: 3, premium: false });
    expect((await call("POST", "/api/ideas/generate", { token, body: { prompt: "three" } })).status).toBe(200);
    const second = await call("POST", "/api/auth/login", { body: { email: writer.email, password: writer.password } });
    const refused = await call("POST", "/api/ideas/generate", { token: second.json.token, body: { prompt: "four" } });
    expect(refused).toMatchObject({
      status: 429,
      json: { error: "Free users are limited to 3 AI requests per session. Upgrade to Premium for unlimited access!" },
    });
  });

  it("the 3 hold for a rolling 24 hours: a use older than that frees its place", async () => {
    const writer = await registerUser();
    for (const prompt of ["one", "two", "three"]) {
      expect((await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt } })).status).toBe(200);
    }
    expect((await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "four" } })).status).toBe(429);
    const moveBack = (ms: number, ids: "oldest" | "all") =>
      env.DB.prepare(
        `UPDATE ai_usage SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?) WHERE user_id = ?${
          ids === "oldest" ? " AND id = (SELECT min(id) FROM ai_usage WHERE user_id = ?2)" : ""
        }`,
      )
        .bind(`-${ms / 1000} seconds`, writer.user.id)
        .run();
    // 23 hours later: still used.
    await moveBack(23 * 3600 * 1000, "all");
    expect(await usage(writer.token)).toEqual({ used: 3, limit: 3, premium: false });
    expect((await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "four" } })).status).toBe(429);
    // The oldest passes 24 hours: one place again.
    await moveBack(3600 * 1000 + 60_000, "oldest");
    expect(await usage(writer.token)).toEqual({ used: 2, limit: 3, premium: false });
    const ok = await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "four" } });
    expect(ok).toMatchObject({ status: 200, json: { usage: { used: 3, limit: 3, premium: false } } });
    // All of them past 24 hours (the new one too): the whole allowance is back.
    await moveBack(24 * 3600 * 1000 + 60_000, "all");
    expect(await usage(writer.token)).toEqual({ used: 0, limit: 3, premium: false });
  });

  it("parallel streams cannot exceed the free allowance: 1 use left, 5 streams → exactly one done", async () => {
    const writer = await registerUser();
    for (let i = 0; i < 2; i++) {
      expect((await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: `warm ${i}` } })).status).toBe(200);
    }
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => stream("/api/ideas/generate", writer.token, { prompt: `race ${i}` })),
    );
    expect(results.filter((r) => r.events.at(-1)?.done)).toHaveLength(1);
    expect(results.filter((r) => r.status === 429)).toHaveLength(4);
    expect(await usage(writer.token)).toEqual({ used: 3, limit: 3, premium: false });
  });

  it("premium is unlimited but limited per minute (RATE_AI_PREMIUM_PER_MINUTE) with Retry-After", async () => {
    const { owner } = await premiumOwnerWithTimeline();
    for (let i = 0; i < 6; i++) {
      expect((await call("POST", "/api/ideas/generate", { token: owner.token, body: { prompt: `p${i}` } })).status).toBe(200);
    }
    const refused = await call("POST", "/api/ideas/generate", { token: owner.token, body: { prompt: "one more" } });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe("Too many AI requests. Try again in a minute.");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

/** A timeline with a codex and a few events, a viewer and a collaborator; and another writer's timeline. */
async function story() {
  const { owner, timelineId } = await premiumOwnerWithTimeline("Saltmarsh");
  await call("PATCH", `/api/timelines/${timelineId}`, { token: owner.token, body: { description: "A lighthouse on a drowning coast." } });
  for (const body of [
    { kind: "character", name: "Mara Quill", description: "The keeper. Hears the bell first." },
    { kind: "place", name: "The Saltmarsh Light", description: "A lighthouse half-sunk in reeds." },
  ]) {
    expect((await call("POST", `/api/timelines/${timelineId}/entities`, { token: owner.token, body })).status).toBe(201);
  }
  const events = [];
  for (let i = 1; i <= 5; i++) {
    events.push(
      await createEvent(owner.token, timelineId, { title: `Scene ${i}`, content: `Scene ${i} text: the tide comes in ${i} times.` }),
    );
  }
  const viewer = await registerUser();
  const collab = await registerUser();
  await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
  await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
  const other = await registerUser();
  const otherTimeline = await createTimeline(other.token, { title: "Secret Other Story" });
  await call("POST", `/api/timelines/${otherTimeline.id}/entities`, {
    token: other.token,
    body: { kind: "character", name: "Zed Forbidden", description: "Never leak me" },
  });
  await createEvent(other.token, otherTimeline.id, { title: "Other scene", content: "PRIVATE-OTHER-CONTENT" });
  return { owner, timelineId, events, viewer, collab, other };
}

describe("story context (story-context.ts)", () => {
  it("continue: the story bible has the codex and nearby events, and nothing from another timeline", async () => {
    const s = await story();
    const current = s.events[2];
    const res = await call("POST", `/api/events/${current.id}/continue`, {
      token: s.collab.token,
      body: { instruction: "[[bible]] make it rain" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ success: true, result: expect.any(String) });
    const seen = await lastRequestWith("[[bible]]");
    expect(seen.system).toMatch(/continuing a novelist's scene/);
    for (const part of [
      "Story: Saltmarsh",
      "About: A lighthouse on a drowning coast.",
      "- Mara Quill (character): The keeper. Hears the bell first.",
      "- The Saltmarsh Light (place)",
      "2. Scene 2: Scene 2 text",
      "4. Scene 4: Scene 4 text",
      "Current scene: Scene 3\nScene 3 text",
      "What the writer wants next: [[bible]] make it rain",
    ]) {
      expect(seen.user).toContain(part);
    }
    expect(seen.user).not.toContain("Zed Forbidden");
    expect(seen.user).not.toContain("PRIVATE-OTHER-CONTENT");
    expect(seen.user).not.toContain("Secret Other Story");

    // Streams too; an empty body is fine.
    const sse = await stream(`/api/events/${current.id}/continue`, s.owner.token, {});
    expect(sse.events.at(-1)).toMatchObject({ done: true, result: expect.any(String) });
  });

  it("with chapters, the bible lists the scenes in story order under their chapters", async () => {
    const s = await story();
    const [first, second, third, fourth] = s.events;
    const post = (title: string, eventIds: number[]) =>
      call("POST", `/api/timelines/${s.timelineId}/chapters`, { token: s.owner.token, body: { title, eventIds } });
    expect((await post("The Bell", [first.id, second.id])).status).toBe(201);
    expect((await post("The Flood", [fourth.id])).status).toBe(201);
    const res = await call("POST", `/api/events/${third.id}/continue`, { token: s.owner.token, body: { instruction: "[[chapters]]" } });
    expect(res.status, res.text).toBe(200);
    const seen = await lastRequestWith("[[chapters]]");
    expect(seen.user).toMatch(/Chapter 1: The Bell\n\d+\. Scene 1: [^\n]*\n\d+\. Scene 2: [^\n]*\nChapter 2: The Flood\n\d+\. Scene 4: /);
  });

  it("the bible is trimmed to AI_CONTEXT_BUDGET_TOKENS: nearest in full, far ones summarised or left out", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Long Story");
    const events = [];
    for (let i = 1; i <= 30; i++) {
      events.push(
        await createEvent(owner.token, timelineId, { title: `Chapter ${i}`, content: `Chapter ${i} opens. ${"word ".repeat(200)}END${i}` }),
      );
    }
    const res = await call("POST", `/api/events/${events[14].id}/continue`, { token: owner.token, body: { instruction: "[[budget]]" } });
    expect(res.status).toBe(200);
    const seen = await lastRequestWith("[[budget]]");
    const budgetChars = 3000 * 4;
    const scene = events[14].content.length;
    expect(seen.user.length).toBeLessThan(budgetChars + scene + 500);
    // The neighbours are there in full, far chapters only as summaries (or not at all).
    expect(seen.user).toContain("END14");
    expect(seen.user).toContain("END16");
    expect(seen.user).not.toContain("END1\n");
    expect(seen.user).not.toContain("END30");
    expect(seen.user).toMatch(/30 in the story, \d+ shown/);
  });

  it("suggest-plot uses the bible (codex included)", async () => {
    const s = await story();
    const res = await call("POST", "/api/story/suggest-plot", {
      token: s.owner.token,
      body: { timelineId: s.timelineId, prompt: "[[plot-bible]]" },
    });
    expect(res.status).toBe(200);
    const seen = await lastRequestWith("[[plot-bible]]");
    expect(seen.user).toContain("- Mara Quill (character)");
    expect(seen.user).toContain("5. Scene 5: Scene 5 text");
    expect(seen.user).not.toContain("Zed Forbidden");
  });

  it("continue and transform: anonymous 401, stranger 404, viewer 403, validation 400", async () => {
    const s = await story();
    const id = s.events[0].id;
    expect((await call("POST", `/api/events/${id}/continue`, { body: {} })).status).toBe(401);
    expect(await call("POST", `/api/events/${id}/continue`, { token: s.other.token, body: {} })).toMatchObject({
      status: 404,
      json: { error: "Event not found" },
    });
    expect((await call("POST", `/api/events/${id}/continue`, { token: s.viewer.token, body: {} })).status).toBe(403);
    expect((await call("POST", "/api/events/999999999/continue", { token: s.owner.token, body: {} })).status).toBe(404);
    expect((await call("POST", "/api/events/abc/continue", { token: s.owner.token, body: {} })).status).toBe(404);
    expect(
      await call("POST", `/api/events/${id}/continue`, { token: s.owner.token, body: { instruction: "x".repeat(501) } }),
    ).toMatchObject({ status: 400, json: { error: "Please keep the instruction under 500 characters" } });

    const t = (token: string | undefined, body: unknown) => call("POST", "/api/writing/transform", { token, body });
    expect((await t(undefined, { mode: "describe", text: "x" })).status).toBe(401);
    expect(await t(s.other.token, { mode: "describe", text: "x", eventId: id })).toMatchObject({ status: 404 });
    expect((await t(s.viewer.token, { mode: "describe", text: "x", eventId: id })).status).toBe(403);
    const cases: [unknown, string][] = [
      [{ mode: "shout", text: "x" }, "Mode must be describe, rewrite or expand"],
      [{ mode: "describe", text: "  " }, "Please select some text first"],
      [{ mode: "expand", text: "x".repeat(5001) }, "Please keep the selection under 5000 characters"],
      [{ mode: "rewrite", text: "x", tone: "Purple" }, "Tone must be one of: Darker, Lighter, More formal, More casual, Tenser"],
    ];
    for (const [body, error] of cases) expect(await t(s.owner.token, body)).toMatchObject({ status: 400, json: { error } });

    const ok = await t(s.collab.token, { mode: "rewrite", tone: "Darker", text: "[[tone]] The tide came in.", eventId: id });
    expect(ok).toMatchObject({ status: 200, json: { success: true, result: expect.any(String) } });
    const seen = await lastRequestWith("[[tone]]");
    expect(seen.user).toContain("darker and more ominous");
    expect(seen.user).toContain("- Mara Quill (character)");
    const plain = await stream("/api/writing/transform", s.other.token, { mode: "describe", text: "[[plain]] A door." });
    expect(plain.events.at(-1)).toMatchObject({ done: true });
    expect((await lastRequestWith("[[plain]]")).user).not.toContain("Story:");
  });
});

describe("usage per day", () => {
  it("records each completed use; the writer sees this month's days, the admin the last 30 days", async () => {
    const writer = await registerUser();
    await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "one" } });
    await stream("/api/writing/character", writer.token, { description: "two" });
    await call("POST", "/api/ideas/generate", { token: writer.token, body: { prompt: "[[error]]" } });
    const mine = await call("GET", "/api/ai/usage/daily", { token: writer.token });
    expect(mine.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(mine.json.total).toBe(2);
    expect(mine.json.days.at(-1)).toEqual({ day: today, count: 2 });
    expect(mine.json.days[0].day).toBe(`${today.slice(0, 7)}-01`);
    const rows = await env.DB.prepare("SELECT tool FROM ai_usage WHERE user_id = ? ORDER BY id").bind(writer.user.id).all();
    expect(rows.results).toEqual([{ tool: "ideas" }, { tool: "character" }]);

    expect((await call("GET", "/api/ai/usage/daily")).status).toBe(401);
    const admin = await signInAdmin();
    const totals = await call("GET", "/api/admin/ai-usage", { token: admin.token });
    expect(totals.status).toBe(200);
    expect(totals.json.days).toHaveLength(30);
    expect(totals.json.days.at(-1).count).toBeGreaterThanOrEqual(2);
    expect((await call("GET", "/api/admin/ai-usage", { token: writer.token })).status).toBe(403);
  });
});
