import { beforeAll, describe, expect, it, vi } from "vitest";
import example14 from "../fixtures/import/example-1.4.pltr?raw";
import zelda from "../fixtures/import/zelda.pltr?raw";
import { call, registerUser, type User, premiumWriter, importBook, exportedJson } from "./helpers";

// Real Plottr files from Plottr's own repository (tests/fixtures/import/README.md): a 2021 file of six books with
// beat trees and 'auto' beat titles, and a 1.4 file with the oldest `scenes` and a line coloured `darkorchid`.
let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Plotter");
});

const importJson = (token: string, text: string, query = "") => importBook(token, text, "application/json", query);

const exported = (id: number) => exportedJson(owner.token, id);

describe("Plottr .pltr import", () => {
  it("makes each book a timeline of a new series, in book order; beats are chapters, never 'auto'", async () => {
    const res = await importJson(owner.token, zelda, "?filename=Zelda.pltr");
    expect(res.status, res.text).toBe(201);
    const titles = res.json.timelines.map((t: { title: string }) => t.title);
    expect(titles).toEqual([
      "The Legend of Zelda",
      "A Link to the Past",
      "Ocarina of Time",
      "Majora's Mask",
      "The Wind Waker",
      "Breath of the Wild",
    ]);
    expect(res.json.id).toBe(res.json.timelines[0].id);
    expect(res.json.series.title).toBe("The Legend of Zelda");
    expect(res.json.series.timelines.map((b: { id: number }) => b.id)).toEqual(res.json.timelines.map((t: { id: number }) => t.id));
    const botw = await exported(res.json.timelines[5].id);
    expect(botw.chapters.map((c: { title: string }) => c.title)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `Scene ${n}`));
    expect(JSON.stringify(botw)).not.toMatch(/"auto"/);
    expect(botw.plotlines).toEqual([
      { title: "Main Plot", color: "#6cace4" },
      { title: "Memories", color: "#78be20" },
    ]);
    expect(botw.events.length).toBe(13);
    expect(botw.events.every((e: { plotlines?: number[] }) => e.plotlines?.length === 1)).toBe(true);
    const first = await exported(res.json.timelines[0].id);
    expect(first.events[0]).toMatchObject({
      title: "Intro- awake in a field and go in a cave",
      content: "The old man hands Link a wooden sword",
      chapter: 0,
    });
    expect(first.entities.map((e: { name: string; kind: string; description: string }) => [e.name, e.kind, e.description])).toEqual(
      expect.arrayContaining([
        ["Link", "character", "Protagonist"],
        ["Hyrule Castle", "place", ""],
      ]),
    );
  });

  it("reads a 1.4 file: its scenes are chapters, a CSS colour name becomes hex, a card's characters are links", async () => {
    const res = await importJson(owner.token, example14);
    expect(res.status, res.text).toBe(201);
    const doc = await exported(res.json.id);
    expect(doc.timeline.title).toBe("Zorfert in Rivalia");
    expect(doc.chapters[0].title).toBe("8 years Ago");
    expect(doc.plotlines.find((p: { title: string }) => p.title === "Bimph").color).toBe("#9932cc");
    const cool = doc.events.find((e: { title: string }) => e.title === "Cool thing happens");
    expect(cool.entities).toEqual(["main character"]);
    expect(doc.chapters[cool.chapter].title).toBe("6 Years Ago");
    expect(doc.events.length).toBe(50);
  });

  it("a dry run of several books sums them and writes nothing", async () => {
    const before = await call("GET", "/api/timelines", { token: owner.token });
    const res = await importJson(owner.token, zelda, "?dryRun=1");
    expect(res.status, res.text).toBe(200);
    expect(res.json.summary).toMatchObject({ chapters: 4 + 3 + 1 + 1 + 1 + 9, codex: 6 + 5 + 5 + 6 });
    expect(res.json.summary.skipped).toContain("1 note");
    const after = await call("GET", "/api/timelines", { token: owner.token });
    expect(after.json).toEqual(before.json);
  });

  it("a free writer with too few timelines left gets 403 and no book is written", async () => {
    const free = await registerUser({ name: "Free" });
    const res = await importJson(free.token, zelda);
    expect(res.status).toBe(403);
    const list = await call("GET", "/api/timelines", { token: free.token });
    expect(list.json.length ?? list.json.timelines?.length).toBe(0);
  });

  it("StoryWeave's own JSON still imports, and a broken Plottr file is a 400", async () => {
    const ok = await importJson(
      owner.token,
      JSON.stringify({ format: "storyweave-timeline", version: 1, timeline: { title: "Own" }, entities: [], events: [] }),
    );
    expect(ok.status, ok.text).toBe(201);
    const bad = await importJson(owner.token, JSON.stringify({ file: {}, books: {}, beats: {}, cards: [], lines: [] }));
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^This Plottr file could not be read: /);
  });

  it("a reader error no check foresaw is a 400 naming the file, logged by its kind and message without the file's text", async () => {
    // A card's rich text nested deeper than any reader walks: it overflows the stack while being read.
    const depth = 60_000;
    const nested = `${'{"children":['.repeat(depth)}{"text":"SECRET-CONTENT"}${"]}".repeat(depth)}`;
    const file = `{"file":{"version":"2021.6.9"},"books":{"allIds":[1],"1":{"id":1,"title":"Deep"}},"chapters":[{"id":1,"title":"One","position":0}],"lines":[],"cards":[{"id":1,"chapterId":1,"title":"Card","description":[${nested}]}]}`;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await importJson(owner.token, file);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toBe("This Plottr file could not be read: it is damaged or not what its type says");
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^\[import\] This Plottr file: unforeseen reader error: RangeError: /));
      expect(JSON.stringify(errors.mock.calls)).not.toContain("SECRET-CONTENT");
    } finally {
      errors.mockRestore();
    }
  });
});
