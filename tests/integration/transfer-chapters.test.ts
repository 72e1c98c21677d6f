import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser } from "./helpers";

const importFile = (token: string, body: string, contentType: string, path = "/api/timelines/import") =>
  call("POST", path, { token, rawBody: body, headers: { "Content-Type": contentType } });

/** A timeline: a scene before any chapter, two chapters (one with a target), a scene after them in no chapter, an empty chapter. */
async function chapteredTimeline() {
  const owner = await registerUser({ name: "Olive Owner" });
  await makePremium(owner.user.id);
  const timeline = await createTimeline(owner.token, { title: "Chaptered", description: "With parts." });
  const t = owner.token;
  const ids: Record<string, number> = {};
  for (const title of ["Prologue", "Storm", "Harbour", "Ship", "Coda"]) {
    ids[title] = (await createEvent(t, timeline.id, { title, content: `${title} text.` })).id;
  }
  const one = await call("POST", `/api/timelines/${timeline.id}/chapters`, {
    token: t,
    body: { title: "One", targetWords: 5000, eventIds: [ids.Storm, ids.Harbour] },
  });
  await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: t, body: { title: "Two", eventIds: [ids.Ship] } });
  await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: t, body: { title: "Empty" } });
  // Coda after the chapters, in none.
  await call("PATCH", `/api/events/${ids.Coda}`, { token: t, body: { position: 4 } });
  expect(one.status).toBe(201);
  return { owner, timelineId: timeline.id as number };
}

const structure = async (token: string, timelineId: number) => {
  const events = (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json;
  const chapters = (await call("GET", `/api/timelines/${timelineId}/chapters`, { token })).json;
  const name = new Map(chapters.map((c: { id: number; title: string }) => [c.id, c.title]));
  return {
    chapters: chapters.map((c: { title: string; targetWords: number | null; position: number }) => [c.title, c.targetWords, c.position]),
    events: events.map((e: { title: string; chapterId: number | null; position: number }) => [
      e.title,
      e.chapterId && name.get(e.chapterId),
      e.position,
    ]),
  };
};

describe("export and import with chapters", () => {
  it("JSON carries the chapters and each event's chapter, and reads back the same", async () => {
    const { owner, timelineId } = await chapteredTimeline();
    const exported = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token: owner.token });
    expect(exported.json.chapters).toEqual([
      { title: "One", targetWords: 5000 },
      { title: "Two", targetWords: null },
      { title: "Empty", targetWords: null },
    ]);
    expect(exported.json.events.map((e: { chapter: number | null }) => e.chapter)).toEqual([null, 0, 0, 1, null]);
    const res = await importFile(owner.token, exported.text, "application/json");
    expect(res.status, res.text).toBe(201);
    expect(await structure(owner.token, res.json.id)).toEqual(await structure(owner.token, timelineId));
    expect((await call("GET", `/api/timelines/${res.json.id}/export?format=json`, { token: owner.token })).text).toBe(exported.text);

    // Appended to a timeline: its chapters after the timeline's own.
    const appended = await importFile(owner.token, exported.text, "application/json", `/api/timelines/${res.json.id}/import`);
    expect(appended.status, appended.text).toBe(200);
    const both = await structure(owner.token, res.json.id);
    expect(both.chapters.map((c: unknown[]) => c[0])).toEqual(["One", "Two", "Empty", "One", "Two", "Empty"]);
    expect(both.events.slice(5).map((e: unknown[]) => e[1])).toEqual([null, "One", "One", "Two", null]);
  });

  it("Markdown: # title, ## chapter, ### event only when the timeline has chapters; reads back the same", async () => {
    const { owner, timelineId } = await chapteredTimeline();
    const md = (await call("GET", `/api/timelines/${timelineId}/export?format=md`, { token: owner.token })).text;
    const headings = md.split("\n").filter((l: string) => l.startsWith("#"));
    expect(headings).toEqual([
      "# Chaptered",
      "### Prologue",
      "## One",
      "### Storm",
      "### Harbour",
      "## Two",
      "### Ship",
      "##",
      "### Coda",
      "## Empty",
    ]);
    const res = await importFile(owner.token, md, "text/markdown");
    expect(res.status, res.text).toBe(201);
    const back = await structure(owner.token, res.json.id);
    const original = await structure(owner.token, timelineId);
    expect(back.events).toEqual(original.events);
    // Targets travel too (`*Target: … words*` under the chapter's heading).
    expect(back.chapters).toEqual(original.chapters);
    expect((await call("GET", `/api/timelines/${res.json.id}/export?format=md`, { token: owner.token })).text).toBe(md);

    // A timeline without chapters exports as before chapters existed.
    const timeline = await createTimeline(owner.token, { title: "Plain" });
    await createEvent(owner.token, timeline.id, { title: "Only" });
    const json = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    expect(json.json).not.toHaveProperty("chapters");
    expect(json.json.events[0]).not.toHaveProperty("chapter");
    const plainMd = (await call("GET", `/api/timelines/${timeline.id}/export?format=md`, { token: owner.token })).text;
    expect(plainMd.split("\n").filter((l: string) => l.startsWith("#"))).toEqual(["# Plain", "## Only"]);
  });

  it("JSON carries the book's word target and reads it back; a bad target is refused", async () => {
    const owner = await registerUser({ name: "Tess Target" });
    await makePremium(owner.user.id);
    const timeline = await createTimeline(owner.token, { title: "Aimed" });
    await createEvent(owner.token, timeline.id, { title: "One" });
    expect((await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { targetWords: 80000 } })).status).toBe(200);
    const exported = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    expect(exported.json.timeline).toEqual({ title: "Aimed", description: null, targetWords: 80000 });
    const back = await importFile(owner.token, exported.text, "application/json");
    expect(back.status, back.text).toBe(201);
    expect(back.json.targetWords).toBe(80000);
    const bad = { ...exported.json, timeline: { ...exported.json.timeline, targetWords: 1.5 } };
    const refused = await importFile(owner.token, JSON.stringify(bad), "application/json");
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe("Timeline: target must be a whole number of words between 1 and 10,000,000");
  });

  it("refuses a file whose chapters are not in one story order, or name a missing chapter", async () => {
    const owner = await registerUser();
    const doc = (chapters: unknown[], events: unknown[]) =>
      JSON.stringify({ format: "storyweave-timeline", version: 1, timeline: { title: "Bad" }, entities: [], chapters, events });
    const ev = (chapter: unknown) => ({ title: "E", content: "c", chapter });
    const split = await importFile(owner.token, doc([{ title: "A" }], [ev(0), ev(null), ev(0)]), "application/json");
    expect(split).toMatchObject({
      status: 400,
      json: { error: "File: the events of a chapter must be together, and the chapters in their order" },
    });
    const missing = await importFile(owner.token, doc([{ title: "A" }], [ev(3)]), "application/json");
    expect(missing).toMatchObject({
      status: 400,
      json: { error: "Event 1: chapter must be the number of one of the file's chapters (counting from 0)" },
    });
    const untitled = await importFile(owner.token, doc([{ title: " " }], [ev(0)]), "application/json");
    expect(untitled).toMatchObject({ status: 400, json: { error: "Chapter 1: title is required" } });
  });
});
