import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fontFiles } from "../../app/features/transfer/print/font-files";
import { typesetPdf } from "../../app/features/transfer/print/typeset";
import { apiAs, createUser, expect, signIn, makePremium, openTimeline, test } from "./fixtures";

// The print-ready PDF checked as a printer would, with poppler (scripts/ensure-poppler.sh installs it; without it
// these tests skip and say so): the page size of the trim, every font embedded, the mirrored margins page by page
// and where the chapters start. The book's source comes from the API; the same engine as the print dialog
// typesets it here, in Node.

const hasPoppler = spawnSync("pdfinfo", ["-v"], { stdio: "ignore" }).error === undefined;
const require = createRequire(import.meta.url);
const read = (pkgPath: string) => readFile(require.resolve(pkgPath)).then((b) => new Uint8Array(b));
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20 }).stdout;

/** Typesets the book's source in EB Garamond, as the print dialog does. */
const typesetInGaramond = async (source: string) =>
  typesetPdf(source, {
    wasm: await read("@myriaddreamin/typst-ts-web-compiler/wasm"),
    fonts: await Promise.all(fontFiles["eb-garamond"].map(read)),
  });

/** Writes the PDF to a file in a new temporary folder, runs `check` on that file, and removes the folder after. */
async function withPdfFile(pdf: Uint8Array, check: (file: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), "print-pdf-"));
  try {
    const file = join(dir, "book.pdf");
    await writeFile(file, pdf);
    await check(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type Word = { page: number; xMin: number; xMax: number; yMin: number; yMax: number; text: string };
function words(bbox: string): Word[] {
  const out: Word[] = [];
  let page = 0;
  for (const line of bbox.split("\n")) {
    if (line.includes("<page ")) page++;
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/.exec(line);
    if (m) out.push({ page, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: m[5] });
  }
  return out;
}

/** A page's words in lines (same top, within a point), top to bottom. */
function lines(all: Word[]): Word[][] {
  const out: Word[][] = [];
  for (const word of [...all].sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin)) {
    const line = out.find((l) => Math.abs(l[0].yMin - word.yMin) < 1);
    if (line) line.push(word);
    else out.push([word]);
  }
  return out.map((line) => line.sort((a, b) => a.xMin - b.xMin));
}

test.describe("Print-ready PDF", () => {
  test.skip(!hasPoppler, "poppler (pdfinfo, pdffonts, pdftotext) is not installed: run scripts/ensure-poppler.sh");

  test("6 × 9 with front matter: trim size, embedded fonts, mirrored margins, chapters on right-hand pages, every word", async ({
    request,
  }) => {
    test.setTimeout(120_000);
    const owner = await createUser(request, { name: "Wren Printer" });
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Low Water" });
    const sentence = "The tide went out across the flats and the boats leaned over on their keels in the grey mud of evening.";
    const chapters = ["Ebb", "Slack", "Flood"];
    const expected: string[] = [];
    for (const [i, title] of chapters.entries()) {
      const chapter = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/chapters`, { title });
      for (let s = 0; s < 2; s++) {
        const content = Array.from({ length: 12 }, (_, p) => `${sentence} Marker${i}x${s}x${p}.`).join("\n\n");
        expected.push(...Array.from({ length: 12 }, (_, p) => `Marker${i}x${s}x${p}`));
        await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
          title: `${title} ${s}`,
          content,
          chapterId: chapter.id,
        });
      }
    }
    const res = await request.get(
      `/api/timelines/${timeline.id}/export?format=typst&trim=6x9&font=eb-garamond&size=11&front=title,copyright,toc`,
      {
        headers: { Authorization: `Bearer ${owner.token}` },
      },
    );
    expect(res.status(), await res.text()).toBe(200);
    const pdf = await typesetInGaramond(await res.text());

    await withPdfFile(pdf, async (file) => {
      const info = run("pdfinfo", [file]);
      expect(info).toMatch(/Page size:\s+432 x 648 pts/);
      const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
      const fonts = run("pdffonts", [file]).split("\n").slice(2).filter(Boolean);
      expect(fonts.length).toBeGreaterThan(0);
      for (const font of fonts) expect(font, "every font embedded").toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);

      const all = words(run("pdftotext", ["-bbox", file, "-"]));
      // Every word in order: each paragraph's marker appears once, in story order.
      const markers = all.filter((w) => w.text.startsWith("Marker")).map((w) => w.text.replace(/\.$/, ""));
      expect(markers).toEqual(expected);
      // Chapters open on right-hand (odd) pages with no running head above their title.
      for (const title of chapters) {
        const heading = all.find((w) => w.page > 3 && w.text === title && w.yMin > 100);
        expect(heading, `chapter ${title}`).toBeDefined();
        expect(heading!.page % 2, `${title} on an odd page`).toBe(1);
        expect(all.filter((w) => w.page === heading!.page && w.yMin < 72)).toEqual([]);
      }
      // Mirrored margins: body text keeps 0.875 in (63 pt) on the inside and 0.625 in (45 pt) outside, a
      // right-hand page's inside being its left. Pages with body text only (not the title page).
      for (let p = 4; p <= pages; p++) {
        const body = all.filter((w) => w.page === p && w.yMin > 60 && w.yMin < 600);
        if (body.length === 0) continue;
        const left = Math.min(...body.map((w) => w.xMin));
        const right = 432 - Math.max(...body.map((w) => w.xMax));
        const [inside, outside] = p % 2 === 1 ? [left, right] : [right, left];
        expect(inside, `page ${p} inside`).toBeGreaterThanOrEqual(62.5);
        expect(outside, `page ${p} outside`).toBeGreaterThanOrEqual(44.5);
        expect(Math.abs(left + right - (63 + 45)), `page ${p}: justified to the text block`).toBeLessThan(2);
      }
      // Running heads: the author on left-hand pages, the title on right-hand ones (other than chapter openings).
      const heads = all.filter((w) => w.yMin < 72 && w.page > 4);
      expect(heads.some((w) => w.page % 2 === 0 && w.text.toUpperCase() === "WREN")).toBe(true);
      // Every page of text but a chapter's opening carries its head, a chapter's last page too.
      const openings = new Set(chapters.map((title) => all.find((w) => w.page > 3 && w.text === title && w.yMin > 100)!.page));
      for (let p = 5; p <= pages; p++) {
        if (openings.has(p) || !all.some((w) => w.page === p && w.yMin > 60 && w.yMin < 600)) continue;
        expect(
          heads.filter((w) => w.page === p).map((w) => w.text.toUpperCase()),
          `page ${p}'s running head`,
        ).toContain(p % 2 === 0 ? "WREN" : "LOW");
      }
      // A left-hand page left empty so the next chapter opens on the right carries nothing: no head, no number.
      const chapterPages = chapters.map((title) => all.find((w) => w.page > 3 && w.text === title && w.yMin > 100)!.page);
      let blanks = 0;
      for (const opening of chapterPages) {
        const before = opening - 1;
        const body = all.filter((w) => w.page === before && w.yMin > 60 && w.yMin < 600);
        if (body.length > 0) continue;
        blanks++;
        expect(
          all.filter((w) => w.page === before),
          `blank page ${before}`,
        ).toEqual([]);
      }
      expect(blanks, "the fixture's chapters leave at least one blank verso").toBeGreaterThan(0);
    });
  });

  test("the chapter's first letter is a drop cap sunk three lines deep, its paragraph's first lines set beside it", async ({ request }) => {
    test.setTimeout(120_000);
    const owner = await createUser(request, { name: "Wren Initial" });
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Deep Water" });
    const chapter = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/chapters`, { title: "Sounding" });
    const sentence = "The tide went out across the flats and the boats leaned over on their keels in the grey mud of evening.";
    const opening = `Gulls wheeled over the *quay*. ${sentence} ${sentence} ${sentence} ${sentence} Lastword.`;
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
      title: "One",
      content: `${opening}\n\n${sentence}`,
      chapterId: chapter.id,
    });
    const res = await request.get(`/api/timelines/${timeline.id}/export?format=typst&trim=6x9&font=eb-garamond&size=11&front=title`, {
      headers: { Authorization: `Bearer ${owner.token}` },
    });
    expect(res.status()).toBe(200);
    const pdf = await typesetInGaramond(await res.text());
    await withPdfFile(pdf, async (file) => {
      const all = words(run("pdftotext", ["-bbox", file, "-"]));
      const heading = all.find((w) => w.text === "Sounding");
      expect(heading, "the chapter title").toBeDefined();
      // A right-hand page: the inside margin, 0.875 in (63 pt), is on the left; the outside one 45 pt.
      expect(heading!.page % 2).toBe(1);
      const body = all.filter((w) => w.page === heading!.page && w.yMin > heading!.yMax && w.yMin < 600);
      // The initial: the tallest word of the page's text, on its own.
      const cap = body.reduce((a, b) => (b.yMax - b.yMin > a.yMax - a.yMin ? b : a));
      expect(cap.text, "the initial letter, on its own").toBe("G");
      expect(cap.xMin, "the letter at the margin").toBeCloseTo(63, 0);
      // The paragraph's lines, the letter set apart: three start right of it, the rest at the margin.
      const text = lines(body.filter((w) => w !== cap));
      expect(text[0][0].text).toBe("ulls");
      const lineHeight = text[2][0].yMin - text[1][0].yMin;
      expect(cap.yMax - cap.yMin, "the letter spans about three lines").toBeGreaterThan(2.5 * lineHeight);
      expect(cap.yMin, "its top by the first line's").toBeLessThan(text[0][0].yMin);
      const beside = text.filter((line) => Math.min(...line.map((w) => w.xMin)) > cap.xMax);
      expect(beside, "the first three lines beside the letter").toEqual(text.slice(0, 3));
      const paragraphEnd = text.findIndex((line) => line.some((w) => w.text === "Lastword."));
      expect(paragraphEnd, "the opening paragraph runs below the letter").toBeGreaterThan(3);
      for (const line of text.slice(3, paragraphEnd + 1)) expect(line[0].xMin, `"${line[0].text}…" at the margin`).toBeCloseTo(63, 0);
      // Justified beside the letter and below it: full lines end at the outside margin (432 − 45 = 387 pt).
      for (const line of text.slice(0, paragraphEnd)) expect(Math.abs(Math.max(...line.map((w) => w.xMax)) - 387)).toBeLessThan(2.5);
      // The next paragraph is indented as usual (1.2 em at 11 pt).
      expect(text[paragraphEnd + 1][0].text).toBe("The");
      expect(text[paragraphEnd + 1][0].xMin - 63).toBeCloseTo(13.2, 0);
      // Every word there, in order.
      const flat = run("pdftotext", [file, "-"]).replace(/[\s\u00ad]+/g, "");
      expect(flat).toContain(`Gullswheeledoverthequay.${sentence.replace(/\s+/g, "")}`);
    });
  });

  test("Arabic, Hebrew and Chinese scenes: their faces embedded, their words there, right-to-left paragraphs set from the right", async ({
    request,
  }) => {
    test.setTimeout(120_000);
    const owner = await createUser(request, { name: "Wren Scripts" });
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Many Tongues" });
    const chapter = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/chapters`, { title: "Voices" });
    const english = Array.from({ length: 6 }, () => "The harbour was quiet and the boats rocked gently in the evening tide.").join(" ");
    const scenes = [
      `${english}\n\n${english}`,
      // A short Arabic paragraph: one line, which a right-to-left paragraph sets against the right margin.
      "قال البحار: «البحر هادئ الليلة».\n\nשלום לכולם בנמל.",
      "海港很安静，船在晚潮中轻轻摇晃。",
    ];
    for (const [i, content] of scenes.entries())
      await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: `Scene ${i}`, content, chapterId: chapter.id });
    const res = await request.get(`/api/timelines/${timeline.id}/export?format=typst&trim=6x9&font=eb-garamond&front=title`, {
      headers: { Authorization: `Bearer ${owner.token}` },
    });
    expect(res.status()).toBe(200);
    const source = await res.text();
    const { scriptsOf } = await import("../../db/domain/print-options");
    const { scriptFontFiles } = await import("../../app/features/transfer/print/font-files");
    expect(scriptsOf(source)).toEqual(["arabic", "hebrew", "cjk"]);
    const wasm = await read("@myriaddreamin/typst-ts-web-compiler/wasm");
    const fonts = await Promise.all([...fontFiles["eb-garamond"], ...scriptsOf(source).map((s) => scriptFontFiles[s])].map(read));
    const pdf = await typesetPdf(source, { wasm, fonts });
    await withPdfFile(pdf, async (file) => {
      const fontList = run("pdffonts", [file]);
      for (const face of ["NotoNaskhArabic", "NotoSerifHebrew", "NotoSerifSC", "EBGaramond"]) expect(fontList).toContain(face);
      for (const line of fontList.split("\n").slice(2).filter(Boolean))
        expect(line, "every font embedded").toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
      // pdftotext gives Arabic's joined letters back loosely, Hebrew and Chinese as written.
      const text = run("pdftotext", [file, "-"]);
      expect(text).toMatch(/\p{Script=Arabic}{3}/u);
      for (const word of ["שלום", "海港很安静"]) expect(text).toContain(word);
      // The one-line Hebrew paragraph is set from the right margin (its start), ragged on the left; -bbox lists its
      // words in visual order, letters reversed.
      const all = words(run("pdftotext", ["-bbox", file, "-"]));
      const shalom = all.find((w) => w.text === [..."שלום"].reverse().join(""));
      expect(shalom, "the Hebrew line").toBeDefined();
      const line = all.filter((x) => x.page === shalom!.page && Math.abs(x.yMin - shalom!.yMin) < 2);
      const [leftMargin, rightMargin] = shalom!.page % 2 === 1 ? [63, 45] : [45, 63];
      // Its first-line indent (1.2 em, 13.2 pt at 11 pt) is on the right, where the line starts.
      const fromRight = 432 - rightMargin - Math.max(...line.map((x) => x.xMax));
      expect(fromRight, "set from the right").toBeGreaterThan(11);
      expect(fromRight, "set from the right").toBeLessThan(15);
      expect(Math.min(...line.map((x) => x.xMin)) - leftMargin, "a short line, ragged on the left").toBeGreaterThan(40);
    });
  });

  test("the dialog previews a spread typeset with its options: a chapter opening facing a page of text; 5 × 8 pages are narrower than 6 × 9", async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const owner = await createUser(request, { name: "Ines Spread" });
    await makePremium(request, owner);
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Facing Pages" });
    const sentence = "The tide went out across the flats and the boats leaned over on their keels in the grey mud of evening.";
    for (const [i, title] of ["Ebbing", "Turning", "Flooding", "Standing"].entries()) {
      const chapter = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/chapters`, { title });
      // Chapters of different lengths, so one of them ends on a left-hand page.
      const content = Array.from({ length: 6 + i * 5 }, () => `${sentence} ${sentence}`).join("\n\n");
      await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
        title: `${title} scene`,
        content,
        chapterId: chapter.id,
      });
    }
    await signIn(page, owner);
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Export" }).click();
    await page.getByRole("menuitem", { name: "Print-ready PDF…" }).click();
    const dialog = page.getByRole("dialog", { name: "Print-ready PDF" });
    const preview = dialog.getByRole("figure", { name: "Spread preview" });
    const pages = preview.getByRole("img");
    await expect(pages).toHaveCount(2, { timeout: 90_000 });
    await expect(preview).toHaveAttribute("aria-busy", "false");
    await expect(pages.nth(0)).toHaveAccessibleName("Left-hand page");
    await expect(pages.nth(1)).toHaveAccessibleName("Right-hand page");
    // Both pictures load: the page's SVG is well-formed, drawn at the trim's size in points (6 × 9 in: 432 × 648).
    await expect
      .poll(() =>
        pages.evaluateAll((imgs) =>
          imgs.map((img) => `${(img as HTMLImageElement).naturalWidth}x${(img as HTMLImageElement).naturalHeight}`),
        ),
      )
      .toEqual(["432x648", "432x648"]);
    // Each picture is one page of the engine's SVG, its text there: a chapter's title on the right, running text
    // (with the author's name as its running head) on the left.
    const svgOf = async (n: number) => {
      const src = (await pages.nth(n).getAttribute("src")) ?? "";
      expect(src).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
      return decodeURIComponent(src.slice(src.indexOf(",") + 1));
    };
    const [left, right] = [await svgOf(0), await svgOf(1)];
    for (const svg of [left, right]) expect(svg.match(/class="typst-page"/g)).toHaveLength(1);
    expect(right).toMatch(/>(Turning|Flooding|Standing)</);
    expect(left).toMatch(/leaned over|grey mud|went out/);
    expect(left, "the left-hand page's running head").toContain(">Ines Spread<");
    const ratios = () => pages.evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect()).map((box) => box.width / box.height));
    for (const ratio of await ratios()) expect(ratio).toBeCloseTo(6 / 9, 2);
    // Another trim: the pages are typeset again, narrower.
    await dialog.getByLabel("Trim size").selectOption("5x8");
    await expect.poll(async () => (await ratios()).map((r) => Math.abs(r - 5 / 8) < 0.005), { timeout: 60_000 }).toEqual([true, true]);
    await expect(preview).toHaveAttribute("aria-busy", "false");
  });

  test("a co-author picks 5 × 8 and Crimson Pro in the Export menu's dialog and downloads the typeset PDF", async ({ page, request }) => {
    test.setTimeout(120_000);
    const owner = await createUser(request, { name: "Ines Owner" });
    const coAuthor = await createUser(request, { name: "Colm Coauthor" });
    await makePremium(request, owner);
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Shared Tide" });
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
      title: "Opening",
      content: "Gulls wheeled over the quay.",
    });
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/share-with-user`, {
      userEmail: coAuthor.email,
      accessLevel: "collaborator",
    });
    await signIn(page, coAuthor);
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Export" }).click();
    await page.getByRole("menuitem", { name: "Print-ready PDF…" }).click();
    const dialog = page.getByRole("dialog", { name: "Print-ready PDF" });
    await dialog.getByLabel("Trim size").selectOption("5x8");
    await dialog.getByLabel("Body font").selectOption("crimson-pro");
    await dialog.getByLabel("Dedication").check();
    await dialog.getByRole("textbox", { name: "Dedication" }).fill("For the harbour pilots");
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 90_000 }),
      dialog.getByRole("button", { name: "Download PDF" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("shared-tide-print.pdf");
    await expect(dialog.getByRole("status")).toContainText("Downloaded shared-tide-print.pdf");
    const file = await download.path();
    expect(run("pdfinfo", [file])).toMatch(/Page size:\s+360 x 576 pts/);
    const fonts = run("pdffonts", [file]);
    expect(fonts).toContain("CrimsonPro-Regular");
    expect(fonts).not.toMatch(/\sno\s/);
    const text = run("pdftotext", [file, "-"]);
    expect(text).toContain("For the harbour pilots");
    // The large initial letter is set apart from the rest of its word: compare without the spaces.
    expect(text.replace(/\s+/g, "")).toContain("Gullswheeledoverthequay.");
  });
});
