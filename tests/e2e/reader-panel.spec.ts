import { openPanel, apiAs, card, createUser, expect, makePremium, openTimeline, test, waitForHydration } from "./fixtures";
import { shareWith } from "./helpers/timeline";

// The owner's 'Reader links' panel: make a link, a reader opens it in another browser and comments, the owner
// sees where they stopped; a scene marked 'Not for readers' leaves the reading view; ending the link ends it at once.

test.describe(() => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Lantern" });
  test("the owner makes a reader link, sees where the reader stopped, hides a scene from readers, and ends the link", async ({
    page,
    browser,
    writer,
    timeline,
  }) => {
    test.setTimeout(120_000);
    const dawn = await writer.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "Dawn",
      content: "The lantern was lit at dawn.",
    });
    await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Secret", content: "Spoilers live here." });

    await openTimeline(page, timeline.id);
    await openPanel(page, "Reader links");
    const dialog = page.getByRole("dialog", { name: "Reader links" });
    await dialog.getByLabel("Label").fill("Book club");
    await dialog.getByRole("button", { name: "Create link" }).click();
    const address = dialog.getByLabel("Address of Book club");
    await expect(address).toHaveValue(/\/read\/[A-Za-z0-9_-]+$/);
    await expect(dialog.getByText("No one has opened it yet.")).toBeVisible();
    const url = await address.inputValue();

    // A reader, in a browser of their own and without an account, comments on the first scene.
    const readerContext = await browser.newContext();
    const reader = await readerContext.newPage();
    await reader.goto(url);
    await waitForHydration(reader);
    const para = reader.getByText("The lantern was lit at dawn.");
    await expect(para).toBeVisible();
    await expect(reader.getByText("Spoilers live here.")).toBeVisible();
    await para.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      el.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    });
    const form = reader.getByRole("form", { name: "Comment" });
    await form.getByLabel("Your name").fill("Ana");
    await form.getByLabel("Comment").fill("Lovely opening.");
    await form.getByRole("button", { name: "Send comment" }).click();
    await expect(reader.getByRole("status")).toHaveText("Comment sent to the author");

    // The owner sees where Ana stopped, and her comment in Comments as 'Reader: Ana'.
    await expect
      .poll(async () => {
        await page.keyboard.press("Escape");
        await openPanel(page, "Reader links");
        return (
          (await dialog
            .getByRole("list", { name: "Readers of Book club" })
            .textContent({ timeout: 3000 })
            .catch(() => null)) ?? ""
        );
      })
      .toMatch(/^Ana — Dawn, (just now|now|\d+ (second|minute)s? ago)$/);
    await page.keyboard.press("Escape");
    const comments = await writer.api<{ authorName: string }[]>("GET", `/api/events/${dawn.id}/comments`);
    expect(comments.map((c) => c.authorName)).toContain("Reader: Ana");

    // 'Not for readers' on the second scene: saved at once, marked on the card, gone from the reading view.
    await page.getByRole("button", { name: "Edit Secret" }).click();
    const toggle = page.getByLabel("Not for readers");
    await toggle.check();
    await expect(toggle).toBeChecked();
    await expect(toggle).toBeEnabled();
    await page.reload();
    await waitForHydration(page);
    await expect(card(page, "Secret").getByText("Not for readers")).toBeVisible();
    await expect(card(page, "Dawn").getByText("Not for readers")).toBeHidden();
    await reader.reload();
    // The scene's paragraph (the reader's own comment quotes it too).
    await expect(reader.getByRole("paragraph").filter({ hasText: "The lantern was lit at dawn." })).toBeVisible();
    await expect(reader.getByText("Spoilers live here.")).toBeHidden();

    // Ending the link: the reader's next visit finds it ended.
    await openPanel(page, "Reader links");
    await dialog.getByRole("button", { name: "End link" }).click();
    await expect(dialog.getByText("No reader links yet.")).toBeVisible();
    await reader.reload();
    await expect(reader.getByRole("heading", { name: "Link not found" })).toBeVisible();
    await expect(reader.getByText("It may have ended")).toBeVisible();
    await readerContext.close();
  });
});

test.describe(() => {
  test.use({ writerOptions: { name: "Vera Viewer", premium: false } });
  test("a viewer has no 'Reader links' panel", async ({ page, request, writer: viewer }) => {
    const owner = await createUser(request, { name: "Olive Owner" });
    await makePremium(request, owner);
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Lantern" });
    await shareWith(request, owner, timeline.id, viewer, "viewer");
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Panels", exact: true }).click();
    await expect(page.getByRole("menuitem", { name: "Comments" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Activity" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Reader links" })).toHaveCount(0);
    await page.keyboard.press("Escape");
  });
});
