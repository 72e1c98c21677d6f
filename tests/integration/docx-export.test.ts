import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { ORIGIN, createEvent, createTimeline, registerUser } from "./helpers";
import { decodeXml } from "./xml-check";

// The Word export read as Word reads it: the styles, numbering and paragraphs of the package's XML.

let owner: Awaited<ReturnType<typeof registerUser>>;
beforeAll(async () => {
  owner = await registerUser({ name: "Wren" });
});

/** The export's parts, by name. */
async function exportDocx(timelineId: number) {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}/api/timelines/${timelineId}/export?format=docx`, {
    headers: { Authorization: `Bearer ${owner.token}` },
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const part = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  return { document: part("word/document.xml"), styles: part("word/styles.xml"), numbering: part("word/numbering.xml") };
}

type Para = { xml: string; text: string; style: string | null };
/** The body's paragraphs: their XML, visible text (line breaks as \n) and paragraph style. */
const paragraphs = (document: string): Para[] =>
  [...document.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map(([xml]) => ({
    xml,
    text: decodeXml([...xml.matchAll(/<w:br\/>|<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1] ?? "\n").join("")),
    style: /<w:pStyle w:val="([^"]+)"\/>/.exec(xml)?.[1] ?? null,
  }));

const find = (list: Para[], text: string) => {
  const found = list.find((p) => p.text === text);
  if (!found) throw new Error(`no paragraph "${text}" in ${JSON.stringify(list.map((p) => p.text))}`);
  return found;
};

/** What the co-writing editor stores: Markdown with the characters it escapes (`\*`, `\_`, `\[`, `&lt;`). */
const SCENE = [
  "She said “stay” and meant it. Literal \\*stars\\*, snake\\_case, \\[x] and &lt;tag> stay as typed.",
  "",
  "**Bold**, *italic*, ***bold and italic***, ~~struck~~ and `code`.",
  "",
  "## The harbor",
  "",
  "- a bullet",
  "  - a nested bullet",
  "- another bullet",
  "",
  "3. third",
  "4. fourth",
  "",
  "> A quoted line",
  "",
  "---",
  "",
  "First line  ",
  "second line",
  "",
  "### Deeper",
  "",
  "قال: «مرحبا بالعالم»!",
].join("\n");

describe("Word export", () => {
  let doc: Awaited<ReturnType<typeof exportDocx>>;
  let body: Para[];
  beforeAll(async () => {
    const tl = await createTimeline(owner.token, { title: "Salt and Iron", description: "A *plain* description" });
    await createEvent(owner.token, tl.id, { title: "Landfall", content: SCENE });
    await createEvent(owner.token, tl.id, { title: "الوداع", content: "وداعًا." });
    doc = await exportDocx(tl.id);
    body = paragraphs(doc.document);
  });

  it("headings are Word's Heading styles with outline levels: title, then events, then the headings inside them", () => {
    const outline = (id: string) =>
      new RegExp(`<w:style w:type="paragraph" w:styleId="${id}">(?:(?!</w:style>)[\\s\\S])*<w:outlineLvl w:val="(\\d)"/>`).exec(
        doc.styles,
      )?.[1];
    expect(outline("Title")).toBe("0");
    for (let level = 1; level <= 6; level++) expect(outline(`Heading${level}`)).toBe(String(level - 1));
    expect(find(body, "Salt and Iron").style).toBe("Title");
    expect(find(body, "Landfall").style).toBe("Heading1");
    // The event's own headings sit one level below it.
    expect(find(body, "The harbor").style).toBe("Heading2");
    expect(find(body, "Deeper").style).toBe("Heading3");
  });

  it("no Markdown syntax, escape or entity reaches the page; characters stay as typed", () => {
    const text = body.map((p) => p.text).join("\n");
    for (const mark of ["**", "\\*", "\\_", "\\[", "&lt;", "&amp;", "## ", "~~", "`", "> A"]) expect(text).not.toContain(mark);
    expect(find(body, "She said “stay” and meant it. Literal *stars*, snake_case, [x] and <tag> stay as typed.")).toBeTruthy();
    expect(find(body, "A *plain* description")).toBeTruthy();
  });

  it("bold, italic, bold italic, strike and code are run formatting", () => {
    const runs = find(body, "Bold, italic, bold and italic, struck and code.").xml;
    const props = (text: string) => new RegExp(`<w:r>(<w:rPr>(?:(?!</w:r>).)*?</w:rPr>)?<w:t[^>]*>${text}</w:t>`).exec(runs)?.[1] ?? "";
    expect(props("Bold")).toContain("<w:b/>");
    expect(props("Bold")).not.toContain("<w:i/>");
    expect(props("italic")).toContain("<w:i/>");
    expect(props("bold and italic")).toMatch(/<w:b\/>[\s\S]*<w:i\/>/);
    expect(props("struck")).toContain("<w:strike/>");
    expect(props("code")).toContain('w:ascii="Courier New"');
  });

  it("lists are numbered paragraphs that nest, and an ordered list starts where the text says", () => {
    const numPr = (text: string) => /<w:numPr><w:ilvl w:val="(\d)"\/><w:numId w:val="(\d+)"\/><\/w:numPr>/.exec(find(body, text).xml);
    const bullet = numPr("a bullet");
    const nested = numPr("a nested bullet");
    const third = numPr("third");
    expect(bullet?.[1]).toBe("0");
    expect(nested?.[1]).toBe("1");
    expect(numPr("another bullet")?.slice(1)).toEqual(bullet?.slice(1));
    expect(third?.[1]).toBe("0");
    expect(numPr("fourth")?.slice(1)).toEqual(third?.slice(1));
    // The bullets are bullets, the numbers are numbers from 3.
    const definition = (numId: string) => {
      const abstract = new RegExp(`<w:num w:numId="${numId}"><w:abstractNumId w:val="(\\d+)"/>`).exec(doc.numbering)?.[1];
      return new RegExp(`<w:abstractNum w:abstractNumId="${abstract}"[\\s\\S]*?</w:abstractNum>`).exec(doc.numbering)?.[0] ?? "";
    };
    expect(definition(bullet![2])).toMatch(/<w:lvl w:ilvl="0"[^>]*><w:start w:val="1"\/><w:numFmt w:val="bullet"\/>/);
    expect(definition(third![2])).toMatch(
      /<w:lvl w:ilvl="0"[^>]*><w:start w:val="3"\/><w:numFmt w:val="decimal"\/><w:lvlText w:val="%1."\/>/,
    );
  });

  it("a quote is in the Quote style, a scene break is a centred mark, a hard break is a line break", () => {
    expect(find(body, "A quoted line").style).toBe("Quote");
    expect(doc.styles).toMatch(/<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"\/>[\s\S]*?<w:ind w:left="720"/);
    const sceneBreak = find(body, "* * *");
    expect(sceneBreak.xml).toContain('<w:jc w:val="center"/>');
    expect(find(body, "First line\nsecond line").xml).toContain("<w:br/>");
  });

  it("right-to-left paragraphs are marked bidi with right-to-left runs, punctuation kept where it was typed", () => {
    const arabic = find(body, "قال: «مرحبا بالعالم»!");
    expect(arabic.xml).toMatch(/<w:pPr>[\s\S]*<w:bidi\/>[\s\S]*<\/w:pPr>/);
    expect(arabic.xml).toContain("<w:rtl/>");
    const heading = find(body, "الوداع");
    expect(heading.style).toBe("Heading1");
    expect(heading.xml).toContain("<w:bidi/>");
    expect(find(body, "Landfall").xml).not.toContain("<w:bidi/>");
    expect(find(body, "A quoted line").xml).not.toContain("<w:bidi/>");
  });
});

