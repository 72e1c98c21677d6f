import { beforeAll, describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import chapterLinesDocx from "../fixtures/import/chapter-lines.docx?inline";
import commentThreadDocx from "../fixtures/import/comment-thread.docx?inline";
import novelDocx from "../fixtures/import/novel.docx?inline";
import resolvedCommentDocx from "../fixtures/import/resolved-comment.docx?inline";
import { anchoredText } from "./doc-helpers";
import { call, bytesOf, type User, premiumWriter, importBook, exportedJson } from "./helpers";

// Word documents made by LibreOffice (tests/fixtures/import/make-fixtures.sh) and hostile files built here.
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Wordsmith");
});

const importFile = (token: string, body: Uint8Array, contentType = DOCX, query = "") => importBook(token, body, contentType, query);

const exported = (id: number) => exportedJson(owner.token, id);

describe("Word .docx import", () => {
  it("makes chapters of Heading 1, scenes at breaks, keeps emphasis, reads tracked changes as accepted", async () => {
    const res = await importFile(owner.token, bytesOf(novelDocx), DOCX, "?filename=novel.docx");
    expect(res.status, res.text).toBe(201);
    const doc = await exported(res.json.id);
    expect(doc.timeline.title).toBe("The Lighthouse Keeper");
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["The Storm", "The Visitor"]);
    expect(doc.events.map((e: { chapter: number }) => e.chapter)).toEqual([0, 0, 1, 1]);
    const [first, second, third, fourth] = doc.events;
    expect(first.content).toBe(
      "Mara climbed the **ninety-nine** steps as the wind rose. The lamp was *already* burning.\n\nShe counted the ships in the bay.",
    );
    expect(second.content).toBe("At dawn the sea was calm and grey.");
    expect(third.content).toBe("A boat came in at noon, carrying a man with a *leather* case.");
    expect(fourth.content).toBe("He asked for the keeper by name.");
    // Front matter (the dedication) and the Title paragraph are not scenes.
    expect(JSON.stringify(doc.events)).not.toContain("sister");
    expect(first.title).toContain("The Storm");
  });

  it("keeps Word's comments as comments on their scenes, by the importer, naming their author and the words", async () => {
    const res = await importFile(owner.token, bytesOf(novelDocx), DOCX, "?filename=novel.docx");
    expect(res.status, res.text).toBe(201);
    const events = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const commentsOf = async (i: number) => (await call("GET", `/api/events/${events[i].id}/comments`, { token: owner.token })).json;
    // The Editor's comment sits at the end of the first scene; Jane Doe's covers "carrying a man" in the third.
    expect(await commentsOf(0)).toEqual([
      expect.objectContaining({
        authorId: owner.user.id,
        authorName: "Wordsmith",
        body: "Word comment by Editor:\nHow many ships?",
        threadId: null,
      }),
    ]);
    expect(await commentsOf(1)).toEqual([]);
    expect(await commentsOf(2)).toEqual([
      expect.objectContaining({
        authorId: owner.user.id,
        body: "Word comment by Jane Doe on “carrying a man”:\nWho is he?\nGive him a name here.",
      }),
    ]);
    expect(await commentsOf(3)).toEqual([]);
  });

  it("an imported comment is anchored at once on its words in the scene's shared doc, as the editor anchors one", async () => {
    const res = await importFile(owner.token, bytesOf(novelDocx), DOCX, "?filename=novel.docx");
    expect(res.status, res.text).toBe(201);
    const events = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const [ranged] = (await call("GET", `/api/events/${events[2].id}/comments`, { token: owner.token })).json;
    expect(ranged.anchor).toEqual({ from: expect.any(String), to: expect.any(String), quote: "carrying a man" });
    // A comment at a point (no words) stays on the whole scene.
    const [point] = (await call("GET", `/api/events/${events[0].id}/comments`, { token: owner.token })).json;
    expect(point.anchor).toBeNull();
    // The anchor read back as the editor reads it (comment-anchors.ts rangeOfAnchor): the doc the Durable Object keeps,
    // through y-tiptap's mapping to the ProseMirror text.
    const read = await anchoredText(events[2].id, ranged.anchor);
    expect(read).not.toBeNull();
    expect(read?.words).toBe("carrying a man");
    // Starting the doc wrote nothing to the scene: its version and text are the import's.
    const after = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    expect([after[2].version, after[2].content]).toEqual([events[2].version, events[2].content]);
  });

  it("a comment with a reply (Word 365, commentsExtended.xml) is one thread: the comment, then its reply", async () => {
    const res = await importFile(owner.token, bytesOf(commentThreadDocx), DOCX, "?filename=comment-thread.docx");
    expect(res.status, res.text).toBe(201);
    const [event] = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const comments = (await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).json;
    expect(comments).toEqual([
      expect.objectContaining({ threadId: null, body: "Word comment by Author on “dolor sit amet”:\nA comment.", resolved: false }),
      expect.objectContaining({ threadId: comments[0].id, body: "Word reply by Author:\nA reply comment.", anchor: null }),
    ]);
  });

  it("a comment Word marked done (w15:done) is imported resolved", async () => {
    const res = await importFile(owner.token, bytesOf(resolvedCommentDocx), DOCX, "?filename=resolved-comment.docx");
    expect(res.status, res.text).toBe(201);
    const [event] = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const comments = (await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).json;
    expect(comments).toEqual([expect.objectContaining({ threadId: null, resolved: true })]);
  });

  it("threads keep their replies in order, a reply to a reply joins its thread, and each thread stays on its scene", async () => {
    const w14 = 'xmlns:w="w" xmlns:w14="w14" xmlns:w15="w15"';
    const anchored = (id: string, text: string) =>
      `<w:commentRangeStart w:id="${id}"/><w:r><w:t>${text}</w:t></w:r><w:commentRangeEnd w:id="${id}"/>`;
    const body =
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>One</w:t></w:r></w:p>` +
      `<w:p>${anchored("1", "First")}<w:commentRangeStart w:id="2"/><w:commentRangeStart w:id="3"/><w:r><w:t> scene.</w:t></w:r></w:p>` +
      `<w:p><w:r><w:t>* * *</w:t></w:r></w:p><w:p>${anchored("4", "Second")}<w:r><w:t> scene.</w:t></w:r></w:p>`;
    const comment = (id: string, author: string, paraId: string, text: string) =>
      `<w:comment w:id="${id}" w:author="${author}"><w:p w14:paraId="${paraId}"><w:r><w:t>${text}</w:t></w:r></w:p></w:comment>`;
    const file = zipSync({
      "word/document.xml": strToU8(`<?xml version="1.0"?><w:document ${w14}><w:body>${body}</w:body></w:document>`),
      "word/comments.xml": strToU8(
        `<?xml version="1.0"?><w:comments ${w14}>${comment("1", "Ann", "0000000A", "Why?")}${comment("2", "Bo", "0000000B", "Because.")}` +
          `${comment("3", "Ann", "0000000C", "Fair.")}${comment("4", "Cy", "0000000D", "Good.")}</w:comments>`,
      ),
      "word/commentsExtended.xml": strToU8(
        `<?xml version="1.0"?><w15:commentsEx ${w14}><w15:commentEx w15:paraId="0000000A" w15:done="0"/>` +
          `<w15:commentEx w15:paraId="0000000B" w15:paraIdParent="0000000A"/><w15:commentEx w15:paraId="0000000C" w15:paraIdParent="0000000b"/>` +
          `<w15:commentEx w15:paraId="0000000D" w15:paraIdParent="000000FF"/></w15:commentsEx>`,
      ),
    });
    expect((await importFile(owner.token, file, DOCX, "?dryRun=1")).json.summary.skipped).toEqual([]);
    const res = await importFile(owner.token, file);
    expect(res.status, res.text).toBe(201);
    const events = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const first = (await call("GET", `/api/events/${events[0].id}/comments`, { token: owner.token })).json;
    expect(first.map((c: { body: string; threadId: number | null }) => [c.body, c.threadId])).toEqual([
      ["Word comment by Ann on “First”:\nWhy?", null],
      ["Word reply by Bo:\nBecause.", first[0].id],
      ["Word reply by Ann:\nFair.", first[0].id],
    ]);
    // A parent that is not in the file: the comment stands as its own thread.
    const second = (await call("GET", `/api/events/${events[1].id}/comments`, { token: owner.token })).json;
    expect(second.map((c: { body: string; threadId: number | null }) => [c.body, c.threadId])).toEqual([
      ["Word comment by Cy on “Second”:\nGood.", null],
    ]);
  });

  it("a comment outside any scene goes on the next scene; one on no text is named as skipped", async () => {
    const body =
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:commentRangeStart w:id="7"/><w:r><w:t>One</w:t></w:r><w:commentRangeEnd w:id="7"/></w:p>` +
      `<w:p><w:r><w:t>First.</w:t></w:r></w:p><w:p><w:r><w:t>* * *</w:t></w:r></w:p><w:p><w:r><w:t>Second.</w:t></w:r></w:p>`;
    const comments = `<?xml version="1.0"?><w:comments xmlns:w="w"><w:comment w:id="7" w:author="Ann"><w:p><w:r><w:t>Better title?</w:t></w:r></w:p></w:comment><w:comment w:id="8" w:author="Bo"><w:p><w:r><w:t>Lost</w:t></w:r></w:p></w:comment></w:comments>`;
    const file = zipSync({
      "word/document.xml": strToU8(`<?xml version="1.0"?><w:document xmlns:w="w"><w:body>${body}</w:body></w:document>`),
      "word/comments.xml": strToU8(comments),
    });
    const dry = await importFile(owner.token, file, DOCX, "?dryRun=1");
    expect(dry.json.summary.skipped).toEqual(["1 comment not anchored in the text"]);
    const res = await importFile(owner.token, file);
    expect(res.status, res.text).toBe(201);
    const events = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const first = (await call("GET", `/api/events/${events[0].id}/comments`, { token: owner.token })).json;
    expect(first.map((c: { body: string }) => c.body)).toEqual(["Word comment by Ann on “One”:\nBetter title?"]);
    expect((await call("GET", `/api/events/${events[1].id}/comments`, { token: owner.token })).json).toEqual([]);
  });

  it("without heading styles, chapter lines start chapters and front matter is left out", async () => {
    const res = await importFile(owner.token, bytesOf(chapterLinesDocx), DOCX, "?filename=road-songs.docx");
    expect(res.status, res.text).toBe(201);
    const doc = await exported(res.json.id);
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["Prologue", "CHAPTER ONE", "Chapter 2: The Mill"]);
    expect(doc.events.map((e: { chapter: number }) => e.chapter)).toEqual([0, 1, 1, 2]);
    expect(doc.events[0].content).toBe("The road began at the river, and **nobody** knew where it ended.");
    expect(doc.events[1].content).toBe("Tom packed a bag with *bread* and ***rope***.");
    expect(JSON.stringify(doc)).not.toContain("Copyright");
  });

  it("a dry run answers the summary and writes nothing", async () => {
    const before = await call("GET", "/api/timelines", { token: owner.token });
    const res = await importFile(owner.token, bytesOf(novelDocx), DOCX, "?dryRun=1");
    expect(res.status, res.text).toBe(200);
    expect(res.json.summary).toEqual({
      title: "The Lighthouse Keeper",
      chapters: 2,
      scenes: 4,
      words: expect.any(Number),
      codex: 0,
      plotlines: 0,
      skipped: ["1 paragraph before the first chapter (front matter)"],
    });
    expect(res.json.summary.words).toBeGreaterThan(40);
    const after = await call("GET", "/api/timelines", { token: owner.token });
    expect(after.json).toEqual(before.json);
  });

  it("?title= overrides the document's title; the file name is the title when the document has none", async () => {
    const titled = await importFile(owner.token, bytesOf(novelDocx), DOCX, "?title=Mine");
    expect(titled.status).toBe(201);
    expect((await exported(titled.json.id)).timeline.title).toBe("Mine");
    const body = `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>One</w:t></w:r></w:p><w:p><w:r><w:t>Text.</w:t></w:r></w:p>`;
    const res = await importFile(owner.token, wordFile(body), DOCX, "?filename=My_Draft.docx");
    expect(res.status, res.text).toBe(201);
    const doc = await exported(res.json.id);
    expect(doc.timeline.title).toBe("My Draft");
    expect(doc.chapters).toEqual([{ title: "One", targetWords: null }]);
  });

  it("a story without chapters is one chapter named as the book", async () => {
    const body = `<w:p><w:r><w:t>Once upon a time.</w:t></w:r></w:p><w:p><w:r><w:t>* * *</w:t></w:r></w:p><w:p><w:r><w:t>The end.</w:t></w:r></w:p>`;
    const res = await importFile(owner.token, wordFile(body), DOCX, "?filename=short.docx");
    expect(res.status, res.text).toBe(201);
    const doc = await exported(res.json.id);
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["short"]);
    expect(doc.events.map((e: { content: string }) => e.content)).toEqual(["Once upon a time.", "The end."]);
  });
});

