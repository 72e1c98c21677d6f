import { beforeAll, describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import novelOdt from "../fixtures/import/novel.odt?inline";
import { call, bytesOf, type User, premiumWriter, importBook } from "./helpers";

// An .odt made by LibreOffice from the same source as novel.docx (tests/fixtures/import/make-fixtures.sh).
const ODT = "application/vnd.oasis.opendocument.text";

let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Odette");
});

const importFile = (body: Uint8Array, query = "") => importBook(owner.token, body, ODT, query);

describe("OpenDocument .odt import", () => {
  it("reads headings, scene breaks, emphasis and tracked changes as the Word import does", async () => {
    const res = await importFile(bytesOf(novelOdt), "?filename=novel.odt");
    expect(res.status, res.text).toBe(201);
    const doc = (await call("GET", `/api/timelines/${res.json.id}/export?format=json`, { token: owner.token })).json;
    expect(doc.timeline.title).toBe("The Lighthouse Keeper");
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["The Storm", "The Visitor"]);
    expect(doc.events.map((e: { content: string }) => e.content)).toEqual([
      "Mara climbed the **ninety-nine** steps as the wind rose. The lamp was *already* burning.\n\nShe counted the ships in the bay.",
      "At dawn the sea was calm and grey.",
      "A boat came in at noon, carrying a man with a *leather* case.",
      "He asked for the keeper by name.",
    ]);
  });

  it("keeps annotations as comments on their scenes, naming their author and the words they cover", async () => {
    const res = await importFile(bytesOf(novelOdt), "?filename=novel.odt");
    expect(res.status, res.text).toBe(201);
    const events = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const bodies = [];
    for (const event of events)
      bodies.push(
        (await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).json.map((c: { body: string }) => c.body),
      );
    expect(bodies).toEqual([
      ["OpenDocument comment by Editor:\nHow many ships?"],
      [],
      ["OpenDocument comment by Jane Doe on “carrying a man”:\nWho is he?\nGive him a name here."],
      [],
    ]);
  });

  it("a reply (LibreOffice's loext:parent-name) joins its comment's thread; loext:resolved marks it resolved", async () => {
    // LibreOffice 7.4 (the one making the fixtures) neither writes nor keeps the parent name, so the file is built here.
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"';
    const note = (attrs: string, who: string, text: string) =>
      `<office:annotation ${attrs}><dc:creator>${who}</dc:creator><text:p>${text}</text:p></office:annotation>`;
    const content =
      `<?xml version="1.0"?><office:document-content ${ns}><office:body><office:text>` +
      `<text:h text:outline-level="1">Harbour</text:h>` +
      `<text:p>The ferry left ${note('office:name="c1" loext:resolved="true"', "Editor", "Which ferry?")}at dawn<office:annotation-end office:name="c1"/>.</text:p>` +
      `<text:p>She waited${note('office:name="c2" loext:parent-name="c1"', "Jane Doe", "The morning one.")}.</text:p>` +
      `</office:text></office:body></office:document-content>`;
    const res = await importFile(zipSync({ mimetype: strToU8(ODT), "content.xml": strToU8(content) }), "?filename=threads.odt");
    expect(res.status, res.text).toBe(201);
    const [event] = (await call("GET", `/api/timelines/${res.json.id}/events`, { token: owner.token })).json;
    const comments = (await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).json;
    expect(comments).toEqual([
      expect.objectContaining({ threadId: null, body: "OpenDocument comment by Editor on “at dawn”:\nWhich ferry?", resolved: true }),
      expect.objectContaining({ threadId: comments[0].id, body: "OpenDocument reply by Jane Doe:\nThe morning one." }),
    ]);
  });

  it("a dry run names the front matter as skipped", async () => {
    const res = await importFile(bytesOf(novelOdt), "?dryRun=1");
    expect(res.status, res.text).toBe(200);
    expect(res.json.summary).toMatchObject({
      chapters: 2,
      scenes: 4,
      skipped: ["1 paragraph before the first chapter (front matter)"],
    });
  });

  it("refuses an external entity in content.xml, a truncated file and a PNG, writing nothing", async () => {
    const before = await call("GET", "/api/timelines", { token: owner.token });
    const xxe = zipSync({
      "content.xml": strToU8(
        `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><office:document-content><office:body><office:text><text:h text:outline-level="1">&e;</text:h></office:text></office:body></office:document-content>`,
      ),
    });
    for (const body of [xxe, bytesOf(novelOdt).slice(0, 5000), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])]) {
      const res = await importFile(body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toMatch(/^This OpenDocument text could not be read: /);
      expect(res.text).not.toContain("root:");
    }
    expect((await call("GET", "/api/timelines", { token: owner.token })).json).toEqual(before.json);
  });
});
