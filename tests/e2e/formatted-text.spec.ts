import type { Locator, Page } from "@playwright/test";
import { expect, openTimeline, screenshot, test, waitForHydration } from "./fixtures";

// What a writer formats in the co-writing editor is shown formatted to every reader: on the card (right after
// Save, and server-rendered on a fresh load) and in the print view. No Markdown syntax is ever on screen, and a
// right-to-left paragraph reads right to left.

import type { EventRow } from "./types";

/** The formatted text's elements, its Arabic paragraph's direction and no Markdown marks in what a reader sees. */
async function expectFormatted(text: Locator, headingTag: string) {
  await expect(text.locator("strong")).toHaveText("It tolled");
  await expect(text.locator("em")).toHaveText("softly");
  await expect(text.locator(headingTag)).toHaveText("Later");
  await expect(text.locator("li")).toHaveText(["salt", "rope"]);
  await expect(text.locator("blockquote")).toHaveText("the tide does not lie");
  await expect(text.locator("hr")).toHaveCount(1);
  const arabic = text.locator("p", { hasText: "مرحبا بالعالم" });
  await expect(arabic).toHaveAttribute("dir", "auto");
  // Polled: the card may put its formatted text in place (a new element) just after the first paint.
  await expect.poll(() => arabic.evaluate((el) => (el.isConnected ? getComputedStyle(el).direction : ""))).toBe("rtl");
  const shown = await text.innerText();
  expect(shown).toContain("It tolled and softly.");
  expect(shown).not.toMatch(/\*|#|^>|^- |---|~~|`/m);
}

async function typeFormattedText(page: Page) {
  const content = page.getByLabel("Content", { exact: true });
  await expect(content).toHaveAttribute("contenteditable", "true");
  await expect(content).toContainText("The bell rang.");
  await content.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  // At a writer's pace: the doc socket closes a connection that sends more than 40 updates a second.
  const type = (text: string) => page.keyboard.type(text, { delay: 60 });
  const tool = (name: string) => page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name, exact: true });
  await tool("Bold").click();
  await type("It tolled");
  await tool("Bold").click();
  await type(" and ");
  await tool("Italic").click();
  await type("softly");
  await tool("Italic").click();
  await type(".");
  await page.keyboard.press("Enter");
  await tool("Heading").click();
  await type("Later");
  await page.keyboard.press("Enter");
  // Markdown shortcuts as a writer types them: a bulleted list, then (after the scene break) a quote.
  await type("- salt");
  await page.keyboard.press("Enter");
  await type("rope");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await type("مرحبا بالعالم");
  // Right to left while it is typed, as on the card.
  const typed = content.locator("p", { hasText: "مرحبا بالعالم" });
  await expect(typed).toHaveAttribute("dir", "auto");
  expect(await typed.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
  expect(await content.locator("p", { hasText: "The bell rang." }).evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
  await page.keyboard.press("Enter");
  await tool("Scene break").click();
  await type("> the tide does not lie");
  await expect(content.locator("blockquote")).toHaveText("the tide does not lie");
  await expect(content.locator("li")).toHaveCount(2);
  await expect(page.getByTestId("co-editor-status")).toHaveText("All changes saved");
}

test.describe(() => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });
  test("formatted in the editor, shown formatted on the card and in print: no Markdown, right-to-left reads right", async ({
    page,
    writer,
    timeline,
  }) => {
    // Long (the editor, the card and print, 12.5 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    const event = await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The bell",
      content: "The bell rang.",
    });
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Edit The bell" }).click();
    await typeFormattedText(page);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();

    const stored = (await writer.api<EventRow[]>("GET", `/api/timelines/${timeline.id}/events`))[0].content;
    expect(stored).toContain("**It tolled** and *softly*.");
    expect(stored).toContain("## Later");

    // Right after Save (rendered in the browser), then on a fresh load (rendered by the server, kept by hydration).
    const text = page.locator(`#event-${event.id}-text`);
    await expectFormatted(text, "h5");
    const html = await (await page.request.get(`/timeline/${timeline.id}`)).text();
    expect(html).toContain("<strong>It tolled</strong> and <em>softly</em>.");
    await page.reload();
    await waitForHydration(page);
    await expectFormatted(text, "h5");
    await screenshot(page, "formatted-text-card");

    await page.goto(`/timeline/${timeline.id}/print`);
    await waitForHydration(page);
    const printed = page.locator("article", { has: page.getByRole("heading", { name: "The bell", level: 2 }) });
    await expectFormatted(printed.locator(".formatted-text"), "h4");
    await screenshot(page, "formatted-text-print");
  });
});

