import {
  openPanel,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  openTimeline,
  screenshot,
  test,
  writerPage,
} from "./fixtures";
import { selectText } from "./helpers/editor";
import { countButton, shareWith } from "./helpers/timeline";

// The review on the timeline: a viewer comments on a sentence in read mode; the owner sees the count on the card and
// the thread in the timeline's Comments panel, resolves it and the count drops for both, live; Activity lists edits.

import type { EventRow as Scene } from "./types";

test.describe("the timeline's review", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true } });
  test.describe(() => {
    test.use({ timelineTitle: "The Drowned Bell" });
    test("a viewer comments on a sentence in read mode; the owner sees the count and the thread, resolves it; activity lists edits", async ({
      page,
      browser,
      request,
      writer: owner,
      timeline,
    }) => {
      test.setTimeout(120_000);
      const scene = await owner.api<Scene>("POST", `/api/timelines/${timeline.id}/events`, {
        title: "The bell",
        content: "The bell rang at dawn. The gulls went quiet.",
      });
      const bea = await createUser(request, { name: "Bea Reader" });
      await shareWith(request, owner, timeline.id, bea, "viewer");

      // Bea, a viewer, opens the scene's comments from its card and comments on a sentence she selects (the test's page
      // is hers: signed in as her instead of the owner).
      await signIn(page, bea);
      await openTimeline(page, timeline.id);
      await expect(page.getByRole("button", { name: "Edit The bell" })).toHaveCount(0);
      await countButton(page, "Comments on The bell").click();
      const dialog = page.getByRole("dialog", { name: "Comments on The bell" });
      const text = dialog.getByLabel("The bell: text");
      await expect(text).toContainText("The gulls went quiet.");
      await selectText(text, "The gulls went quiet.");
      await dialog.getByRole("button", { name: "Comment", exact: true }).click();
      const box = dialog.getByTestId("comment-box");
      await expect(box).toContainText("“The gulls went quiet.”");
      await box.getByRole("textbox").fill("Why do they go quiet?");
      await box.getByRole("button", { name: "Post comment" }).click();
      const thread = dialog.getByTestId("comment-thread");
      await expect(thread).toHaveCount(1);
      await expect(thread.getByTestId("comment-quote")).toHaveText("“The gulls went quiet.”");
      await expect(dialog.locator(".comment-highlight")).toHaveText("The gulls went quiet.");
      // A viewer replies but does not resolve.
      await expect(thread.getByRole("button", { name: "Resolve" })).toHaveCount(0);
      await page.keyboard.press("Escape");
      await expect(countButton(page, "1 open comment")).toBeVisible();

      // Olive sees the count on the card, and the thread in the timeline's Comments panel.
      const o = await writerPage(browser, owner, timeline.id);
      await expect(countButton(o.page, "1 open comment")).toBeVisible();
      await expect(countButton(o.page, "1 open comment")).toContainText("💬 1");
      await openPanel(o.page, "Comments");
      const panel = o.page.getByRole("dialog", { name: "Comments" });
      const item = panel.getByTestId("timeline-thread");
      await expect(item).toHaveCount(1);
      await expect(item).toContainText("The bell");
      await expect(item).toContainText("“The gulls went quiet.”");
      await expect(item).toContainText("Bea Reader");
      await expect(item).toContainText("Why do they go quiet?");
      await expectNoSeriousA11yViolations(o.page);

      // She resolves it: it moves to Resolved, and the count leaves both cards without a reload.
      await item.getByRole("button", { name: "Resolve" }).click();
      await expect(panel.getByText("No open comments.")).toBeVisible();
      await panel.getByRole("tab", { name: "Resolved" }).click();
      await expect(panel.getByTestId("timeline-thread")).toContainText("Why do they go quiet?");
      await o.page.keyboard.press("Escape");
      await expect(countButton(o.page, "1 open comment")).toHaveCount(0);
      await expect(countButton(o.page, "Comments on The bell")).toBeVisible();
      await expect(countButton(page, "1 open comment")).toHaveCount(0);
      await expect(countButton(page, "Comments on The bell")).toBeVisible();

      // Olive edits the scene; the Activity panel lists her edit and Bea's comment, newest first.
      await owner.api("PATCH", `/api/events/${scene.id}`, { content: "The bell rang at dawn. The gulls fell silent." });
      await openPanel(o.page, "Activity");
      const activity = o.page.getByRole("dialog", { name: "Activity" }).getByTestId("activity-item");
      await expect(activity.first()).toContainText("Olive Owner edited The bell");
      await expect(activity.nth(1)).toContainText("Bea Reader commented on The bell");
      await expect(activity.nth(2)).toContainText("Olive Owner added The bell");
      await expectNoSeriousA11yViolations(o.page);

      // At phone width the panel and the toolbar's Panels menu fit.
      await o.page.setViewportSize({ width: 390, height: 844 });
      await screenshot(o.page, "review-activity-390");
      const box390 = await o.page.getByRole("dialog", { name: "Activity" }).boundingBox();
      expect(box390 && box390.x >= 0 && box390.x + box390.width <= 390).toBe(true);
      await o.page.keyboard.press("Escape");
      const panelsButton = o.page.getByRole("button", { name: "Panels", exact: true });
      await panelsButton.scrollIntoViewIfNeeded();
      await expect(panelsButton).toBeInViewport({ ratio: 1 });
      await screenshot(o.page, "review-timeline-390");
      await o.context.close();

      // The owner turns viewers' comments off: Bea still reads the threads, without Comment or Reply.
      await owner.api("PATCH", `/api/timelines/${timeline.id}`, { viewersCanComment: false });
      await openTimeline(page, timeline.id);
      await countButton(page, "Comments on The bell").click();
      const readOnly = page.getByRole("dialog", { name: "Comments on The bell" });
      await expect(readOnly.getByLabel("The bell: text")).toContainText("The gulls fell silent.");
      await readOnly.getByRole("button", { name: "Show resolved (1)" }).click();
      await expect(readOnly.getByTestId("comment-thread")).toContainText("Why do they go quiet?");
      await expect(readOnly.getByRole("button", { name: "Comment", exact: true })).toHaveCount(0);
      await expect(readOnly.getByRole("button", { name: "Comment on the scene" })).toHaveCount(0);
      await expect(readOnly.getByRole("button", { name: "Reply" })).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
    });
  });
  test.describe(() => {
    test.use({ timelineTitle: "The Quiet Bell" });
    test("each card's comments button comes with the server's HTML, and its count once the counts come", async ({
      page,
      writer: owner,
      timeline,
    }) => {
      const scenes: Scene[] = [];
      for (const title of ["The rope", "The tower"]) {
        scenes.push(await owner.api<Scene>("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title}.` }));
      }
      await owner.api("POST", `/api/events/${scenes[1].id}/comments`, { body: "Too quiet here?" });
      // Drawn by the server (before, the buttons came after hydration, and every card drew again inside its effects).
      const html = await (await page.context().request.get(`/timeline/${timeline.id}`)).text();
      expect(html).toContain('aria-label="Comments on The rope"');
      expect(html).toContain('aria-label="Comments on The tower"');
      await openTimeline(page, timeline.id);
      await expect(countButton(page, "Comments on The rope")).toBeVisible();
      await expect(countButton(page, "1 open comment")).toBeVisible();
    });
  });
});
