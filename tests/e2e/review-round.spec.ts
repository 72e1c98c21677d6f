import { apiAs, createUser, docText, expect, openTimeline, test, writerPage } from "./fixtures";
import { selectText } from "./helpers/editor";
import { countButton, shareWith, premiumOwnerWithTimeline } from "./helpers/timeline";

// One review round with three browsers: a viewer comments on a sentence in read mode, a collaborator @mentions the
// owner and suggests an edit, the owner's bell counts both without a reload, the owner follows the notification,
// accepts the suggestion and resolves the comment; all three see the outcome live.

// The page is Bea's, the viewer's: the `writer` fixture signs it in.
test.use({ writerOptions: { name: "Bea Reader", premium: false } });

test("owner, collaborator and viewer run one review round, live", async ({ page, browser, request, writer: bea }) => {
  test.setTimeout(180_000);
  const { owner, timeline } = await premiumOwnerWithTimeline(request, "The Drowned Bell");
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
    title: "The bell",
    content: "The bell rang at dawn. The gulls went quiet.",
  });
  const cole = await createUser(request, { name: "Cole Collab" });
  for (const [w, accessLevel] of [
    [cole, "collaborator"],
    [bea, "viewer"],
  ] as const) {
    await shareWith(request, owner, timeline.id, w, accessLevel);
  }

  // Olive is on her timeline from the start; her bell has nothing new.
  const o = await writerPage(browser, owner, timeline.id);
  await expect(o.page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();

  // Bea, a viewer, comments on a sentence in the read view and leaves it open.
  await openTimeline(page, timeline.id);
  await countButton(page, "Comments on The bell").click();
  const reader = page.getByRole("dialog", { name: "Comments on The bell" });
  const readText = reader.getByLabel("The bell: text");
  await expect(readText).toContainText("The gulls went quiet.");
  await selectText(readText, "The gulls went quiet.");
  await reader.getByRole("button", { name: "Comment", exact: true }).click();
  const box = reader.getByTestId("comment-box");
  // The box opens at the text and inside the dialog: below the dialog's foot it was cut off, and 'Post comment' could
  // be pressed only after scrolling the dialog, which moves the box again (a lost press on a busy machine).
  await expect(box).toBeVisible();
  const [inDialog, boxAt] = [await reader.boundingBox(), await box.boundingBox()];
  expect(inDialog && boxAt && boxAt.y >= inDialog.y && boxAt.y + boxAt.height <= inDialog.y + inDialog.height).toBe(true);
  await box.getByRole("textbox").fill("Why do they go quiet?");
  await box.getByRole("button", { name: "Post comment" }).click();
  await expect(reader.getByTestId("comment-thread")).toHaveCount(1);

  // Cole @mentions Olive in a comment on the scene, then suggests a word in Suggesting mode.
  const c = await writerPage(browser, cole, timeline.id);
  await c.page.getByRole("button", { name: "Edit The bell" }).click();
  const coleContent = c.page.getByLabel("Content", { exact: true });
  await expect(coleContent).toHaveAttribute("contenteditable", "true");
  await c.page.getByRole("button", { name: "Comment on the scene" }).click();
  const mention = c.page.getByRole("textbox", { name: "Comment on the scene" });
  await mention.pressSequentially("Over to you, @Oli");
  await c.page.getByTestId("mention-picker").getByRole("button", { name: "@Olive Owner" }).click();
  await mention.pressSequentially("please decide");
  await c.page.getByRole("button", { name: "Post comment" }).click();
  await expect(c.page.getByTestId("comment").filter({ hasText: "@Olive Owner please decide" })).toBeVisible();
  await c.page.getByRole("button", { name: "Suggesting" }).click();
  await coleContent.click();
  await c.page.keyboard.press("ControlOrMeta+Home");
  for (let i = 0; i < 4; i++) await c.page.keyboard.press("ArrowRight");
  await c.page.keyboard.type("old ");
  await expect(coleContent.locator("ins[data-suggestion]")).toHaveCount(1);

  // Olive's bell counts the mention and the suggestion without her navigating (she comes back to the window).
  await expect
    .poll(
      async () => {
        await o.page.evaluate(() => window.dispatchEvent(new Event("focus")));
        return o.page.getByRole("link", { name: "Notifications (2 unread)" }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await o.page.getByRole("link", { name: "Notifications (2 unread)" }).click();
  const items = o.page.getByTestId("notification");
  await expect(items.filter({ hasText: 'Cole Collab suggested edits to "The bell" in "The Drowned Bell"' })).toHaveCount(1);
  await items.getByRole("link", { name: "Cole Collab mentioned you" }).click();
  const linked = o.page.getByRole("dialog", { name: "Comments on The bell" });
  await expect(linked.locator('[data-testid="comment-thread"][aria-current="true"]')).toContainText("@Olive Owner please decide");
  await o.page.keyboard.press("Escape");

  // She accepts the suggestion and resolves Bea's thread in the editor.
  await o.page.getByRole("button", { name: "Edit The bell" }).click();
  const ownerContent = o.page.getByLabel("Content", { exact: true });
  await expect.poll(() => docText(ownerContent)).toContain("The old bell rang at dawn.");
  await o.page.getByRole("region", { name: "Suggestions" }).getByRole("button", { name: "Accept: Insert “old”" }).click();
  await expect(ownerContent.locator("[data-suggestion]")).toHaveCount(0);
  const beaThread = o.page.getByTestId("comment-thread").filter({ hasText: "Why do they go quiet?" });
  await beaThread.getByRole("button", { name: "Resolve" }).click();
  await expect(beaThread).toHaveCount(0);

  // Everyone sees it live: Cole's editor has the accepted word and no suggestion; Bea's open read view follows the
  // text and her thread is resolved.
  await expect(coleContent.locator("[data-suggestion]")).toHaveCount(0);
  await expect.poll(() => docText(coleContent)).toContain("The old bell rang at dawn.");
  await expect(readText).toContainText("The old bell rang at dawn.", { timeout: 15_000 });
  await expect(reader.getByTestId("comment-thread").filter({ hasText: "Why do they go quiet?" })).toHaveCount(0);
  await expect(reader.getByTestId("comment-thread").filter({ hasText: "@Olive Owner please decide" })).toHaveCount(1);
  await c.context.close();
  await o.context.close();
});
