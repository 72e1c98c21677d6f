import { beforeAll, describe, expect, it } from "vitest";
import { strFromU8, unzipSync } from "fflate";
import commentThreadDocx from "../fixtures/import/comment-thread.docx?inline";
import novelOdt from "../fixtures/import/novel.odt?inline";
import resolvedCommentDocx from "../fixtures/import/resolved-comment.docx?inline";
import novelWriterZip from "../fixtures/import/novelwriter-sample.zip?inline";
import yw7 from "../fixtures/import/yw7-sample-project.yw7?raw";
import { countWords } from "../../db/domain/word-count";
import { call, bytesOf, type User, importBook, premiumWriter } from "./helpers";

// Words kept: what an import makes of a real file counts within 3% of the words the program that wrote the file
// counted itself (the counts it stores in the file, read as noted beside each).
const within3 = (words: number, source: number) => expect(Math.abs(words - source) / source).toBeLessThanOrEqual(0.03);

let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Counter");
});

async function dryRun(body: Uint8Array | string, contentType: string) {
  const res = await call("POST", "/api/timelines/import?dryRun=1", {
    token: owner.token,
    rawBody: typeof body === "string" ? body : new Uint8Array(body),
    headers: { "Content-Type": contentType },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.summary as { words: number; scenes: number; skipped: string[] };
}

describe("an import keeps the source's words (within 3% of its own count)", () => {
  it("yWriter 7: the sum of the <WordCount> yWriter stored for each scene the import takes (1,254)", async () => {
    within3((await dryRun(yw7, "application/xml")).words, 1254);
  });

  it("novelWriter: the wordCount it stored for the chapter and scene documents of the novel roots (5,177)", async () => {
    const res = await importBook(owner.token, bytesOf(novelWriterZip), "application/zip");
    expect(res.status, res.text).toBe(201);
    // Of the 5,509 words novelWriter counts in the novel roots' active documents, 332 are in documents outside any
    // chapter (two title pages, the introduction, a part page: front matter, named in the summary's skipped). It
    // counts headings' words too: here they are the books', chapters' and scenes' titles.
    let words = 0;
    for (const { id } of res.json.timelines as { id: number }[]) {
      const doc = (await call("GET", `/api/timelines/${id}/export?format=json`, { token: owner.token })).json;
      words += countWords(doc.timeline.title);
      for (const c of doc.chapters ?? []) words += countWords(c.title);
      for (const e of doc.events) words += countWords(e.content) + countWords(e.title);
    }
    within3(words, 5177);
    const dry = await dryRun(bytesOf(novelWriterZip), "application/zip");
    expect(dry.skipped).toEqual(expect.arrayContaining([expect.stringMatching(/paragraphs? outside any chapter \(front matter\)$/)]));
  });
});

// Word and ODT: the import's words within 1% of the count the program stored in the file when it saved it (Word's
// docProps/app.xml <Words>, ODT's meta.xml meta:document-statistic/@meta:word-count). LibreOffice's .docx export
// stores no <Words> (novel.docx, chapter-lines.docx): those files carry no count to compare with.
const within1 = (words: number, source: number) => expect(Math.abs(words - source) / source).toBeLessThanOrEqual(0.01);
const partOf = (dataUrl: string, path: string) => strFromU8(unzipSync(bytesOf(dataUrl), { filter: (f) => f.name === path })[path]);

describe("a Word or ODT import keeps the source's words (within 1% of its own count)", () => {
  for (const [name, file] of [
    ["comment-thread.docx", commentThreadDocx],
    ["resolved-comment.docx", resolvedCommentDocx],
  ] as const) {
    it(`Word 365 (${name}): the scene's words against docProps/app.xml <Words>`, async () => {
      const stored = Number(/<Words>(\d+)<\/Words>/.exec(partOf(file, "docProps/app.xml"))?.[1]);
      expect(stored).toBe(35);
      // No heading and no chapter line: the whole text is one scene (the chapter is named after the book).
      const summary = await dryRun(bytesOf(file), "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
      expect(summary.scenes).toBe(1);
      within1(summary.words, stored);
    });
  }

  it("ODT by LibreOffice 7.4 (novel.odt): the timeline's title, chapter titles and scenes against meta:word-count", async () => {
    const stored = Number(/meta:word-count="(\d+)"/.exec(partOf(novelOdt, "meta.xml"))?.[1]);
    expect(stored).toBe(67);
    const res = await importBook(owner.token, bytesOf(novelOdt), "application/vnd.oasis.opendocument.text");
    expect(res.status, res.text).toBe(201);
    const doc = (await call("GET", `/api/timelines/${res.json.id}/export?format=json`, { token: owner.token })).json;
    let words = countWords(doc.timeline.title);
    for (const c of doc.chapters) words += countWords(c.title);
    for (const e of doc.events) words += countWords(e.content);
    // What the file holds that is not the manuscript, by the rules of IMPORT.md: the dedication before the first
    // chapter (front matter, 7 words, named in the summary's skipped) and the scene breaks, whose marks LibreOffice
    // counts as words ("* * *" is 3 and "⁂" 1: checked with LibreOffice 7.4 on a paragraph holding only each).
    const frontMatter = countWords("For my sister, who kept the light.");
    const breakMarks = 3 + 1;
    within1(words + frontMatter + breakMarks, stored);
  });
});
