import { beforeAll, describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import sampleZip from "../fixtures/import/novelwriter-sample.zip?inline";
import { call, bytesOf, type User, premiumWriter, importBook, exportedJson } from "./helpers";

// novelWriter's own sample project, zipped as a writer would (tests/fixtures/import/README.md).
let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Veronica");
});

const importZip = (body: Uint8Array, query = "") => importBook(owner.token, body, "application/zip", query);
const exported = (id: number) => exportedJson(owner.token, id);

describe("novelWriter project import", () => {
  it("makes each NOVEL root a book of a series: ## chapters, ### scenes, @pov and links from the codex notes", async () => {
    const res = await importZip(bytesOf(sampleZip), "?filename=Sample Project.zip");
    expect(res.status, res.text).toBe(201);
    expect(res.json.timelines.map((t: { title: string }) => t.title)).toEqual(["My Novel", "Alice’s Adventures in Wonderland"]);
    const novel = await exported(res.json.timelines[0].id);
    expect(novel.chapters.map((c: { title: string }) => c.title)).toEqual(["Basic Formatting", "Interlude", "So it Begins"]);
    const scene = novel.events.find((e: { title: string }) => e.title === "Making a Scene");
    expect(scene).toMatchObject({ chapter: 0, pov: "Jane Smith" });
    expect(scene.entities).toEqual(expect.arrayContaining(["Jane Smith", "John Smith", "Earth"]));
    expect(scene.content).toContain("like **bold**, _italic_ and **_bold italic_**");
    expect(scene.content).not.toMatch(/^[%@]/m);
    // Text under a chapter heading before its first scene is the chapter's first scene.
    expect(novel.events.find((e: { title: string }) => e.title === "So it Begins").content).toMatch(/^A chapter can contain leading text/);
    expect(novel.entities.find((e: { name: string }) => e.name === "Mars")).toMatchObject({
      kind: "place",
      description: "It’s red. Dusty and red.",
    });
  });

  it("a file of several books with ?seriesId= is a 400 saying so, and nothing is written", async () => {
    const book = (await call("POST", "/api/timelines", { token: owner.token, body: { title: "Solo" } })).json;
    const series = await call("POST", "/api/series", { token: owner.token, body: { title: "Saga", timelineIds: [book.id] } });
    expect(series.status, series.text).toBe(201);
    const before = await call("GET", "/api/timelines", { token: owner.token });
    for (const query of [`?seriesId=${series.json.id}`, `?seriesId=${series.json.id}&dryRun=1`]) {
      const res = await importZip(bytesOf(sampleZip), query);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toMatch(/^This file holds several books, which become a series of their own/);
    }
    expect((await call("GET", "/api/timelines", { token: owner.token })).json).toEqual(before.json);
  });

  it("a zip holding no known project is a 400 naming it, and nothing is written", async () => {
    const before = await call("GET", "/api/timelines", { token: owner.token });
    const res = await importZip(zipSync({ "notes.txt": strToU8("hello") }));
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^This project archive could not be read: it holds neither a Scrivener project/);
    expect(res.json.error).toMatch(/zip the \.scriv folder, or the folder holding nwProject\.nwx/);
    const word = await importZip(zipSync({ "word/document.xml": strToU8("<w:document/>") }));
    expect(word.json.error).toBe("This project archive could not be read: it is a Word document: import it as a .docx file");
    const truncated = await importZip(bytesOf(sampleZip).slice(0, 10_000));
    expect(truncated.status).toBe(400);
    expect((await call("GET", "/api/timelines", { token: owner.token })).json).toEqual(before.json);
  });
});
