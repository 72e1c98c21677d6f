import type { Page } from "@playwright/test";
import {
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  screenshot,
  test,
  cardWithHeading,
  openTimeline,
  toast,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

async function editContent(page: Page, title: string, content: string) {
  await page.getByRole("button", { name: `Edit ${title}` }).click();
  const editing = page.getByTestId("event-card").filter({ has: page.getByLabel("Content") });
  await editing.getByLabel("Content").fill(content);
  await editing.getByRole("button", { name: "Save" }).click();
  await expect(cardWithHeading(page, title).getByText(content)).toBeVisible();
}

test.describe("event version history", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Hana Owner", premium: true }, timelineTitle: "The Drowned Bell" });
    test("two edits, History shows them with the differences, restore brings the older text back; a viewer only reads", async ({
      page,
      browser,
      request,
      writer,
      timeline,
    }) => {
      // Two editors, a restore, a second browser and an accessibility scan: near the default 60 s on a busy machine.
      test.setTimeout(120_000);
      await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The Bell", content: "The bell rang at dawn." });
      const viewer = await createUser(request, { name: "Vera Viewer" });
      await shareWith(request, writer, timeline.id, viewer, "viewer");

      await openTimeline(page, timeline.id);
      await editContent(page, "The Bell", "The bell rang twice at noon.");
      await editContent(page, "The Bell", "The bell fell silent at dusk.");

      await page.getByRole("button", { name: "History of The Bell" }).click();
      const dialog = page.getByRole("dialog", { name: "History of The Bell" });
      const versions = dialog.getByRole("list", { name: "Versions" }).getByRole("button");
      await expect(versions).toHaveCount(3);
      await expect(versions.nth(0)).toContainText("The bell fell silent at dusk.");
      await expect(versions.nth(0)).toContainText("Hana Owner");
      await expect(versions.nth(1)).toContainText("The bell rang twice at noon.");
      await expect(versions.nth(2)).toContainText("The bell rang at dawn.");
      await expect(versions.nth(0).locator("time")).toHaveAttribute("title", /\d/);

      // The first version against the current text: what it had (ins) and what it lacks (del).
      await versions.nth(2).click();
      await expect(versions.nth(2)).toHaveAttribute("aria-pressed", "true");
      const content = dialog.getByTestId("version-content");
      await expect(content.locator("ins")).toHaveText(["rang", "dawn"]);
      await expect(content.locator("del")).toHaveText(["fell silent", "dusk"]);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "versions-history");

      await dialog.getByRole("button", { name: "Restore this version" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Restore this version?" });
      await confirm.getByRole("button", { name: "Restore" }).click();
      await expect(toast(page, "Version restored")).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(cardWithHeading(page, "The Bell").getByText("The bell rang at dawn.")).toBeVisible();

      // The restore is itself a version; keyboard: the History button opens the dialog, Escape closes it.
      await page.getByRole("button", { name: "History of The Bell" }).focus();
      await page.keyboard.press("Enter");
      await expect(dialog.getByRole("list", { name: "Versions" }).getByRole("button")).toHaveCount(4);
      await expect(dialog.getByTestId("version-change").first()).toHaveText(/^Restored from .+ · −1 word$/);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      // A viewer sees the history but cannot restore.
      const context = await browser.newContext();
      const viewerPage = await context.newPage();
      await signIn(viewerPage, viewer);
      await openTimeline(viewerPage, timeline.id);
      await expect(viewerPage.getByRole("button", { name: "Edit The Bell" })).toHaveCount(0);
      await viewerPage.getByRole("button", { name: "History of The Bell" }).click();
      const viewerDialog = viewerPage.getByRole("dialog", { name: "History of The Bell" });
      const viewerVersions = viewerDialog.getByRole("list", { name: "Versions" }).getByRole("button");
      await expect(viewerVersions).toHaveCount(4);
      await viewerVersions.nth(1).click();
      await expect(viewerDialog.getByTestId("version-content").locator("del")).toHaveText(["rang", "dawn"]);
      await expect(viewerDialog.getByTestId("version-content").locator("ins")).toHaveText(["fell silent", "dusk"]);
      await expect(viewerDialog.getByRole("button", { name: "Restore this version" })).toHaveCount(0);
      await expect(viewerDialog.getByRole("button", { name: "Name this version" })).toHaveCount(0);
      await expectNoSeriousA11yViolations(viewerPage);
      await context.close();
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Noor Namer", premium: false }, timelineTitle: "The Quiet Harbor" });
    test("each row says what changed; a writer names a version and the name stays", async ({ page, writer, timeline }) => {
      await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The Pier", content: "Fog on the pier." });

      await openTimeline(page, timeline.id);
      await editContent(page, "The Pier", "Fog on the pier, and three gulls crying.");
      await page.getByRole("button", { name: "History of The Pier" }).click();
      const dialog = page.getByRole("dialog", { name: "History of The Pier" });
      const versions = dialog.getByRole("list", { name: "Versions" }).getByRole("button");
      await expect(versions).toHaveCount(2);
      await expect(versions.nth(0).getByTestId("version-change")).toHaveText("+4 words");
      await expect(versions.nth(1).getByTestId("version-change")).toHaveText("4 words");

      await versions.nth(1).click();
      await dialog.getByRole("button", { name: "Name this version" }).click();
      await dialog.getByRole("textbox", { name: "Version name" }).fill("Before the gulls");
      await dialog.getByRole("button", { name: "Save name" }).click();
      await expect(versions.nth(1)).toContainText("Before the gulls");
      await expect(dialog.getByRole("button", { name: "Rename this version" })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await openTimeline(page, timeline.id);
      await page.getByRole("button", { name: "History of The Pier" }).click();
      await expect(versions.nth(1)).toContainText("Before the gulls");
      await expect(versions.nth(0)).not.toContainText("Before the gulls");
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Sid Saver", premium: false }, timelineTitle: "The Lighthouse" });
    test("Save after the autosave has written the text keeps it once in History, not twice", async ({ page, writer, timeline }) => {
      await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The Lamp", content: "The lamp was lit." });

      await openTimeline(page, timeline.id);
      await page.getByRole("button", { name: "Edit The Lamp" }).click();
      const editing = page.getByTestId("event-card").filter({ has: page.getByLabel("Content") });
      await editing.getByLabel("Content").fill("The lamp went out.");
      // The autosave (typing settled) writes the text first; Save then has nothing new to write.
      const status = page.getByTestId("co-editor-status");
      await expect(status).toHaveText("Saving…");
      await expect(status).toHaveText("All changes saved");
      await editing.getByRole("button", { name: "Save" }).click();
      await expect(cardWithHeading(page, "The Lamp").getByText("The lamp went out.")).toBeVisible();

      await page.getByRole("button", { name: "History of The Lamp" }).click();
      const dialog = page.getByRole("dialog", { name: "History of The Lamp" });
      const versions = dialog.getByRole("list", { name: "Versions" }).getByRole("button");
      await expect(versions.nth(0)).toContainText("The lamp went out.");
      await expect(versions).toHaveCount(2);
      await expect(versions.nth(1)).toContainText("The lamp was lit.");
    });
  });
});