test.describe(() => {
  test.use({ writerOptions: { name: "Petra Plain", premium: false }, timelineTitle: "Plain Tides" });
  test("plain prose shows without the renderer's code; formatting that arrives live loads it and shows formatted", async ({
    page,
    writer,
    timeline,
  }) => {
    const event = await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The lamp",
      content: 'The lamp gutters; "well-known" tides turn (at 3 o\'clock).\n\nMorning.',
    });
    const renderer: string[] = [];
    page.on("request", (req) => {
      if (/\/assets\/formatted-text-/.test(req.url())) renderer.push(req.url());
    });
    await openTimeline(page, timeline.id);
    const text = page.locator(`#event-${event.id}-text`);
    await expect(text.locator("p")).toHaveText(['The lamp gutters; "well-known" tides turn (at 3 o\'clock).', "Morning."]);
    await page.waitForTimeout(1000);
    expect(renderer).toEqual([]);

    // A co-writer formats the text (through the API): the card loads the renderer and shows it formatted.
    await writer.api("PATCH", `/api/events/${event.id}`, { content: "The lamp **gutters**." });
    await expect(text.locator("strong")).toHaveText("gutters");
    expect(renderer.length).toBeGreaterThan(0);
  });
});

test.describe(() => {
  test.use({ writerOptions: { name: "Rana Writer", premium: false }, timelineTitle: "الجرس الغارق" });
  test("a right-to-left title is laid out right to left on its card, the timeline's heading and in print", async ({
    page,
    writer,
    timeline,
  }) => {
    await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, { title: "رنين الجرس", content: "The bell rang." });
    await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, { title: "The tide", content: "It rose." });
    const direction = (heading: Locator) => heading.evaluate((el) => getComputedStyle(el).direction);
    await openTimeline(page, timeline.id);
    const arabicCard = page.getByTestId("event-card").locator("h3", { hasText: "رنين الجرس" });
    await expect(arabicCard).toHaveAttribute("dir", "auto");
    expect(await direction(arabicCard)).toBe("rtl");
    expect(await direction(page.getByTestId("event-card").locator("h3", { hasText: "The tide" }))).toBe("ltr");
    expect(await direction(page.getByRole("heading", { name: "الجرس الغارق", level: 1 }))).toBe("rtl");

    await page.goto(`/timeline/${timeline.id}/print`);
    await waitForHydration(page);
    expect(await direction(page.getByRole("heading", { name: "الجرس الغارق", level: 1 }))).toBe("rtl");
    expect(await direction(page.getByRole("heading", { name: "رنين الجرس", level: 2 }))).toBe("rtl");
    expect(await direction(page.getByRole("heading", { name: "The tide", level: 2 }))).toBe("ltr");
  });

  test("a right-to-left chapter heading and book read right to left on the timeline and in the reading view", async ({
    page,
    writer,
    timeline,
  }) => {
    const chapter = await writer.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/chapters`, { title: "الفصل الأول" });
    const scene = await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "رنين الجرس",
      content: "رن الجرس في الميناء.",
    });
    await writer.api("PATCH", `/api/events/${scene.id}`, { chapterId: chapter.id });
    const direction = (el: Locator) => el.evaluate((node) => getComputedStyle(node).direction);
    await openTimeline(page, timeline.id);
    const chapterHeading = page.getByRole("heading", { name: "الفصل الأول" }).first();
    await expect(chapterHeading).toHaveAttribute("dir", "auto");
    expect(await direction(chapterHeading)).toBe("rtl");

    const link = await writer.api<{ code: string }>("POST", `/api/timelines/${timeline.id}/reader-links`, { label: "Club" });
    await page.goto(`/read/${link.code}`);
    await waitForHydration(page);
    expect(await direction(page.getByRole("heading", { name: "الجرس الغارق", level: 1 }))).toBe("rtl");
    expect(await direction(page.getByRole("heading", { name: "الفصل الأول", level: 2 }))).toBe("rtl");
    expect(await direction(page.getByText("رن الجرس في الميناء."))).toBe("rtl");
  });
});
