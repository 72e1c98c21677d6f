import { dehydrate, hydrate, onlineManager, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { subscribeRefused } from "../../app/features/offline/not-saved-store";
import { type ChapterChange, sendChapterChange, setChapterDefaults } from "../../app/features/chapters/chapter-queries";
import type { ChapterView } from "../../app/features/chapters/chapters-api";
import { keptChange, OUTBOX_SCOPE, outboxRetry, outboxRetryDelay, resumable } from "../../app/features/offline/outbox";
import { queueEventChange, queueEventCreate, registerEventSession, setEventDefaults } from "../../app/features/timeline/event-changes";
import { registerChangeSession } from "../../app/features/timeline/change-sessions";
import { ApiError, type ApiClient } from "../../app/lib/client";
import type { EventView } from "../../worker/services/events";
import { type Answer, fakeSceneWrites, plainAnswer } from "./fake-scene-writes";

// A change on its way when the tab closed (issue 46): kept on the device with the paused ones, and sent again by the
// next page. The server made it or not; either way it holds it exactly once (a create by its Idempotency-Key, a
// delete that finds nothing counts as done, a rename sets the same values again).

const TIMELINE = 23;
const scene = (id: number, title: string) =>
  ({ id, timelineId: TIMELINE, title, content: "", position: 0, chapterId: null, plotlineIds: [], entityIds: [] }) as unknown as EventView;

/**
 * A server whose answers can be lost: while `lose` is set, a request is made on the server and its answer never
 * comes (the tab closed). Creates with an Idempotency-Key answer a repeat with the first result, as the worker does.
 */
function flakyApi() {
  const sent: string[] = [];
  const scenes = new Map<number, EventView>();
  const byKey = new Map<string, EventView>();
  let nextId = 300;
  const chapters = new Map<number, ChapterView>();
  const chapterByKey = new Map<string, ChapterView>();
  /** A chapter made last, or the one made before with the same key. */
  const makeChapter = (title: string, key?: string) => {
    const first = key ? chapterByKey.get(key) : undefined;
    if (first) return first;
    const made = { id: ++nextId, timelineId: TIMELINE, title, position: chapters.size, targetWords: null, wordCount: 0 };
    chapters.set(made.id, made);
    if (key) chapterByKey.set(key, made);
    return made;
  };
  /** A scene made last, or the one made before with the same key. */
  const makeScene = (title: string, key: string) => {
    const first = key ? byKey.get(key) : undefined;
    if (first) return first;
    const made = scene(++nextId, title);
    scenes.set(made.id, made);
    if (key) byKey.set(key, made);
    return made;
  };
  // lose: made, and the answer never comes (the tab closed); drop: made, and the answer is lost as the network drops
  // (fetch's TypeError), once.
  // tooMany: the next requests answered 429 (a rate limit) before anything is made, with this Retry-After if any.
  const state = { lose: false, drop: false, tooMany: 0, retryAfter: null as string | null };
  const limited = (): Promise<Response> | null => {
    if (state.tooMany === 0) return null;
    state.tooMany--;
    const headers = state.retryAfter === null ? undefined : { "Retry-After": state.retryAfter };
    return Promise.resolve(new Response(JSON.stringify({ error: "Too many chapter changes. Try again later." }), { status: 429, headers }));
  };
  const answer: Answer = (status, body) => {
    if (state.drop) {
      state.drop = false;
      return Promise.reject(new TypeError("Failed to fetch"));
    }
    return state.lose ? new Promise<Response>(() => undefined) : plainAnswer(status, body);
  };
  const api = {
    api: {
      timelines: {
        ":id": {
          chapters: {
            $post: ({ json }: { json: { title: string } }, options?: { headers?: Record<string, string> }) => {
              sent.push(`create chapter ${json.title}`);
              return limited() ?? answer(201, makeChapter(json.title, options?.headers?.["Idempotency-Key"]));
            },
            batch: {
              $post: ({ json }: { json: { chapters: { title: string; key: string }[] } }) => {
                sent.push(`batch ${json.chapters.map((c) => c.title).join(",")}`);
                return limited() ?? answer(201, { chapters: json.chapters.map((c) => makeChapter(c.title, c.key)) });
              },
            },
          },
          events: {
            $post: ({ json }: { json: { title: string } }, options?: { headers?: Record<string, string> }) => {
              sent.push(`create ${json.title}`);
              return answer(201, makeScene(json.title, options?.headers?.["Idempotency-Key"] ?? ""));
            },
            // A run of queued scene creates in one request (`POST /api/timelines/{id}/events/batch`), made in order.
            batch: {
              $post: ({ json }: { json: { events: { title: string; key: string }[] } }) => {
                sent.push(`batch ${json.events.map((e) => e.title).join(",")}`);
                return answer(201, { events: json.events.map((e) => makeScene(e.title, e.key)) });
              },
            },
          },
        },
      },
      events: fakeSceneWrites(scenes, sent, answer),
      chapters: {
        ":id": {
          $patch: ({ param, json }: { param: { id: string }; json: { title?: string } }) => {
            sent.push(`rename chapter ${param.id} ${json.title}`);
            const refused = limited();
            if (refused) return refused;
            const held = chapters.get(Number(param.id));
            if (!held) return answer(404, { error: "Chapter not found" });
            Object.assign(held, json);
            return answer(200, held);
          },
          $delete: ({ param }: { param: { id: string } }) => {
            sent.push(`delete chapter ${param.id}`);
            return chapters.delete(Number(param.id)) ? answer(200, { success: true }) : answer(404, { error: "Chapter not found" });
          },
        },
      },
    },
  };
  return { client: api as unknown as ApiClient, sent, scenes, chapters, state };
}

const newClient = () => {
  // As the page's outbox: a request with no answer (TypeError) is tried again; the server's refusals are not.
  const retry = (failures: number, error: unknown) => error instanceof TypeError && failures < 3;
  const client = new QueryClient({ defaultOptions: { mutations: { scope: { id: OUTBOX_SCOPE }, retry, retryDelay: 10 } } });
  setEventDefaults(client);
  setChapterDefaults(client);
  return client;
};

/** What the page keeps on the device (the outbox's filter), through JSON as IndexedDB would, read by the next page. */
const closeAndReopen = (before: QueryClient) => {
  const kept = JSON.parse(JSON.stringify(dehydrate(before, { shouldDehydrateMutation: keptChange })));
  const after = newClient();
  hydrate(after, resumable(kept));
  return { kept, after };
};

/** Each change's status, in the order they were queued. */
const statuses = (client: QueryClient) =>
  client
    .getMutationCache()
    .getAll()
    .map((m) => m.state.status);
const pending = (client: QueryClient) => client.getMutationCache().findAll({ status: "pending" }).length;
/** The id each change was answered with (a created chapter's or scene's), in the order they were queued. */
const answeredIds = (client: QueryClient) =>
  client
    .getMutationCache()
    .getAll()
    .map((m) => (m.state.data as { id: number } | undefined)?.id);

afterEach(() => onlineManager.setOnline(true));

describe("a change on its way when the tab closed", () => {
  it("is kept, sent again by the next page, and the server holds the new scene once (its Idempotency-Key)", async () => {
    const fake = flakyApi();
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    onlineManager.setOnline(true);
    const before = newClient();
    // The create reaches the server; its answer is lost as the tab closes. A rename queued behind it waits its turn.
    fake.state.lose = true;
    const tempId = queueEventCreate(before, { timelineId: TIMELINE, title: "Border", content: "" });
    queueEventChange(before, { timelineId: TIMELINE, kind: "event.update", eventId: tempId, fields: { title: "Frontier" } });
    await expect.poll(() => fake.sent).toEqual(["create Border"]);
    expect(pending(before)).toBe(2);

    const { kept, after } = closeAndReopen(before);
    // Both kept: the one on its way (not paused) too, and the one waiting its turn (paused).
    expect(kept.mutations.map((m: { state: { isPaused: boolean } }) => m.state.isPaused)).toEqual([false, true]);
    fake.state.lose = false;
    await after.resumePausedMutations();
    await expect.poll(() => pending(after)).toBe(0);
    expect(statuses(after)).toEqual(["success", "success"]);
    expect(fake.sent).toEqual(["create Border", "create Border", 'patch 301 {"title":"Frontier"}']);
    expect([...fake.scenes.values()].map((e) => e.title)).toEqual(["Frontier"]);
  });

  it("a delete made on the server whose answer was lost counts as done when sent again (404), not as refused", async () => {
    const fake = flakyApi();
    fake.scenes.set(5, scene(5, "Storm"));
    fake.chapters.set(9, { id: 9, timelineId: TIMELINE, title: "Act I", position: 0, targetWords: null, wordCount: 0 });
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => undefined });
    const before = newClient();
    fake.state.lose = true;
    queueEventChange(before, { timelineId: TIMELINE, kind: "event.delete", eventId: 5, title: "Storm" });
    const chapterDelete: ChapterChange = { timelineId: TIMELINE, kind: "chapter.delete", chapterId: 9 };
    void sendChapterChange(before, chapterDelete);
    await expect.poll(() => fake.sent).toEqual(["delete 5"]);

    const { after } = closeAndReopen(before);
    fake.state.lose = false;
    await after.resumePausedMutations();
    await expect.poll(() => pending(after)).toBe(0);
    expect(fake.sent).toEqual(["delete 5", "delete 5", "delete chapter 9"]);
    // The scene's delete found nothing (made the first time): done. The chapter's, never sent before, went once.
    expect(statuses(after)).toEqual(["success", "success"]);
    expect(fake.scenes.size).toBe(0);
    expect(fake.chapters.size).toBe(0);
  });

  it("a delete never sent before that finds nothing is still refused", async () => {
    const fake = flakyApi();
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    onlineManager.setOnline(false);
    const before = newClient();
    queueEventChange(before, { timelineId: TIMELINE, kind: "event.delete", eventId: 6, title: "Gone" });
    await expect.poll(() => pending(before)).toBe(1);
    const { after } = closeAndReopen(before);
    onlineManager.setOnline(true);
    await after.resumePausedMutations();
    await expect.poll(() => pending(after)).toBe(0);
    expect(fake.sent).toEqual(["delete 6"]);
    expect(statuses(after)).toEqual(["error"]);
  });
});