/** A minimal .docx around a body (and extra parts). */
function wordFile(body: string, documentXml?: string) {
  const xml =
    documentXml ??
    `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  return zipSync({ "word/document.xml": strToU8(xml) });
}

/** Sets one central-directory field of every entry (a lie about sizes), keeping the data. */
function patchDirectory(zip: Uint8Array, field: number, value: number) {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  for (let at = 0; at < copy.length - 4; at++) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + field, value, true);
  return copy;
}

describe("hostile Word files: 400/413 with a message, nothing written", () => {
  let writer: User;
  beforeAll(async () => {
    writer = await premiumWriter("Target");
  });

  const PASSWD = "root:x:0:0";
  const cases: [string, () => Uint8Array, RegExp][] = [
    ["a PNG sent as .docx", () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(200)]), /not a zip/],
    ["a truncated .docx", () => bytesOf(novelDocx).slice(0, 3000), /cut short|damaged/],
    [
      "an external entity",
      () =>
        wordFile(
          "",
          `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&e;</w:t></w:r></w:p></w:body></w:document>`,
        ),
      /DOCTYPE/,
    ],
    [
      "a billion laughs",
      () =>
        wordFile(
          "",
          `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>`,
        ),
      /DOCTYPE/,
    ],
    ["an undeclared entity", () => wordFile(`<w:p><w:r><w:t>&e;</w:t></w:r></w:p>`), /entity/],
    [
      "a document.xml declared as 1 GiB",
      () => patchDirectory(wordFile(`<w:p><w:r><w:t>Chapter 1</w:t></w:r></w:p>`), 24, 1024 * 1024 * 1024),
      /zip bomb/,
    ],
    [
      "a document.xml that unpacks past its declared size",
      () => {
        const zip = zipSync({ "word/document.xml": new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
        return patchDirectory(zip, 24, 1000);
      },
      /zip bomb/,
    ],
    [
      "many directory entries over one stream",
      () => {
        const files: Record<string, Uint8Array> = {};
        for (let i = 0; i < 600; i++) files[`word/part${i}.xml`] = new Uint8Array(0);
        return patchDirectory(zipSync(files), 24, 2 * 1024 * 1024);
      },
      /zip bomb/,
    ],
    [
      "100,000 entries",
      () => {
        const files: Record<string, Uint8Array> = {};
        for (let i = 0; i < 100_000; i++) files[`f${i}`] = new Uint8Array(0);
        return zipSync(files, { level: 0 });
      },
      /too many entries|damaged/,
    ],
  ];

  for (const [name, make, message] of cases) {
    it(`refuses ${name}`, async () => {
      const before = await call("GET", "/api/timelines", { token: writer.token });
      const started = Date.now();
      const res = await importFile(writer.token, make());
      expect(Date.now() - started).toBeLessThan(10_000);
      expect([400, 413], res.text).toContain(res.status);
      expect(res.json.error).toMatch(/^This Word document could not be read: /);
      expect(res.json.error).toMatch(message);
      expect(res.text).not.toContain(PASSWD);
      expect(res.text).not.toContain("lollollol");
      const after = await call("GET", "/api/timelines", { token: writer.token });
      expect(after.json).toEqual(before.json);
    });
  }

  it("refuses a 25 MB body with 413 and keeps answering", async () => {
    const res = await importFile(writer.token, new Uint8Array(25 * 1024 * 1024));
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/too large/);
    const ok = await importFile(writer.token, bytesOf(novelDocx), DOCX, "?dryRun=1");
    expect(ok.status).toBe(200);
  });

  it("keeps 1 MB for today's formats", async () => {
    const res = await importFile(writer.token, strToU8(`# T\n\n${"x".repeat(1_100_000)}`), "text/markdown");
    expect(res.status).toBe(413);
  });
});
