import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import mammoth from "mammoth";
import { apiAs, createUser, expect, openTimeline, test } from "./fixtures";

// The Word file as a writer opens it: what a writer formats in the editor comes out as Word's own headings,
// lists and bold, with no Markdown marks; and LibreOffice, where installed, sees the headings as an outline.

const hasSoffice = spawnSync("soffice", ["--version"], { stdio: "ignore" }).error === undefined;

/** The visible text of an HTML fragment (mammoth's output), entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, "\n")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

test.describe("Word export", () => {
  // The first test's writer (the second, with LibreOffice, sets up its own through the API).
  test.use({ writerOptions: { name: "Wren Writer", premium: true }, timelineTitle: "Low Water" });

  test("formatting typed in the editor is Word's own in the downloaded file: headings, a numbered list, bold, no Markdown", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(90_000);
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The ebb", content: "The tide went out." });
    await openTimeline(page, timeline.id);

    await page.getByRole("button", { name: "Edit The ebb" }).click();
    const content = page.getByLabel("Content", { exact: true });
    await expect(content).toHaveAttribute("contenteditable", "true");
    await expect(content).toContainText("The tide went out.");
    await content.click();
    await page.keyboard.press("ControlOrMeta+End");
    // Characters that mean something in Markdown, typed as text (at a typist's pace: the doc takes 40 updates a second).
    await page.keyboard.type(" She wrote “stay” in snake_case and [x].", { delay: 40 });
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Heading" }).click();
    await page.keyboard.type("The harbor", { delay: 40 });
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("Run", { delay: 40 });
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(" now.", { delay: 40 });
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Numbered list" }).click();
    await page.keyboard.type("first", { delay: 40 });
    await page.keyboard.press("Enter");
    await page.keyboard.type("second", { delay: 40 });
    await expect(content.locator("ol > li")).toHaveCount(2);
    await expect(content.locator("h2")).toHaveText("The harbor");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Edit The ebb" })).toBeVisible();

    await page.getByRole("button", { name: "Export" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Word (.docx)" }).click()]);
    expect(download.suggestedFilename()).toBe("low-water.docx");
    const { value: html } = await mammoth.convertToHtml({ buffer: await readFile(await download.path()) });

    expect(html).toContain("<h1>The ebb</h1>");
    expect(html).toContain("<h2>The harbor</h2>");
    expect(html).toContain("<p><strong>Run</strong> now.</p>");
    expect(html).toContain("<ol><li>first</li><li>second</li></ol>");
    const text = textOf(html);
    expect(text).toContain("The tide went out. She wrote “stay” in snake_case and [x].");
    for (const mark of ["**", "\\", "## ", "1. ", "&lt;"]) expect(text).not.toContain(mark);
  });

  test("LibreOffice reads the title, events and their headings as an outline, and an Arabic paragraph right to left", async ({
    request,
  }) => {
    test.skip(!hasSoffice, "LibreOffice (soffice) is not installed here");
    test.setTimeout(90_000);
    const owner = await createUser(request, { name: "Wren Writer" });
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Low Water" });
    const scene = "The tide went out.\n\n## The harbor\n\n- a boat\n- a net\n\n---\n\nقال: مرحبا!";
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "The ebb", content: scene });
    const res = await request.get(`/api/timelines/${timeline.id}/export?format=docx`, {
      headers: { Authorization: `Bearer ${owner.token}` },
    });
    expect(res.status()).toBe(200);

    const dir = await mkdtemp(join(tmpdir(), "word-export-"));
    try {
      await writeFile(join(dir, "low-water.docx"), await res.body());
      // A profile of its own, so a LibreOffice already running elsewhere does not take the conversion.
      const converted = spawnSync(
        "soffice",
        [`-env:UserInstallation=file://${dir}/profile`, "--headless", "--convert-to", "odt", "--outdir", dir, join(dir, "low-water.docx")],
        { timeout: 60_000 },
      );
      expect(converted.status).toBe(0);
      const xml = strFromU8(unzipSync(await readFile(join(dir, "low-water.odt")))["content.xml"]);
      const outline = [...xml.matchAll(/<text:h [^>]*text:outline-level="(\d)"[^>]*>([\s\S]*?)<\/text:h>/g)].map(
        (m) => `${m[1]} ${m[2].replace(/<[^>]+>/g, "")}`,
      );
      expect(outline).toEqual(["1 Low Water", "1 The ebb", "2 The harbor"]);
      expect(xml.match(/<text:list-item[ >]/g)).toHaveLength(2);
      expect(xml).toContain("* * *");
      // The Arabic paragraph's style writes right to left.
      const arabic = /<text:p text:style-name="([^"]+)">قال: مرحبا!<\/text:p>/.exec(xml)?.[1];
      expect(
        new RegExp(`<style:style style:name="${arabic}"[^>]*>(?:(?!</style:style>)[\\s\\S])*style:writing-mode="rl-tb"`).test(xml),
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