describe("a delete whose answer was lost as the network dropped, tried again by the same page", () => {
  it("counts as done when it then finds nothing (404): the first try made it", async () => {
    const fake = flakyApi();
    fake.scenes.set(7, scene(7, "Harbour"));
    fake.chapters.set(11, { id: 11, timelineId: TIMELINE, title: "Act II", position: 0, targetWords: null, wordCount: 0 });
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => undefined });
    const client = newClient();
    fake.state.drop = true;
    queueEventChange(client, { timelineId: TIMELINE, kind: "event.delete", eventId: 7, title: "Harbour" });
    await expect.poll(() => pending(client)).toBe(0);
    fake.state.drop = true;
    void sendChapterChange(client, { timelineId: TIMELINE, kind: "chapter.delete", chapterId: 11 });
    await expect.poll(() => pending(client)).toBe(0);
    expect(fake.sent).toEqual(["delete 7", "delete 7", "delete chapter 11", "delete chapter 11"]);
    expect(statuses(client)).toEqual(["success", "success"]);
    expect(fake.scenes.size).toBe(0);
    expect(fake.chapters.size).toBe(0);
  });

  it("a delete that got an answer (404) the first time is still refused when tried again", async () => {
    const fake = flakyApi();
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    const client = newClient();
    queueEventChange(client, { timelineId: TIMELINE, kind: "event.delete", eventId: 8, title: "Never here" });
    await expect.poll(() => pending(client)).toBe(0);
    expect(fake.sent).toEqual(["delete 8"]);
    expect(statuses(client)).toEqual(["error"]);
  });
});

