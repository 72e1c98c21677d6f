import { createUser, expect, login, openTimeline, test, toast } from "./fixtures";

test.describe("sharing with an unverified address", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Quiet Harbour" });
  test("the owner sees it as 'Not verified' and can cancel it; the invited writer is told to verify", async ({
    page,
    browser,
    request,
    timeline,
  }) => {
    const sam = await createUser(request, { name: "Sam Squatter", verified: false });

    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share Timeline" });
    await dialog.getByRole("tab", { name: "Share with User" }).click();
    await dialog.getByLabel("Email Address").fill(sam.email);
    await dialog.getByRole("button", { name: "Share Timeline" }).click();
    await expect(toast(page, "Invitation sent")).toBeVisible();
    const entry = dialog.getByRole("listitem").filter({ hasText: sam.email });
    await expect(entry.getByText("Not verified", { exact: true })).toBeVisible();

    // Meanwhile the invited writer, signed in, is told what verifying opens.
    const context = await browser.newContext();
    const invited = await context.newPage();
    await login(invited, sam);
    await expect(invited.getByText("Verify your email to open The Quiet Harbour")).toBeVisible();
    await context.close();

    await entry.getByRole("button", { name: `Cancel the invitation to ${sam.email}` }).click();
    await expect(toast(page, "Invitation Cancelled")).toBeVisible();
    await expect(dialog.getByText(sam.email)).toHaveCount(0);
  });
});
