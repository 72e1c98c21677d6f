import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith, fetchRaw } from "./helpers";
import { decodeXml, xmlProblem } from "./xml-check";

// The book exports: the manuscript .docx read in its XML (styles, page setup, header, title page, chapters),
// and the EPUB's zip, package and XHTML. epubcheck runs on real files in tests/e2e/manuscript-export.spec.ts;
// the manuscript was also opened in LibreOffice headless (docx → PDF → PNG) and looked at by hand.

let owner: Awaited<ReturnType<typeof registerUser>>;
let collaborator: Awaited<ReturnType<typeof registerUser>>;
let viewer: Awaited<ReturnType<typeof registerUser>>;
let stranger: Awaited<ReturnType<typeof registerUser>>;

async function download(path: string, token = owner.token) {
  const res = await fetchRaw(path, token);
  expect(res.status, await res.clone().text()).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const files = unzipSync(bytes);
  return { res, bytes, files, part: (name: string) => strFromU8(files[name] ?? new Uint8Array()) };
}

type Para = { xml: string; text: string; style: string | null };
const paragraphs = (document: string): Para[] =>
  [...document.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map(([xml]) => ({
    xml,
    text: decodeXml(
      [...xml.matchAll(/<w:tab\/>|<w:br\/>|<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
        .map((m) => m[1] ?? (m[0] === "<w:tab/>" ? "\t" : "\n"))
        .join(""),
    ),
    style: /<w:pStyle w:val="([^"]+)"\/>/.exec(xml)?.[1] ?? null,
  }));

const words = (n: number) => Array.from({ length: n }, () => "ink").join(" ");

async function addChapter(timelineId: number, title: string, position: number) {
  const row = await env.DB.prepare("INSERT INTO chapters (timeline_id, title, position) VALUES (?, ?, ?) RETURNING id")
    .bind(timelineId, title, position)
    .first<{ id: number }>();
  return row!.id;
}
const putInChapter = (eventId: number, chapterId: number) =>
  env.DB.prepare("UPDATE events SET chapter_id = ? WHERE id = ?").bind(chapterId, eventId).run();
/** The API asks for some text; a scene emptied later (or by co-writing) has none. */
const empty = (eventId: number) => env.DB.prepare("UPDATE events SET content = ' ' WHERE id = ?").bind(eventId).run();
const trash = (eventId: number) =>
  env.DB.prepare("UPDATE events SET deleted_at = ?, deleted_by = ? WHERE id = ?")
    .bind(new Date().toISOString(), owner.user.id, eventId)
    .run();

/** Three chapters: two scenes, one (its other scene is in Trash), and a long one; planning notes on the first scene. */
async function bookFixture() {
  const tl = await createTimeline(owner.token, { title: "The Long Night" });
  const shareCode = `code-${tl.id}-${Math.random().toString(36).slice(2, 8)}`;
  await env.DB.prepare("UPDATE timelines SET share_code = ?, share_role = 'viewer' WHERE id = ?").bind(shareCode, tl.id).run();
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  const tobiah = await call("POST", `/api/timelines/${tl.id}/entities`, {
    token: owner.token,
    body: { kind: "character", name: "Tobiah" },
  });
  const [one, two, three] = [await addChapter(tl.id, "One", 0), await addChapter(tl.id, "Two", 1), await addChapter(tl.id, "Three", 2)];
  const scene = async (chapter: number, body: Record<string, unknown>) => {
    const event = await createEvent(owner.token, tl.id, body);
    await putInChapter(event.id, chapter);
    return event.id as number;
  };
  await scene(one, {
    title: "Arrival",
    content: "**Bold** start and *italic* end.\n\nSecond paragraph.",
    entityIds: [tobiah.json.id],
    storyStart: "1203-04-01",
    storyLabel: "First light",
  });
  await scene(one, { title: "Night watch", content: "The watch began." });
  const gone = await scene(two, { title: "Cut scene", content: `GONE ${words(1000)}` });
  await trash(gone);
  await scene(two, { title: "Storm", content: "Rain hammered the roof." });
  await scene(three, { title: "Dawn", content: "Light came." });
  await scene(three, { title: "The long march", content: words(1600) });
  return { id: tl.id as number, shareCode };
}

beforeAll(async () => {
  owner = await registerUser({ name: "Mara Quill Okafor" });
  await makePremium(owner.user.id);
  [collaborator, viewer, stranger] = await Promise.all([registerUser(), registerUser(), registerUser()]);
});

describe("Manuscript (.docx)", () => {
  let book: { id: number; shareCode: string };
  let file: Awaited<ReturnType<typeof download>>;
  let body: Para[];
  let document: string;
  beforeAll(async () => {
    book = await bookFixture();
    file = await download(`/api/timelines/${book.id}/export?format=docx&style=manuscript`);
    document = file.part("word/document.xml");
    body = paragraphs(document);
  });

  it("is a .docx named after the title", () => {
    expect(file.res.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(file.res.headers.get("Content-Disposition")).toBe('attachment; filename="the-long-night-manuscript.docx"');
  });

  it("12 pt Times New Roman, double-spaced, half-inch first-line indents, 1-inch margins", () => {
    const defaults = /<w:docDefaults>[\s\S]*?<\/w:docDefaults>/.exec(file.part("word/styles.xml"))?.[0] ?? "";
    expect(defaults).toMatch(/<w:rFonts [^>]*w:ascii="Times New Roman"/);
    expect(defaults).toContain('<w:sz w:val="24"/>');
    expect(defaults).toMatch(/<w:spacing [^>]*w:line="480"[^>]*w:lineRule="auto"|<w:spacing [^>]*w:lineRule="auto"[^>]*w:line="480"/);
    expect(defaults).toMatch(/<w:ind [^>]*w:firstLine="720"/);
    const margins = [...document.matchAll(/<w:pgMar [^>]*\/>/g)].map(([m]) => m);
    expect(margins).toHaveLength(2);
    for (const margin of margins) for (const side of ["top", "right", "bottom", "left"]) expect(margin).toContain(`w:${side}="1440"`);
  });

  it("a header 'Surname / TITLE / page' on every page but the title page", () => {
    const sections = [...document.matchAll(/<w:sectPr[\s\S]*?<\/w:sectPr>/g)].map(([s]) => s);
    expect(sections).toHaveLength(2);
    expect(sections[0]).not.toContain("w:headerReference");
    const ref = /<w:headerReference w:type="default" r:id="([^"]+)"\/>/.exec(sections[1])?.[1];
    const target = new RegExp(`Id="${ref}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="${ref}"`).exec(
      file.part("word/_rels/document.xml.rels"),
    );
    const header = file.part(`word/${target?.[1] ?? target?.[2]}`);
    expect(paragraphs(header).map((p) => p.text)).toEqual(["Okafor / THE LONG NIGHT / "]);
    expect(header).toMatch(/<w:instrText[^>]*>\s*PAGE\s*<\/w:instrText>/);
    expect(sections[1]).toMatch(/<w:pgNumType w:start="1"\/>/);
  });

  it("the title page: name and rounded word count, email, title and byline; the trashed scene is not counted", () => {
    expect(body[0].text).toBe("Mara Quill Okafor\tabout 2,000 words");
    expect(body[1].text).toBe(owner.email);
    expect(body[2]).toMatchObject({ text: "The Long Night", style: "Title" });
    expect(body[3].text).toBe("by Mara Quill Okafor");
  });

  it("a chapter's first paragraph and the first after a scene break are flush left; the others keep the indent", () => {
    const flush = (text: string) => /<w:ind [^>]*w:firstLine="0"/.test(body.find((p) => p.text === text)?.xml ?? "");
    expect(flush("Bold start and italic end.")).toBe(true);
    expect(flush("Second paragraph.")).toBe(false);
    // 'The watch began.' follows the '#' between chapter one's scenes.
    expect(flush("The watch began.")).toBe(true);
    expect(flush("Rain hammered the roof.")).toBe(true);
    expect(flush("Light came.")).toBe(true);
  });

  it("with a byline set, the contact block keeps the writer's own name and the title page and header use the byline", async () => {
    const tl = await createTimeline(owner.token, { title: "Pen Names" });
    await createEvent(owner.token, tl.id, { title: "One", content: "Some words here." });
    const patched = await call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { byline: "M. Q. Okafor & J. Reyes" } });
    expect(patched.status).toBe(200);
    const pen = await download(`/api/timelines/${tl.id}/export?format=docx&style=manuscript`);
    const lines = paragraphs(pen.part("word/document.xml"));
    expect(lines[0].text).toBe("Mara Quill Okafor\tabout 100 words");
    expect(lines.map((p) => p.text)).toContain("by M. Q. Okafor & J. Reyes");
  });

  it("each chapter is a Heading 1 on a new page, scenes apart by a centred '#'", () => {
    const headings = body.filter((p) => p.style === "Heading1");
    expect(headings.map((p) => p.text)).toEqual(["One", "Two", "Three"]);
    // The first follows the title page's section break; the others break the page themselves.
    expect(document.indexOf(headings[0].xml)).toBeGreaterThan(document.indexOf("</w:sectPr>"));
    for (const later of headings.slice(1)) expect(later.xml).toContain("<w:pageBreakBefore/>");
    expect(/<w:style w:type="paragraph" w:styleId="Heading1">[\s\S]*?<\/w:style>/.exec(file.part("word/styles.xml"))?.[0]).toContain(
      '<w:outlineLvl w:val="0"/>',
    );
    const breaks = body.filter((p) => p.text === "#");
    // One between the two scenes of chapter one, one in chapter three; chapter two's other scene is in Trash.
    expect(breaks).toHaveLength(2);
    for (const mark of breaks) expect(mark.style).toBe("SceneBreak");
    expect(/<w:style w:type="paragraph" w:styleId="SceneBreak">[\s\S]*?<\/w:style>/.exec(file.part("word/styles.xml"))?.[0]).toContain(
      '<w:jc w:val="center"/>',
    );
    expect(body.map((p) => p.text)).toEqual([
      ...body.slice(0, 4).map((p) => p.text),
      "One",
      "Bold start and italic end.",
      "Second paragraph.",
      "#",
      "The watch began.",
      "Two",
      "Rain hammered the roof.",
      "Three",
      "Light came.",
      "#",
      words(1600),
    ]);
  });

  it("no planning notes: no scene titles, story dates, codex or export line; the trashed scene is gone", () => {
    const text = body.map((p) => p.text).join("\n");
    for (const note of [
      "Arrival",
      "Night watch",
      "Storm",
      "Dawn",
      "Cut scene",
      "Story time",
      "First light",
      "1203",
      "Tobiah",
      "exported",
      "GONE",
    ]) {
      expect(text).not.toContain(note);
    }
  });

  it("the scene's formatting is kept, in the manuscript's spacing (no space between paragraphs)", () => {
    const runs = body.find((p) => p.text === "Bold start and italic end.")!.xml;
    expect(runs).not.toContain("<w:spacing");
    expect(/<w:r><w:rPr>((?:(?!<\/w:r>).)*?)<\/w:rPr><w:t[^>]*>Bold<\/w:t>/.exec(runs)?.[1]).toContain("<w:b/>");
    expect(/<w:r><w:rPr>((?:(?!<\/w:r>).)*?)<\/w:rPr><w:t[^>]*>italic<\/w:t>/.exec(runs)?.[1]).toContain("<w:i/>");
  });

  it("without chapters: every scene after the title page as one run of text with '#' breaks", async () => {
    const tl = await createTimeline(owner.token, { title: "Short Things" });
    for (const [title, content] of [
      ["A", "First."],
      ["B", "Emptied later"],
      ["C", "Second."],
      ["D", "Third."],
    ]) {
      const event = await createEvent(owner.token, tl.id, { title, content });
      if (title === "B") await empty(event.id);
    }
    const { part } = await download(`/api/timelines/${tl.id}/export?format=docx&style=manuscript`);
    const texts = paragraphs(part("word/document.xml")).map((p) => p.text);
    expect(texts.slice(4)).toEqual(["First.", "#", "Second.", "#", "Third."]);
    expect(texts[0]).toBe("Mara Quill Okafor\tabout 100 words");
  });

  it("the same access as the other exports: readers and share links 200, strangers 404, signed out 401", async () => {
    const path = `/api/timelines/${book.id}/export?format=docx&style=manuscript`;
    const manuscript = (res: Response) => ({ status: res.status, filename: res.headers.get("Content-Disposition") });
    const ok = { status: 200, filename: 'attachment; filename="the-long-night-manuscript.docx"' };
    for (const token of [collaborator.token, viewer.token]) expect(manuscript(await fetchRaw(path, token))).toEqual(ok);
    expect(manuscript(await fetchRaw(`${path}&share=${book.shareCode}`, stranger.token))).toEqual(ok);
    const outsider = await fetchRaw(path, stranger.token);
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual({ error: "Timeline not found" });
    expect((await fetchRaw(path)).status).toBe(401);
  });

  it("a style or format it does not know is a 400 in the product's words", async () => {
    const bad = await call("GET", `/api/timelines/${book.id}/export?format=docx&style=novel`, { token: owner.token });
    expect(bad).toMatchObject({ status: 400, json: { error: "Style must be outline or manuscript" } });
    const format = await call("GET", `/api/timelines/${book.id}/export?format=rtf`, { token: owner.token });
    expect(format).toMatchObject({ status: 400, json: { error: "Format must be json, md, docx, epub, pdf or typst" } });
    const notes = await call("GET", `/api/timelines/${book.id}/export?format=docx&notes=no`, { token: owner.token });
    expect(notes).toMatchObject({ status: 400, json: { error: "Notes must be 0 or 1" } });
  });

  it("the outline .docx keeps its planning notes, and leaves them out with notes=0", async () => {
    const texts = async (query: string) =>
      paragraphs((await download(`/api/timelines/${book.id}/export?format=docx${query}`)).part("word/document.xml")).map((p) => p.text);
    for (const query of ["", "&style=outline"]) {
      const outline = await texts(query);
      expect(outline).toContain("Arrival");
      expect(outline.some((t) => t.startsWith("Story time: "))).toBe(true);
    }
    const lean = await texts("&notes=0");
    expect(lean).toContain("Arrival");
    expect(lean).toContain("Bold start and italic end.");
    expect(lean.some((t) => t.startsWith("Story time: ") || t.startsWith("Characters: "))).toBe(false);
  });
});