describe("queued chapter creates in a row", () => {
  const create = (title: string): Extract<ChapterChange, { kind: "chapter.create" }> => ({
    timelineId: TIMELINE,
    kind: "chapter.create",
    tempId: -Math.floor(Math.random() * 1e9) - 1,
    key: crypto.randomUUID(),
    title,
  });

  it("go in one request each run, in order; a change between them ends the run; its answer lost, the run is sent again and made once", async () => {
    const fake = flakyApi();
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => undefined });
    onlineManager.setOnline(false);
    const client = newClient();
    const [a, b, c, d] = ["Dawn", "Noon", "Dusk", "Night"].map(create);
    for (const change of [a, b, c]) void sendChapterChange(client, change);
    void sendChapterChange(client, { timelineId: TIMELINE, kind: "chapter.update", chapterId: a.tempId, title: "First light" });
    void sendChapterChange(client, d);
    await expect.poll(() => pending(client)).toBe(5);
    // The first run's answer is lost as the network drops: the same page sends it again.
    fake.state.drop = true;
    onlineManager.setOnline(true);
    void client.resumePausedMutations();
    await expect.poll(() => pending(client)).toBe(0);
    expect(fake.sent).toEqual(["batch Dawn,Noon,Dusk", "batch Dawn,Noon,Dusk", "rename chapter 301 First light", "create chapter Night"]);
    expect(statuses(client)).toEqual(["success", "success", "success", "success", "success"]);
    expect([...fake.chapters.values()].map((ch) => [ch.id, ch.title])).toEqual([
      [301, "First light"],
      [302, "Noon"],
      [303, "Dusk"],
      [304, "Night"],
    ]);
    // Each create answered with its own chapter.
    expect(answeredIds(client)).toEqual([301, 302, 303, 301, 304]);
  });
});

