import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser } from "./helpers";

type Res = Awaited<ReturnType<typeof call>>;

/** The answer past a limit: 429, the product's message and a Retry-After in seconds. */
function expectLimited(res: Res, what: string) {
  expect(res.status, res.text).toBe(429);
  expect(res.json.error).toMatch(new RegExp(`^Too many ${what}\\. Please try again in \\d+ minutes?\\.$`));
  expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
}

async function writerWithTimeline(name: string) {
  const writer = await registerUser({ name });
  const timeline = await createTimeline(writer.token, { title: `${name}'s book` });
  return { token: writer.token, timelineId: timeline.id as number };
}

describe("rate limits on chapters, restores and progress", () => {
  it("chapter writes (add, rename, delete): 429 past the limit per account, another writer unaffected", async () => {
    const limited = { ...env, RATE_CHAPTER_WRITES_PER_ACCOUNT_PER_HOUR: "4" };
    const a = await writerWithTimeline("Flooding Fay");
    const b = await writerWithTimeline("Calm Cal");
    const add = (w: typeof a, title: string) =>
      call("POST", `/api/timelines/${w.timelineId}/chapters`, { token: w.token, body: { title }, env: limited });
    const first = await add(a, "One");
    expect(first.status).toBe(201);
    expect((await call("PATCH", `/api/chapters/${first.json.id}`, { token: a.token, body: { title: "Uno" }, env: limited })).status).toBe(
      200,
    );
    expect((await add(a, "Two")).status).toBe(201);
    expect((await call("DELETE", `/api/chapters/${first.json.id}`, { token: a.token, env: limited })).status).toBe(200);
    expectLimited(await add(a, "Five"), "chapter changes");
    expectLimited(
      await call("PATCH", `/api/chapters/${first.json.id}`, { token: a.token, body: { title: "X" }, env: limited }),
      "chapter changes",
    );
    // Reading is not a write; another writer writes on.
    expect((await call("GET", `/api/timelines/${a.timelineId}/chapters`, { token: a.token, env: limited })).status).toBe(200);
    expect((await add(b, "Mine")).status).toBe(201);
  });

  it("restores from Trash: 429 past the limit per account, another writer unaffected", async () => {
    const limited = { ...env, RATE_RESTORES_PER_ACCOUNT_PER_HOUR: "2" };
    const a = await writerWithTimeline("Restless Rae");
    const b = await writerWithTimeline("Steady Sam");
    const trashed = async (w: typeof a) => {
      const event = await createEvent(w.token, w.timelineId);
      expect((await call("DELETE", `/api/events/${event.id}`, { token: w.token })).status).toBe(200);
      return event.id as number;
    };
    const restore = (w: typeof a, id: number) => call("POST", `/api/trash/event/${id}/restore`, { token: w.token, env: limited });
    for (let i = 0; i < 2; i++) expect((await restore(a, await trashed(a))).status).toBe(200);
    const third = await trashed(a);
    expectLimited(await restore(a, third), "restores from Trash");
    // Nothing is lost: the scene is still in Trash.
    const listed = await call("GET", "/api/trash", { token: a.token });
    expect(listed.json.map((t: { id: number }) => t.id)).toContain(third);
    expect((await restore(b, await trashed(b))).status).toBe(200);
  });

  it("GET /progress: 429 past the limit per account, another writer unaffected", async () => {
    const limited = { ...env, RATE_PROGRESS_PER_ACCOUNT_PER_HOUR: "3" };
    const a = await writerWithTimeline("Peeking Pat");
    const b = await writerWithTimeline("Quiet Quin");
    const progress = (w: typeof a) => call("GET", `/api/timelines/${w.timelineId}/progress`, { token: w.token, env: limited });
    for (let i = 0; i < 3; i++) expect((await progress(a)).status).toBe(200);
    expectLimited(await progress(a), "progress requests");
    expect((await progress(b)).status).toBe(200);
  });

  it("plotline and template writes share one budget: 429 past it, nothing written, another writer unaffected", async () => {
    const limited = { ...env, RATE_PLAN_WRITES_PER_ACCOUNT_PER_HOUR: "4" };
    const a = await writerWithTimeline("Plotting Pia");
    const b = await writerWithTimeline("Patient Pol");
    await createEvent(a.token, a.timelineId, { title: "Opening" });
    const addPlotline = (w: typeof a, title: string) =>
      call("POST", `/api/timelines/${w.timelineId}/plotlines`, { token: w.token, body: { title }, env: limited });
    const first = await addPlotline(a, "Main plot");
    expect(first.status, first.text).toBe(201);
    expect(
      (await call("PATCH", `/api/plotlines/${first.json.id}`, { token: a.token, body: { title: "A plot" }, env: limited })).status,
    ).toBe(200);
    const structure = { templateId: "three-act" };
    expect((await call("PUT", `/api/timelines/${a.timelineId}/structure`, { token: a.token, body: structure, env: limited })).status).toBe(
      200,
    );
    const saved = await call("POST", "/api/templates", { token: a.token, body: { timelineId: a.timelineId, name: "Mine" }, env: limited });
    expect(saved.status, saved.text).toBe(201);
    const what = "changes to plotlines and templates";
    expectLimited(await addPlotline(a, "Subplot"), what);
    expectLimited(await call("DELETE", `/api/plotlines/${first.json.id}`, { token: a.token, env: limited }), what);
    expectLimited(await call("DELETE", `/api/templates/${saved.json.id}`, { token: a.token, env: limited }), what);
    // Nothing past the limit was written; reading goes on, and so does another writer.
    const listed = await call("GET", `/api/timelines/${a.timelineId}/plotlines`, { token: a.token, env: limited });
    expect(listed.json.map((p: { title: string }) => p.title)).toEqual(["A plot"]);
    expect((await addPlotline(b, "Hers")).status).toBe(201);
  });
});
