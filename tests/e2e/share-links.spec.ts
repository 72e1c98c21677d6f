import type { Browser, Page } from "@playwright/test";
import {
  apiAs,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  login,
  makePremium,
  screenshot,
  type TestUser,
  test,
  waitForHydration,
} from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();

/** A second browser (its own cookies), signed in as `user`. */
async function writerPage(browser: Browser, user: TestUser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, user);
  return { page, context };
}

async function openShared(page: Page, url: string) {
  await page.goto(url);
  await waitForHydration(page);
}

test.describe("share links you can revoke", () => {
  test("owner resets the link: the old link shows 'Timeline not found' in another browser, the new one works; then turns it off", async ({
    page,
    browser,
    request,
  }) => {
    const owner = await createUser(request, { name: "Olive Owner" });
    await makePremium(request, owner);
    const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Glass Orchard" });
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "Frost on the apples", content: "It begins." });
    const guest = await createUser(request, { name: "Gus Guest" });

    await login(page, owner);
    await page.goto(`/timeline/${timeline.id}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Share Timeline" });
    const linkInput = dialog.getByLabel("Share link");
    await expect(linkInput).toHaveValue(/\/timeline\/shared\/[\w-]{12,}$/);
    await expect(toast(page, "Share Link Created")).toBeVisible();
    const oldUrl = await linkInput.inputValue();

    // The guest opens the link in their own browser and is in the room.
    const other = await writerPage(browser, guest);
    await openShared(other.page, oldUrl);
    await expect(other.page.getByRole("heading", { name: "The Glass Orchard" })).toBeVisible();
    await expect(other.page.getByText("Connected", { exact: true })).toBeVisible();

    // Reset asks first; cancelling changes nothing.
    await dialog.getByRole("button", { name: "Reset link" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Reset the share link?" });
    await expect(confirm).toBeVisible();
    await screenshot(page, "share-link-reset-confirm");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(linkInput).toHaveValue(oldUrl);
    await dialog.getByRole("button", { name: "Reset link" }).click();
    await confirm.getByRole("button", { name: "Reset link" }).click();
    await expect(toast(page, "Share Link Reset")).toBeVisible();
    await expect(linkInput).not.toHaveValue(oldUrl);
    await expect(linkInput).toHaveValue(/\/timeline\/shared\/[\w-]{12,}$/);
    const newUrl = await linkInput.inputValue();

    // The guest's open page loses the timeline at once, and the old link stays dead on a fresh load.
    await expect(other.page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    await openShared(other.page, oldUrl);
    await expect(other.page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    await expect(other.page.getByRole("link", { name: "Return to Timelines" })).toBeVisible();
    await screenshot(other.page, "share-link-old-link-not-found");

    // The new link works.
    await openShared(other.page, newUrl);
    await expect(other.page.getByRole("heading", { name: "The Glass Orchard" })).toBeVisible();
    await expect(other.page.getByText("Frost on the apples")).toBeVisible();
    await expect(other.page.getByText("Connected", { exact: true })).toBeVisible();

    // Turning the link off: no link until the owner creates one again.
    await dialog.getByRole("button", { name: "Turn off link" }).click();
    await expect(toast(page, "Share Link Turned Off")).toBeVisible();
    await expect(dialog.getByText("The share link is turned off.")).toBeVisible();
    await expect(linkInput).toHaveCount(0);
    await expect(other.page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "share-link-off");

    // Reopening the dialog does not bring a link back by itself.
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await expect(dialog.getByText("The share link is turned off.")).toBeVisible();
    await dialog.getByRole("button", { name: "Create link" }).click();
    await expect(dialog.getByLabel("Share link")).toHaveValue(/\/timeline\/shared\/[\w-]{12,}$/);
    const third = await dialog.getByLabel("Share link").inputValue();
    expect([oldUrl, newUrl]).not.toContain(third);
    await openShared(other.page, third);
    await expect(other.page.getByRole("heading", { name: "The Glass Orchard" })).toBeVisible();
    await other.context.close();
  });
});