describe("queued scene creates in a row", () => {
  it("go in one request each run, in order; a change between them ends the run; its answer lost, the run is sent again and made once", async () => {
    const fake = flakyApi();
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    onlineManager.setOnline(false);
    const client = newClient();
    const add = (title: string) => queueEventCreate(client, { timelineId: TIMELINE, title, content: "" });
    const [dawn] = ["Dawn", "Noon", "Dusk"].map(add);
    queueEventChange(client, { timelineId: TIMELINE, kind: "event.update", eventId: dawn, fields: { title: "First light" } });
    add("Night");
    await expect.poll(() => pending(client)).toBe(5);
    // The first run's answer is lost as the network drops: the same page sends it again.
    fake.state.drop = true;
    onlineManager.setOnline(true);
    void client.resumePausedMutations();
    await expect.poll(() => pending(client)).toBe(0);
    expect(fake.sent).toEqual(["batch Dawn,Noon,Dusk", "batch Dawn,Noon,Dusk", 'patch 301 {"title":"First light"}', "create Night"]);
    expect(statuses(client)).toEqual(["success", "success", "success", "success", "success"]);
    expect([...fake.scenes.values()].map((e) => [e.id, e.title])).toEqual([
      [301, "First light"],
      [302, "Noon"],
      [303, "Dusk"],
      [304, "Night"],
    ]);
    // Each create answered with its own scene.
    expect(answeredIds(client)).toEqual([301, 302, 303, 301, 304]);
  });
});

