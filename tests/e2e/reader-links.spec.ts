import { apiAs, createUser, docText, expect, test, waitForHydration, writerPage } from "./fixtures";

// A beta reader opens a reader link on a phone without an account, reads, comments on a selected sentence after
// giving a name, and the owner sees the comment as 'Reader: {name}' in place (the quoted words highlighted, in the
// scene editor and the Manuscript) and where the reader stopped.

test.use({ viewport: { width: 390, height: 844 } });

test("a reader reads on a phone without an account and comments on selected text", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, { name: "Olive Owner" });
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Lantern" });
  const scene = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
    title: "Dawn",
    // "Nobody saw" twice: the reader comments on the second, and the owner's highlight must be on that one.
    content: "The lantern was lit at dawn. Nobody saw.\n\nNobody saw who lit it.",
  });
  const link = await apiAs<{ id: number; code: string }>(request, owner, "POST", `/api/timelines/${timeline.id}/reader-links`, {
    label: "Book club",
  });

  await page.goto(`/read/${link.code}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "The Lantern" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Contents" })).toBeVisible();
  const para = page.getByText("Nobody saw who lit it.");
  await expect(para).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A page for reading: no app navigation, and no help button floating over the text.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Open help assistant" })).toBeHidden();

  // Select "Nobody saw" in the second paragraph and comment on it, giving a name the first time.
  await para.evaluate((el) => {
    const text = el.firstChild as Text;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, "Nobody saw".length);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    el.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
  });
  const form = page.getByRole("form", { name: "Comment" });
  await form.getByLabel("Your name").fill("Ann");
  await form.getByLabel("Comment").fill("Who did, then?");
  await form.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("status")).toHaveText("Comment sent to the author");
  await expect(page.getByText("Your comment: Who did, then?")).toBeVisible();

  // Back later: the reader is remembered and sees their comment again.
  await page.reload();
  await expect(page.getByText("Your comment: Who did, then?")).toBeVisible();

  const comments = await apiAs<{ authorName: string; body: string }[]>(request, owner, "GET", `/api/events/${scene.id}/comments`);
  expect(comments.map((c) => [c.authorName, c.body])).toContainEqual(["Reader: Ann", "Who did, then?"]);
  await expect
    .poll(async () => {
      const links = await apiAs<{ id: number; readers: { name: string; eventId: number | null }[] }[]>(
        request,
        owner,
        "GET",
        `/api/timelines/${timeline.id}/reader-links`,
      );
      return links.find((l) => l.id === link.id)?.readers;
    })
    .toEqual([expect.objectContaining({ name: "Ann", eventId: scene.id })]);

  // The owner opens the scene: exactly the quoted words of the second paragraph are highlighted, and clicking them
  // shows the reader's thread.
  const o = await writerPage(browser, owner, timeline.id);
  await o.page.getByRole("button", { name: "Edit Dawn" }).click();
  const content = o.page.getByLabel("Content", { exact: true });
  await expect(content).toHaveAttribute("contenteditable", "true");
  const highlight = content.locator(".comment-highlight");
  await expect(highlight).toHaveCount(1);
  await expect.poll(() => docText(highlight)).toBe("Nobody saw");
  await expect(content.locator("p").nth(1).locator(".comment-highlight")).toHaveCount(1);
  const thread = o.page.getByTestId("comments-panel").getByTestId("comment-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread.getByTestId("comment-quote")).toHaveText("“Nobody saw”");
  await expect(thread.getByTestId("comment")).toContainText("Reader: Ann");
  await expect(thread).toContainText("Who did, then?");
  await o.page.mouse.move(0, 0);
  await expect(thread).not.toHaveAttribute("data-active", "true");
  await highlight.click();
  await expect(thread).toHaveAttribute("data-active", "true");
  await o.page.keyboard.press("Escape");

  // In the Manuscript too, the same words are highlighted.
  await o.page.goto(`/timeline/${timeline.id}/manuscript`);
  await waitForHydration(o.page);
  const text = o.page.getByRole("textbox", { name: "Text of Dawn" });
  await expect(text).toContainText("Nobody saw who lit it.");
  await expect.poll(() => docText(text.locator(".comment-highlight"))).toBe("Nobody saw");
  await expect(text.locator("p").nth(1).locator(".comment-highlight")).toHaveCount(1);
  // Clicking the words shows the reader's thread at them.
  await text.locator(".comment-highlight").click();
  const shown = o.page.getByRole("region", { name: "Comment thread" });
  await expect(shown).toContainText("“Nobody saw”");
  await expect(shown.getByTestId("comment")).toContainText("Reader: Ann");
  await expect(shown).toContainText("Who did, then?");
  await shown.getByRole("button", { name: "Close" }).click();
  await expect(shown).toHaveCount(0);
  await o.context.close();
});
