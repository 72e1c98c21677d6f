import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, importBook } from "./helpers";

// Rules the docs state: one writer of an event's text, the product's words for a body that is not an object,
// Markdown that reads back as it was written.

describe("one writer of an event's text", () => {
  it("a restore is written as every text write is: its version carries its word count at once", async () => {
    const owner = await registerUser({ name: "Hana House" });
    const timeline = await createTimeline(owner.token, { title: "House" });
    const event = await createEvent(owner.token, timeline.id, { title: "First", content: "One two three" });
    const edit = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { content: "Four" } });
    expect(edit.status).toBe(200);
    const listed = await call("GET", `/api/events/${event.id}/versions`, { token: owner.token });
    const oldest = (listed.json as Array<{ id: number }>).at(-1)!;
    const res = await call("POST", `/api/event-versions/${oldest.id}/restore`, { token: owner.token });
    expect(res).toMatchObject({ status: 200, json: { title: "First", content: "One two three", version: 3 } });
    const newest = await env.DB.prepare(
      "SELECT word_count AS words, restored_from AS restoredFrom, content FROM event_versions WHERE event_id = ? ORDER BY id DESC LIMIT 1",
    )
      .bind(event.id)
      .first<{ words: number | null; restoredFrom: number; content: string }>();
    expect(newest).toEqual({ words: 3, restoredFrom: oldest.id, content: "One two three" });
  });
});

describe("a JSON body that is not an object", () => {
  it("is answered in the product's words, null included (never taken for an empty object)", async () => {
    const owner = await registerUser({ name: "Nell Null" });
    const timeline = await createTimeline(owner.token, { title: "Kept" });
    for (const body of [null, [], "x", 42]) {
      const patch = await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body });
      expect(patch).toMatchObject({ status: 400, json: { error: "Request body must be a JSON object" } });
      const post = await call("POST", "/api/timelines", { token: owner.token, body });
      expect(post).toMatchObject({ status: 400, json: { error: "Please enter a timeline title" } });
      const event = await call("POST", `/api/timelines/${timeline.id}/events`, { token: owner.token, body });
      expect(event).toMatchObject({ status: 400, json: { error: "Please fill in both title and content" } });
    }
  });

  it("is answered in the product's words on every route that takes a JSON body (OpenAPI's list), never zod's", async () => {
    const owner = await registerUser({ name: "Rhea Routes" });
    const timeline = await createTimeline(owner.token, { title: "Every route" });
    const doc = (await call("GET", "/api/openapi.json")).json as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.requestBody?.content?.["application/json"])
        .map(([method, _op]) => ({ method: method.toUpperCase(), path: path.replace(/\{\w+\}/g, String(timeline.id)) })),
    );
    expect(routes.length).toBeGreaterThan(40);
    // zod's own wording ('Invalid input: expected object, received array', 'Required', 'Too small: …'…).
    const zods = /Invalid input|Invalid option|expected \w+, received|^Required$|Unrecognized key|Too (small|big):|character\(s\)/i;
    const refused: string[] = [];
    for (const { method, path } of routes) {
      for (const body of [[], "x", 1]) {
        const res = await call(method, path, { token: owner.token, body });
        if (res.status !== 400) continue;
        refused.push(`${method} ${path}`);
        expect(typeof res.json?.error, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe("string");
        expect(res.json.error, `${method} ${path} ${JSON.stringify(body)}`).not.toMatch(zods);
      }
    }
    // Most routes read the body before anything else about the request.
    expect(new Set(refused).size).toBeGreaterThan(routes.length / 2);
  });
});

describe("the Markdown export", () => {
  it("reads back as written: a title ending in #s, --- and === under a line of scene text", async () => {
    const owner = await registerUser({ name: "Mona Markdown" });
    const timeline = await createTimeline(owner.token, { title: "Book ##", description: "Told twice.\n===\nand again" });
    const scenes = [
      { title: "Act ##", content: "Harbour lights\n---\nThe tide\n===\nkept" },
      { title: "##", content: "Plain text." },
    ];
    for (const scene of scenes) await createEvent(owner.token, timeline.id, scene);
    const exported = await call("GET", `/api/timelines/${timeline.id}/export?format=md`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain("## Act \\##\n");
    const imported = await importBook(owner.token, exported.text, "text/markdown");
    expect(imported.status).toBe(201);
    const copy = imported.json as { id: number; title: string; description: string };
    expect([copy.title, copy.description]).toEqual(["Book ##", "Told twice.\n===\nand again"]);
    const events = await call("GET", `/api/timelines/${copy.id}/events`, { token: owner.token });
    expect((events.json as Array<{ title: string; content: string }>).map((e) => ({ title: e.title, content: e.content }))).toEqual(scenes);
  });
});