describe("a queued change the server rate-limits (429)", () => {
  /** The page's outbox policy itself (outbox.ts), not a copy: a 429 waits for the server's Retry-After. */
  const pageClient = () => {
    const client = new QueryClient({
      defaultOptions: { mutations: { scope: { id: OUTBOX_SCOPE }, retry: outboxRetry, retryDelay: outboxRetryDelay } },
    });
    setChapterDefaults(client);
    return client;
  };
  const refusals = () => {
    let reported = 0;
    const stop = subscribeRefused(() => reported++);
    return { count: () => reported, stop };
  };

  it("stays queued and is sent again after the Retry-After the server sent: made once, nothing under 'Changes not saved'", async () => {
    const fake = flakyApi();
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => undefined });
    const refused = refusals();
    onlineManager.setOnline(false);
    const client = pageClient();
    void sendChapterChange(client, {
      timelineId: TIMELINE,
      kind: "chapter.create",
      tempId: -42,
      key: crypto.randomUUID(),
      title: "Lantern",
    });
    await expect.poll(() => pending(client)).toBe(1);
    fake.state.tooMany = 1;
    fake.state.retryAfter = "1";
    onlineManager.setOnline(true);
    const started = Date.now();
    void client.resumePausedMutations();
    await expect.poll(() => fake.sent).toEqual(["create chapter Lantern"]);
    // Waiting out the server's second: still counted as waiting, not sent again, not refused.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fake.sent).toEqual(["create chapter Lantern"]);
    expect(pending(client)).toBe(1);
    await expect.poll(() => pending(client), { timeout: 5_000 }).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(fake.sent).toEqual(["create chapter Lantern", "create chapter Lantern"]);
    expect([...fake.chapters.values()].map((ch) => ch.title)).toEqual(["Lantern"]);
    expect(
      client
        .getMutationCache()
        .getAll()
        .map((m) => m.state.status),
    ).toEqual(["success"]);
    expect(refused.count()).toBe(0);
    refused.stop();
  });

  it("a real refusal (403) is not tried again: it goes to 'Changes not saved' at once", async () => {
    const fake = flakyApi();
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => undefined });
    const refused = refusals();
    onlineManager.setOnline(false);
    const client = pageClient();
    void sendChapterChange(client, { timelineId: TIMELINE, kind: "chapter.update", chapterId: 404, title: "Nowhere" });
    await expect.poll(() => pending(client)).toBe(1);
    onlineManager.setOnline(true);
    void client.resumePausedMutations();
    await expect.poll(() => pending(client)).toBe(0);
    expect(fake.sent).toEqual(["rename chapter 404 Nowhere"]);
    expect(
      client
        .getMutationCache()
        .getAll()
        .map((m) => m.state.status),
    ).toEqual(["error"]);
    expect(refused.count()).toBe(1);
    refused.stop();
  });

  it("a change made online (the writer waiting on it) is told of the rate limit at once, not held for the wait", async () => {
    const fake = flakyApi();
    fake.chapters.set(12, { id: 12, timelineId: TIMELINE, title: "Act III", position: 0, targetWords: null, wordCount: 0 });
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => undefined });
    onlineManager.setOnline(true);
    const client = pageClient();
    fake.state.tooMany = 1;
    fake.state.retryAfter = "3600";
    const saved = await sendChapterChange(client, { timelineId: TIMELINE, kind: "chapter.update", chapterId: 12, title: "Act Three" });
    expect(saved).toBe(false);
    expect(fake.sent).toEqual(["rename chapter 12 Act Three"]);
  });

  it("waits the server's Retry-After (header, else its answer's retryAfter), else backs off up to five minutes", () => {
    const limited = (retryAfter: number | null, body: Record<string, unknown> | null = null) =>
      new ApiError(429, "API request failed: 429", body, retryAfter);
    expect(outboxRetry(1, limited(30))).toBe(true);
    expect(outboxRetryDelay(1, limited(30))).toBe(30_000);
    expect(outboxRetryDelay(1, limited(null, { retryAfter: 12 }))).toBe(12_000);
    expect(outboxRetryDelay(1, limited(null))).toBe(2_000);
    expect(outboxRetryDelay(20, limited(null))).toBe(300_000);
    // A wait past an hour (or one that would overflow the browser's timer and fire at once) is taken as an hour.
    expect(outboxRetryDelay(1, limited(10 ** 9))).toBe(3_600_000);
    // Refusals are not tried again.
    for (const status of [400, 403, 404, 409]) expect(outboxRetry(1, new ApiError(status, "refused", null))).toBe(false);
  });
});