describe("EPUB", () => {
  const opfOf = (files: Record<string, Uint8Array>) => strFromU8(files["OEBPS/content.opf"]);

  it("a zip with the mimetype first and stored, the container, a package, navigation, a title page and one document per chapter", async () => {
    const book = await bookFixture();
    const { res, bytes, files, part } = await download(`/api/timelines/${book.id}/export?format=epub`);
    expect(res.headers.get("Content-Type")).toBe("application/epub+zip");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="the-long-night.epub"');
    // The first local file header: signature, compression method 0 (stored), then the name and the bytes.
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint16(8, true)).toBe(0);
    expect(view.getUint16(28, true)).toBe(0);
    expect(strFromU8(bytes.slice(30, 38))).toBe("mimetype");
    expect(strFromU8(bytes.slice(38, 58))).toBe("application/epub+zip");
    expect(Object.keys(files)[0]).toBe("mimetype");
    expect(part("META-INF/container.xml")).toContain(
      '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>',
    );

    const opf = opfOf(files);
    expect(opf).toContain("<dc:title>The Long Night</dc:title>");
    expect(opf).toContain("<dc:creator>Mara Quill Okafor</dc:creator>");
    expect(opf).toContain("<dc:language>en</dc:language>");
    expect(opf).toMatch(
      /<dc:identifier id="book-id">urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}<\/dc:identifier>/,
    );
    expect(opf).toMatch(/<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/meta>/);
    expect(opf).toContain('properties="nav"');
    expect([...opf.matchAll(/<itemref idref="([^"]+)"\/>/g)].map((m) => m[1])).toEqual(["title-page", "part-1", "part-2", "part-3"]);

    for (const [name, data] of Object.entries(files)) {
      if (/\.(xhtml|opf|xml)$/.test(name)) expect(xmlProblem(strFromU8(data)), name).toBeNull();
    }
    expect(part("OEBPS/nav.xhtml")).toMatch(/<nav epub:type="toc"[\s\S]*>One<\/a>[\s\S]*>Two<\/a>[\s\S]*>Three<\/a>/);
    const one = part("OEBPS/part-1.xhtml");
    expect(one).toContain('<h1 dir="auto">One</h1>');
    expect(one).toContain("<strong>Bold</strong> start and <em>italic</em> end.");
    expect(one).toContain('<p class="scene-break">⁂</p>');
    const everything = Object.values(files)
      .map((f) => strFromU8(f))
      .join("\n");
    for (const note of ["Arrival", "Night watch", "First light", "Tobiah", "GONE"]) expect(everything).not.toContain(note);
    expect(part("OEBPS/title.xhtml")).toContain("by Mara Quill Okafor");

    // The same book on every export: an e-reader replaces it rather than adding a second copy.
    const again = await download(`/api/timelines/${book.id}/export?format=epub`);
    expect(/urn:uuid:[^<]+/.exec(opfOf(again.files))?.[0]).toBe(/urn:uuid:[^<]+/.exec(opf)?.[0]);
  });

  it("a title with <&>\"', Arabic and Japanese text, an empty scene and stray control characters stay valid XHTML", async () => {
    const tl = await createTimeline(owner.token, { title: `Salt <&> "Tides" 'Deep'` });
    await empty((await createEvent(owner.token, tl.id, { title: "Empty", content: "Emptied later" })).id);
    const arabic = await createEvent(owner.token, tl.id, {
      title: "عربي",
      content: "قال: «مرحبا بالعالم»!\n\n---\n\nFirst line  \nsecond line",
    });
    await createEvent(owner.token, tl.id, { title: "日本", content: "吾輩は猫である。名前はまだ無い。" });
    await env.DB.prepare("UPDATE events SET content = content || ? WHERE id = ?").bind("\n\nbell\u0007 & <tag>", arabic.id).run();
    const { files, part } = await download(`/api/timelines/${tl.id}/export?format=epub`);
    for (const [name, data] of Object.entries(files)) {
      if (/\.(xhtml|opf|xml)$/.test(name)) expect(xmlProblem(strFromU8(data)), name).toBeNull();
    }
    expect(opfOf(files)).toContain("<dc:title>Salt &lt;&amp;&gt; &quot;Tides&quot; &apos;Deep&apos;</dc:title>");
    expect([...opfOf(files).matchAll(/<itemref idref="([^"]+)"\/>/g)]).toHaveLength(2);
    const text = part("OEBPS/part-1.xhtml");
    expect(text).toContain('<p dir="auto">قال: «مرحبا بالعالم»!</p>');
    expect(text).toContain("吾輩は猫である。");
    expect(text).toContain("First line<br/>second line");
    // The break typed in a scene and the one between scenes read alike.
    expect(text.match(/<p class="scene-break">⁂<\/p>/g)).toHaveLength(2);
    expect(text).toContain("bell &amp; &lt;tag&gt;");
    expect(part("OEBPS/nav.xhtml")).toContain(">Salt &lt;&amp;&gt; &quot;Tides&quot; &apos;Deep&apos;</a>");
  });

  it("the same access as the other exports", async () => {
    const book = await bookFixture();
    const path = `/api/timelines/${book.id}/export?format=epub`;
    for (const token of [collaborator.token, viewer.token]) expect((await fetchRaw(path, token)).status).toBe(200);
    expect((await fetchRaw(`${path}&share=${book.shareCode}`, stranger.token)).status).toBe(200);
    expect((await fetchRaw(path, stranger.token)).status).toBe(404);
    expect((await fetchRaw(path)).status).toBe(401);
  });
});