describe("a book with chapters", () => {
  let body: Para[];
  let document: string;
  beforeAll(async () => {
    const tl = await createTimeline(owner.token, { title: "Chaptered" });
    const chapter = async (title: string, position: number) =>
      (await env.DB.prepare("INSERT INTO chapters (timeline_id, title, position) VALUES (?, ?, ?) RETURNING id")
        .bind(tl.id, title, position)
        .first<{ id: number }>())!.id;
    const [one, two] = [await chapter("Chapter One", 0), await chapter("Chapter Two", 1)];
    const scene = async (title: string, content: string, chapterId: number | null) => {
      const event = await createEvent(owner.token, tl.id, { title, content });
      if (chapterId !== null) await env.DB.prepare("UPDATE events SET chapter_id = ? WHERE id = ?").bind(chapterId, event.id).run();
    };
    await scene("Arrival", "## Inside\n\nThe ships come in.", one);
    await scene("Night", "Dark.", one);
    await scene("Storm", "Rain.", two);
    ({ document } = await exportDocx(tl.id));
    body = paragraphs(document);
  });

  it("keeps its chapters: each a Heading 1 on a new page, its scenes Heading 2 and their own headings below", () => {
    expect(body.filter((p) => p.style === "Heading1").map((p) => p.text)).toEqual(["Chapter One", "Chapter Two"]);
    expect(body.filter((p) => p.style === "Heading2").map((p) => p.text)).toEqual(["Arrival", "Night", "Storm"]);
    expect(find(body, "Inside").style).toBe("Heading3");
    expect(find(body, "Chapter One").xml).not.toContain("<w:pageBreakBefore/>");
    expect(find(body, "Chapter Two").xml).toContain("<w:pageBreakBefore/>");
  });

  it("the title page gives the byline and counts chapters and scenes, not 'events exported from StoryWeave'", () => {
    const text = body.map((p) => p.text);
    expect(text.slice(0, 3)).toEqual(["Chaptered", "by Wren", "2 chapters · 3 scenes"]);
    expect(text.join("\n")).not.toContain("exported from StoryWeave");
  });
});
