import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, premiumOwnerWithTimeline, registerUser, shareWith } from "./helpers";

type Template = {
  id: string;
  name: string;
  description: string;
  builtIn: boolean;
  beats: { title: string; description: string; at: number }[];
};
import type { EventView as Ev } from "../../worker/services/event-list";
import type { StructureView as Structure } from "../../worker/services/templates";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const eventsOf = async (token: string, timelineId: number) =>
  (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as Ev[];
const beatAt = (structure: Structure, title: string) => structure.beats.find((b) => b.title === title)?.eventId;

describe("templates", () => {
  it("lists the built-in structures, well-formed", async () => {
    const writer = await registerUser();
    const res = await call("GET", "/api/templates", { token: writer.token });
    expect(res.status, res.text).toBe(200);
    const list = res.json as Template[];
    expect(list.map((t) => t.id)).toEqual(["three-act", "save-the-cat", "heros-journey", "seven-point", "romance"]);
    for (const t of list) {
      expect(t).toMatchObject({ builtIn: true, name: expect.any(String), description: expect.any(String) });
      const at = t.beats.map((b) => b.at);
      expect(at.every((a) => a >= 0 && a <= 1)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      expect(new Set(at).size).toBe(at.length);
      for (const b of t.beats) expect(b.description).not.toBe("");
    }
    const cat = list.find((t) => t.id === "save-the-cat")!;
    expect(cat.beats.map((b) => b.title)).toEqual([
      "Opening Image",
      "Theme Stated",
      "Set-Up",
      "Catalyst",
      "Debate",
      "Break into Two",
      "B Story",
      "Fun and Games",
      "Midpoint",
      "Bad Guys Close In",
      "All Is Lost",
      "Dark Night of the Soul",
      "Break into Three",
      "Finale",
      "Final Image",
    ]);
    expect(list.find((t) => t.id === "heros-journey")!.beats).toHaveLength(12);
    expect((await call("GET", "/api/templates")).status).toBe(401);
  });

  it("creates a timeline from a structure, one placeholder scene per beat, within the free plan's limit", async () => {
    const writer = await registerUser();
    const res = await call("POST", "/api/timelines", { token: writer.token, body: { title: "Cat Book", templateId: "save-the-cat" } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ title: "Cat Book", structureTemplateId: null, accessLevel: "owner" });
    const events = await eventsOf(writer.token, res.json.id);
    expect(events).toHaveLength(15);
    expect(events.map((e) => e.position)).toEqual(events.map((_, i) => i));
    expect(events[0]).toMatchObject({ title: "Opening Image", content: "", synopsis: expect.stringContaining("snapshot") });
    expect(events[8].title).toBe("Midpoint");
    expect(events[14].title).toBe("Final Image");

    const unknown = await call("POST", "/api/timelines", { token: writer.token, body: { title: "X", templateId: "snowflake" } });
    expect(unknown).toMatchObject({ status: 404, json: { error: "Template not found" } });
    const bad = await call("POST", "/api/timelines", { token: writer.token, body: { title: "X", templateId: 7 } });
    expect(bad).toMatchObject({ status: 400, json: { error: "Template must be a template id or null" } });

    // Free plan: three timelines, the fourth is refused with nothing written.
    await createTimeline(writer.token, { title: "Two" });
    expect(
      (await call("POST", "/api/timelines", { token: writer.token, body: { title: "Three", templateId: "heros-journey" } })).status,
    ).toBe(201);
    const over = await call("POST", "/api/timelines", { token: writer.token, body: { title: "Four", templateId: "three-act" } });
    expect(over.status).toBe(403);
    expect(over.json.error).toMatch(/^Free plan is limited to 3 timelines/);
    const mine = (await call("GET", "/api/timelines", { token: writer.token })).json as { title: string }[];
    expect(mine.map((t) => t.title).sort()).toEqual(["Cat Book", "Three", "Two"]);
  });

  it("overlays a structure by scene count, then by words", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Overlay");
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await createEvent(owner.token, timelineId, { title: `S${i}`, content: "…" })).id); // no words yet
    const path = `/api/timelines/${timelineId}/structure`;
    expect((await call("GET", path, { token: owner.token })).json).toEqual({ templateId: null, basis: "scenes", beats: [] });

    const set = await call("PUT", path, { token: owner.token, body: { templateId: "save-the-cat" } });
    expect(set.status, set.text).toBe(200);
    let structure = set.json as Structure;
    expect(structure).toMatchObject({ templateId: "save-the-cat", basis: "scenes" });
    expect(structure.beats).toHaveLength(15);
    expect(structure.beats[8]).toMatchObject({ title: "Midpoint", at: 0.5, description: expect.any(String), eventId: ids[5] });
    expect(beatAt(structure, "Opening Image")).toBe(ids[0]);
    expect(beatAt(structure, "Final Image")).toBe(ids[9]);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: owner.token })).json.structureTemplateId).toBe("save-the-cat");

    // Words: the first scene holds 800 of 1,000 words, so the midpoint falls inside it.
    await call("PATCH", `/api/events/${ids[0]}`, { token: owner.token, body: { content: words(800) } });
    for (const id of ids.slice(1, 5)) await call("PATCH", `/api/events/${id}`, { token: owner.token, body: { content: words(50) } });
    structure = (await call("GET", path, { token: owner.token })).json;
    expect(structure.basis).toBe("words");
    expect(beatAt(structure, "Midpoint")).toBe(ids[0]);
    expect(beatAt(structure, "Break into Three")).toBe(ids[1]);
    // The last beat falls on the last scene with words, not on the empty ones after it.
    expect(beatAt(structure, "Final Image")).toBe(ids[4]);

    const cleared = await call("PUT", path, { token: owner.token, body: { templateId: null } });
    expect(cleared.json).toMatchObject({ templateId: null, beats: [] });
    expect((await call("PUT", path, { token: owner.token, body: { templateId: "nope" } })).json).toEqual({ error: "Template not found" });
    expect((await call("PUT", path, { token: owner.token, body: {} })).json).toEqual({ error: "Template must be a template id or null" });
  });

  it("lets editors set the structure and readers see it; a viewer cannot set it", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Roles");
    await createEvent(owner.token, timelineId, { title: "Only scene" });
    const collab = await registerUser();
    const viewer = await registerUser();
    const outsider = await registerUser();
    await shareWith(timelineId, owner.user.id, collab.user.id, "collaborator");
    await shareWith(timelineId, owner.user.id, viewer.user.id, "viewer");
    const path = `/api/timelines/${timelineId}/structure`;
    expect((await call("PUT", path, { token: collab.token, body: { templateId: "seven-point" } })).status).toBe(200);
    expect(await call("PUT", path, { token: viewer.token, body: { templateId: "three-act" } })).toMatchObject({
      status: 403,
      json: { error: "You have view-only access to this timeline" },
    });
    const seen = await call("GET", path, { token: viewer.token });
    expect(seen.json).toMatchObject({ templateId: "seven-point", basis: "words" });
    expect(await call("GET", path, { token: outsider.token })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    expect(await call("PUT", path, { token: outsider.token, body: { templateId: null } })).toMatchObject({ status: 404 });
  });

  it("saves a timeline as the writer's own template, private to them, and deletes it", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("My Shape");
    const chapter = (await call("POST", `/api/timelines/${timelineId}/chapters`, { token: owner.token, body: { title: "Act One" } })).json;
    await createEvent(owner.token, timelineId, { title: "Arrival", chapterId: chapter.id });
    await createEvent(owner.token, timelineId, { title: "Storm", chapterId: chapter.id });
    await createEvent(owner.token, timelineId, { title: "Coda" });
    const saved = await call("POST", "/api/templates", { token: owner.token, body: { timelineId, name: "  Harbor shape " } });
    expect(saved.status, saved.text).toBe(201);
    const own = saved.json as Template;
    expect(own).toMatchObject({ name: "Harbor shape", builtIn: false, id: expect.stringMatching(/^u-\d+$/) });
    expect(own.beats.map((b) => [b.title, b.at])).toEqual([
      ["Arrival", 0],
      ["Storm", 0.5],
      ["Coda", 1],
    ]);
    const list = (await call("GET", "/api/templates", { token: owner.token })).json as Template[];
    expect(list.filter((t) => !t.builtIn).map((t) => t.id)).toEqual([own.id]);

    // A new book from it: the chapters and the scene titles, nothing else.
    const book = await call("POST", "/api/timelines", { token: owner.token, body: { title: "Book Two", templateId: own.id } });
    expect(book.status, book.text).toBe(201);
    const scenes = await eventsOf(owner.token, book.json.id);
    expect(scenes.map((e) => [e.title, e.content])).toEqual([
      ["Arrival", ""],
      ["Storm", ""],
      ["Coda", ""],
    ]);
    const chapters = (await call("GET", `/api/timelines/${book.json.id}/chapters`, { token: owner.token })).json;
    expect(chapters.map((c: { title: string }) => c.title)).toEqual(["Act One"]);
    expect(scenes.map((e) => e.chapterId)).toEqual([chapters[0].id, chapters[0].id, null]);

    // Private: another writer neither lists, uses, overlays nor deletes it.
    const other = await registerUser();
    const theirs = await createTimeline(other.token, { title: "Theirs" });
    expect(((await call("GET", "/api/templates", { token: other.token })).json as Template[]).some((t) => t.id === own.id)).toBe(false);
    expect((await call("POST", "/api/timelines", { token: other.token, body: { title: "Copy", templateId: own.id } })).status).toBe(404);
    expect((await call("PUT", `/api/timelines/${theirs.id}/structure`, { token: other.token, body: { templateId: own.id } })).status).toBe(
      404,
    );
    expect(await call("DELETE", `/api/templates/${own.id}`, { token: other.token })).toMatchObject({
      status: 404,
      json: { error: "Template not found" },
    });
    // Nor saves one from a timeline it cannot read.
    expect((await call("POST", "/api/templates", { token: other.token, body: { timelineId, name: "Stolen" } })).status).toBe(404);
    expect((await call("POST", "/api/templates", { token: owner.token, body: { timelineId, name: " " } })).json).toEqual({
      error: "Template name is required",
    });

    // Overlaid, then deleted: the overlay goes with it.
    expect((await call("PUT", `/api/timelines/${timelineId}/structure`, { token: owner.token, body: { templateId: own.id } })).status).toBe(
      200,
    );
    expect(await call("DELETE", `/api/templates/save-the-cat`, { token: owner.token })).toMatchObject({ status: 400 });
    expect(await call("DELETE", `/api/templates/${own.id}`, { token: owner.token })).toMatchObject({
      status: 200,
      json: { success: true },
    });
    expect(((await call("GET", "/api/templates", { token: owner.token })).json as Template[]).every((t) => t.builtIn)).toBe(true);
    expect((await call("GET", `/api/timelines/${timelineId}/structure`, { token: owner.token })).json.templateId).toBeNull();
  });
});
