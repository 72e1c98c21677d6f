import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { apiAs, docText, expect, expectNoSeriousA11yViolations, openTimeline, test, type Writer, writerPage } from "./fixtures";
import { addBellScene } from "./helpers/timeline";
import type { Timeline } from "./types";
import { openEditor, selectText } from "./helpers/editor";

// Comments on a scene's text: a writer selects words and comments, a second writer sees the highlight and
// replies (live), the highlight follows the words when text is inserted before them, resolving hides it.

async function setup(request: APIRequestContext, owner: Writer, timeline: Timeline) {
  const { users } = await addBellScene(request, owner, timeline, "The bell rang at dawn.", [
    { name: "Mara Collab", access: "collaborator" },
  ]);
  return { mara: users[0] };
}

/** Selects `text` in the editor's first paragraph (a DOM selection, as a mouse drag makes). */
async function select(content: Locator, text: string) {
  // Focus first: the editor puts back its own last selection when it regains focus.
  await content.focus();
  await content.page().waitForTimeout(100);
  await selectText(content.locator("p").first(), text);
}

const highlight = (page: Page) => page.locator(".co-editor-content .comment-highlight");
const panel = (page: Page) => page.getByTestId("comments-panel");

test.describe("comments", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });
  test("select text and comment; a second writer sees it and replies; the highlight follows edits; resolve hides it", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    const { mara } = await setup(request, owner, timeline);
    await openTimeline(page, timeline.id);
    const ownerContent = await openEditor(page, "The bell rang at dawn.");

    // Olive selects "rang" and comments on it.
    await select(ownerContent, "rang");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    const box = panel(page).getByTestId("comment-box");
    await expect(box).toContainText("“rang”");
    await box.getByRole("textbox").fill("Too quiet? Let it toll.");
    await box.getByRole("button", { name: "Post comment" }).click();
    const ownerThread = panel(page).getByTestId("comment-thread");
    await expect(ownerThread).toHaveCount(1);
    await expect(ownerThread.getByTestId("comment-quote")).toHaveText("“rang”");
    await expect(ownerThread).toContainText("Olive Owner");
    await expect(ownerThread).toContainText("Too quiet? Let it toll.");
    await expect(highlight(page)).toHaveText("rang");

    // Mara opens the same scene: the comment is there with its highlight; she replies.
    const m = await writerPage(browser, mara, timeline.id);
    const maraContent = await openEditor(m.page, "The bell rang at dawn.");
    const maraThread = panel(m.page).getByTestId("comment-thread");
    await expect(maraThread).toContainText("Too quiet? Let it toll.");
    await expect(highlight(m.page)).toHaveText("rang");
    await maraThread.getByRole("button", { name: "Reply" }).click();
    await maraThread.getByRole("textbox").fill("It tolls twice in chapter two.");
    await maraThread.getByRole("button", { name: "Reply" }).click();
    await expect(maraThread.getByTestId("comment")).toHaveCount(2);
    // Olive's panel shows the reply without a reload (the room says the scene's comments changed).
    await expect(ownerThread.getByTestId("comment")).toHaveCount(2);
    await expect(ownerThread).toContainText("Mara Collab");
    await expect(ownerThread).toContainText("It tolls twice in chapter two.");
    await expectNoSeriousA11yViolations(page);

    // Olive inserts text before the commented words: the highlight stays on "rang" for both.
    await ownerContent.focus();
    await page.keyboard.press("Control+Home");
    await page.keyboard.type("Loud: ", { delay: 40 });
    await expect.poll(() => docText(maraContent)).toBe("Loud: The bell rang at dawn.");
    await expect(highlight(page)).toHaveText("rang");
    await expect(highlight(m.page)).toHaveText("rang");
    // The highlight is not part of the text: the saved doc has no trace of it.
    expect(await docText(ownerContent)).toBe("Loud: The bell rang at dawn.");

    // A comment whose words are deleted keeps its quote, marked as removed.
    await select(maraContent, "dawn");
    await m.page.getByRole("button", { name: "Comment", exact: true }).click();
    await panel(m.page).getByTestId("comment-box").getByRole("textbox").fill("Which dawn?");
    await panel(m.page).getByTestId("comment-box").getByRole("button", { name: "Post comment" }).click();
    const dawn = panel(page).getByTestId("comment-thread").filter({ hasText: "Which dawn?" });
    await expect(dawn.getByTestId("comment-quote")).toHaveText("“dawn”");
    await select(ownerContent, "dawn");
    await page.keyboard.press("Backspace");
    await expect.poll(() => docText(maraContent)).toBe("Loud: The bell rang at .");
    await expect(dawn.getByTestId("comment-quote")).toHaveText("“dawn” (text removed)");
    await expect(panel(m.page).getByTestId("comment-thread").filter({ hasText: "Which dawn?" })).toContainText("(text removed)");
    await dawn.getByRole("button", { name: "Delete" }).click();
    await expect(panel(m.page).getByTestId("comment-thread")).toHaveCount(1);

    // Mara resolves the thread: it leaves both panels and the highlight goes.
    await maraThread.getByRole("button", { name: "Resolve" }).click();
    await expect(panel(m.page).getByTestId("comment-thread")).toHaveCount(0);
    await expect(panel(page).getByTestId("comment-thread")).toHaveCount(0);
    await expect(highlight(page)).toHaveCount(0);
    await expect(highlight(m.page)).toHaveCount(0);
    await expect(panel(page).getByRole("button", { name: "Show resolved (1)" })).toBeVisible();

    // The owner turns off viewers' comments in the Share dialog.
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel("Viewers can comment")).toBeChecked();
    await dialog.getByLabel("Viewers can comment").uncheck();
    await expect
      .poll(
        async () => (await apiAs<{ viewersCanComment: boolean }>(request, owner, "GET", `/api/timelines/${timeline.id}`)).viewersCanComment,
      )
      .toBe(false);
    await m.context.close();
  });
});
