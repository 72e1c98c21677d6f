import { apiAs, createUser, docText, expect, expectNoSeriousA11yViolations, openTimeline, test, writerPage } from "./fixtures";
import { shareWith } from "./helpers/timeline";
import { openEditor } from "./helpers/editor";

// Suggesting mode: a writer's typing and deleting become tracked changes in the author's colour, seen live by
// the others, who accept or reject them; the card and the saved text hold only what was accepted.

import type { EventRow } from "./types";

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });

test("a collaborator suggests an insertion and a deletion; the owner sees both coloured, accepts one and rejects the other", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(120_000);
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content: "The bell rang." });
  const cole = await createUser(request, { name: "Cole Collab" });
  await shareWith(request, owner, timeline.id, cole, "collaborator");

  await openTimeline(page, timeline.id);
  const c = await writerPage(browser, cole, timeline.id);
  const coleContent = await openEditor(c.page, "The bell rang.");
  const ownerContent = await openEditor(page, "The bell rang.");

  // Cole switches to Suggesting (kept in his browser), inserts a word and deletes another.
  await c.page.getByRole("button", { name: "Suggesting" }).click();
  await expect(c.page.getByRole("button", { name: "Suggesting" })).toHaveAttribute("aria-pressed", "true");
  await coleContent.click();
  await c.page.keyboard.press("Home");
  for (let i = 0; i < 4; i++) await c.page.keyboard.press("ArrowRight");
  await c.page.keyboard.type("old ");
  await c.page.keyboard.press("End");
  await c.page.keyboard.press("ArrowLeft");
  for (let i = 0; i < 5; i++) await c.page.keyboard.press("Backspace");

  // The owner sees both in Cole's colour, with who suggested them; the text is all still there.
  const inserted = ownerContent.locator("ins[data-suggestion]");
  const deleted = ownerContent.locator("del[data-suggestion]");
  // (docText: without Cole's caret label, which sits in the text where his caret is.)
  await expect.poll(() => docText(inserted)).toBe("old");
  await expect.poll(() => docText(deleted)).toBe("rang");
  await expect(inserted).toHaveAttribute("title", /^Suggested by Cole Collab, /);
  await expect(inserted).toHaveAttribute("style", /--suggestion-color/);
  await expect.poll(() => docText(ownerContent)).toBe("The old bell rang.");
  const list = page.getByRole("region", { name: "Suggestions" });
  await expect(list.getByTestId("suggestion")).toHaveCount(2);
  // Until accepted, the saved text (what cards, exports and word counts read) is the text before them.
  await expect(c.page.getByTestId("co-editor-status")).toHaveText("All changes saved");
  const [before] = await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`);
  expect(before.content).toBe("The bell rang.");
  await expectNoSeriousA11yViolations(page);

  // A new paragraph's words are suggestions too; Cole's Ctrl+Z takes them back.
  await c.page.keyboard.press("End");
  await c.page.keyboard.press("Enter");
  await c.page.keyboard.type("Next");
  await expect(ownerContent.locator("ins[data-suggestion]", { hasText: "Next" })).toHaveCount(1);
  // Listed on its own, or (when the editor gave it the id of the deletion next to it, so that one Accept takes
  // both) as one replacement with it.
  await expect(list.getByTestId("suggestion").filter({ hasText: "“Next”" })).toHaveCount(1);
  await c.page.keyboard.press("ControlOrMeta+z");
  await expect(ownerContent).not.toContainText("Next");
  await expect(list.getByTestId("suggestion")).toHaveCount(2);

  await list.getByRole("button", { name: "Accept: Insert “old”" }).click();
  await list.getByRole("button", { name: "Reject: Delete “rang”" }).click();
  await expect(list).toHaveCount(0);
  await expect(inserted).toHaveCount(0);
  await expect(deleted).toHaveCount(0);
  await expect.poll(() => docText(coleContent)).toBe("The old bell rang.");
  await expect(coleContent.locator("[data-suggestion]")).toHaveCount(0);

  // Saved: the card shows the accepted text.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();
  await expect(page.getByTestId("event-card")).toContainText("The old bell rang.");
  const [after] = await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`);
  expect(after.content).toBe("The old bell rang.");
  await c.context.close();
});

test.describe("formatting while suggesting", () => {
  test.use({ writerOptions: { name: "Bea Bold", premium: false }, timelineTitle: "Formatting" });

  test("bold made in Suggesting mode is one tracked change: rejected the words stay plain, accepted they are bold", async ({
    page,
    request,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content: "The bell rang." });
    await openTimeline(page, timeline.id);
    const content = await openEditor(page, "The bell rang.");
    await page.getByRole("button", { name: "Suggesting" }).click();
    const list = page.getByRole("region", { name: "Suggestions" });
    const boldBell = async () => {
      await content.click();
      // Select "bell" (the browser's selection, which the editor follows), and only then make it bold.
      await content.evaluate((el) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent?.indexOf("bell") ?? -1;
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 4);
          window.getSelection()?.removeAllRanges();
          window.getSelection()?.addRange(range);
          return;
        }
      });
      await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe("bell");
      await page.keyboard.press("ControlOrMeta+b");
      await expect(list.getByTestId("suggestion")).toHaveText([/^Make “bell” bold/]);
    };

    await boldBell();
    await expect(content.locator("strong ins[data-suggestion]")).toHaveText("bell");
    await list.getByRole("button", { name: "Reject: Make “bell” bold" }).click();
    await expect(list).toHaveCount(0);
    await expect(content.locator("strong")).toHaveCount(0);
    await expect.poll(() => docText(content)).toBe("The bell rang.");

    await boldBell();
    await list.getByRole("button", { name: "Accept: Make “bell” bold" }).click();
    await expect(list).toHaveCount(0);
    await expect(content.locator("strong")).toHaveText("bell");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByTestId("event-card").locator("strong")).toHaveText("bell");
    const [saved] = await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`);
    expect(saved.content).toBe("The **bell** rang.");
  });
});
