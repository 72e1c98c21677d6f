import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { type Writer, createUser, docText, expect, signIn, test, waitForHydration, writerPage } from "./fixtures";
import { openEditor, selectText } from "./helpers/editor";
import { shareWith } from "./helpers/timeline";
import type { Timeline } from "./types";

// Review in the Manuscript (DESIGN §12 'The writer's desk'): a co-author triple-clicks a paragraph and presses
// Comment; the box opens at the paragraph, inside the screen; the comment quotes the paragraph and highlights it, and
// the owner finds it on the scene. A comment the owner adds on the timeline shows in the co-author's open Manuscript
// without a reload (the page shares the timeline screen's QueryClient and hears the room's comment syncs).
// Suggesting in the Manuscript makes tracked changes the owner accepts.

const FIRST = "The bell rang at dawn, and the gulls rose from the harbor wall.";
const SECOND = "Nobody came down to the water that morning.";

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });

/** The owner is the writer, and the book the fixture's timeline; Cole, a collaborator, is the test's page. */
async function setup(request: APIRequestContext, owner: Writer, timeline: Timeline) {
  // A long scene first: the reviewed one is further down the page, as in a book.
  const long = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} of the flood, told slowly and at length.`).join("\n\n");
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Prologue", content: long });
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content: `${FIRST}\n\n${SECOND}` });
  const cole = await createUser(request, { name: "Cole Collab" });
  await shareWith(request, owner, timeline.id, cole, "collaborator");
  return { cole, timelineId: timeline.id };
}

async function openScene(page: Page, timelineId: number) {
  await page.goto(`/timeline/${timelineId}/manuscript`);
  await waitForHydration(page);
  await page.getByRole("region", { name: "The bell" }).scrollIntoViewIfNeeded();
  const text = page.getByRole("textbox", { name: "Text of The bell" });
  await expect(text).toHaveAttribute("contenteditable", "true");
  await expect(text).toContainText(SECOND);
  return text;
}

/** Triple-clicks the paragraph, presses Comment: the box opens next to it, inside the screen. */
async function commentOn(page: Page, paragraph: Locator) {
  await paragraph.scrollIntoViewIfNeeded();
  await paragraph.click({ clickCount: 3 });
  await page.getByRole("button", { name: "Comment", exact: true }).click();
  const box = page.getByTestId("comment-box");
  await expect(box).toBeVisible();
  await expect(box.getByRole("textbox")).toBeFocused();
  const at = await paragraph.boundingBox();
  const shown = await box.boundingBox();
  const screen = page.viewportSize();
  if (!at || !shown || !screen) throw new Error("no boxes");
  // Below the paragraph (or above it when the screen has no room), never hundreds of pixels away.
  expect(Math.min(Math.abs(shown.y - (at.y + at.height)), Math.abs(shown.y + shown.height - at.y))).toBeLessThan(150);
  expect(shown.y).toBeGreaterThanOrEqual(0);
  expect(shown.y + shown.height).toBeLessThanOrEqual(screen.height);
  expect(shown.x).toBeGreaterThanOrEqual(0);
  expect(shown.x + shown.width).toBeLessThanOrEqual(screen.width);
  return box;
}

test("a co-author comments on a triple-clicked paragraph in the Manuscript: the box opens at it, the text is quoted and highlighted", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(150_000);
  const { cole, timelineId } = await setup(request, owner, timeline);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, cole);
  const text = await openScene(page, timelineId);

  const box = await commentOn(page, text.locator("p").first());
  await expect(box).toContainText(`“${FIRST}”`);
  await page.screenshot({ path: "test-results/shots/manuscript-comment-1280.png" });
  await box.getByRole("textbox").fill("Which harbor? Name it.");
  await box.getByRole("button", { name: "Post comment" }).click();
  await expect(box).toHaveCount(0);
  // The paragraph's words are highlighted (all of them, and only them).
  await expect.poll(() => docText(text.locator(".comment-highlight"))).toBe(FIRST);
  // The text itself is unchanged.
  await expect.poll(() => docText(text)).toBe(`${FIRST}${SECOND}`);

  // At a phone's width the box still opens at the text, inside the screen; Cancel closes it.
  await page.setViewportSize({ width: 390, height: 780 });
  const small = await commentOn(page, text.locator("p").nth(1));
  await expect(small).toContainText(`“${SECOND}”`);
  await page.screenshot({ path: "test-results/shots/manuscript-comment-390.png" });
  await small.getByRole("button", { name: "Cancel" }).click();
  await expect(small).toHaveCount(0);

  // The owner finds it on the scene: the quote is the paragraph, still there, highlighted in the scene's editor.
  const o = await writerPage(browser, owner, timelineId);
  await o.page.getByRole("button", { name: "Edit The bell" }).click();
  const thread = o.page.getByTestId("comments-panel").getByTestId("comment-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread.getByTestId("comment-quote")).toHaveText(`“${FIRST}”`);
  await expect(thread).toContainText("Cole Collab");
  await expect(thread).toContainText("Which harbor? Name it.");
  await expect.poll(() => docText(o.page.locator(".co-editor-content .comment-highlight"))).toBe(FIRST);
  await o.context.close();
});

test("a comment the owner adds on the timeline shows in the co-author's open Manuscript without a reload", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(150_000);
  const { cole, timelineId } = await setup(request, owner, timeline);
  await signIn(page, cole);
  const text = await openScene(page, timelineId);
  await expect(text.locator(".comment-highlight")).toHaveCount(0);
  // Reloading the page would show the comment anyway: the marker proves this is the same page.
  await page.evaluate(() => Object.assign(window, { __sameManuscript: true }));

  // The owner, in another browser, selects "gulls" in the scene's editor on the timeline and comments.
  const o = await writerPage(browser, owner, timelineId);
  const content = await openEditor(o.page, SECOND);
  await content.focus();
  await selectText(content, "gulls");
  await o.page.getByRole("button", { name: "Comment", exact: true }).click();
  const box = o.page.getByTestId("comments-panel").getByTestId("comment-box");
  await expect(box).toContainText("“gulls”");
  await box.getByRole("textbox").fill("Herring gulls, or terns?");
  await box.getByRole("button", { name: "Post comment" }).click();
  await expect(o.page.getByTestId("comments-panel").getByTestId("comment-thread")).toHaveCount(1);

  // Cole's Manuscript highlights the words, and the thread opens at them with the owner's comment.
  const highlighted = text.locator(".comment-highlight");
  await expect(highlighted).toHaveText("gulls");
  await highlighted.click();
  const thread = page.getByRole("region", { name: "Comment thread" });
  await expect(thread).toContainText("“gulls”");
  await expect(thread.getByTestId("comment")).toHaveCount(1);
  await expect(thread.getByTestId("comment")).toContainText("Olive Owner");
  await expect(thread.getByTestId("comment")).toContainText("Herring gulls, or terns?");
  expect(await page.evaluate(() => (window as unknown as { __sameManuscript?: boolean }).__sameManuscript)).toBe(true);
  await o.context.close();
});

test("Suggesting in the Manuscript: a co-author's edit is a suggestion the owner accepts", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(150_000);
  const { cole, timelineId } = await setup(request, owner, timeline);
  await signIn(page, cole);
  const text = await openScene(page, timelineId);
  await page.getByRole("button", { name: "Suggesting" }).click();
  await expect(page.getByRole("button", { name: "Suggesting" })).toHaveAttribute("aria-pressed", "true");
  await text.locator("p").nth(1).click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Not one soul.", { delay: 30 });
  await expect.poll(() => docText(text.locator("ins[data-suggestion]"))).toBe("Not one soul.");
  await expect(page.getByRole("region", { name: "Suggestions" }).getByTestId("suggestion")).toHaveCount(1);
  // Until accepted, the saved text is the text before it.
  await expect
    .poll(async () => {
      const rows = await owner.api<{ title: string; content: string }[]>("GET", `/api/timelines/${timelineId}/events`);
      return rows.find((r) => r.title === "The bell")?.content;
    })
    .toBe(`${FIRST}\n\n${SECOND}`);

  // The owner, on the timeline, opens the scene: the suggestion is there to accept.
  const o = await writerPage(browser, owner, timelineId);
  await o.page.getByRole("button", { name: "Edit The bell" }).click();
  const content = o.page.getByLabel("Content", { exact: true });
  await expect.poll(() => docText(content.locator("ins[data-suggestion]"))).toBe("Not one soul.");
  const list = o.page.getByRole("region", { name: "Suggestions" });
  await list.getByRole("button", { name: /^Accept: / }).click();
  await expect(list).toHaveCount(0);
  await expect(content.locator("[data-suggestion]")).toHaveCount(0);
  // Accepted in Cole's Manuscript too: plain text now.
  await expect(text.locator("[data-suggestion]")).toHaveCount(0);
  await expect.poll(() => docText(text)).toBe(`${FIRST}${SECOND} Not one soul.`);
  await o.context.close();
});
