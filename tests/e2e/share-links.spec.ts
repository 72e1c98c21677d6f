import type { Page } from "@playwright/test";
import {
  apiAs,
  createUser,
  toast,
  screenshot,
  signIn,
  test,
  waitForHydration,
  writerPage,
  expect,
  expectNoSeriousA11yViolations,
} from "./fixtures";

test.use({ writerOptions: { name: "Olive Owner", premium: true } });

async function openShared(page: Page, url: string) {
  await page.goto(url);
  await waitForHydration(page);
}

/** Opens a share link and presses 'Join timeline' on the page it shows; lands on the timeline. */
async function joinFromLink(page: Page, url: string, timelineId: number) {
  await openShared(page, url);
  await page.getByRole("button", { name: "Join timeline" }).click();
  await page.waitForURL(`**/timeline/${timelineId}`);
  await waitForHydration(page);
}

test.describe("share links you can revoke", () => {
  test.use({ timelineTitle: "The Glass Orchard" });

  test("owner resets the link: the old link shows 'Timeline not found' in another browser, the new one works; then turns it off", async ({
    page,
    browser,
    request,
    writer,
    timeline,
  }) => {
    // Long (two browsers, four axe scans, 15 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Frost on the apples", content: "It begins." });
    const guest = await createUser(request, { name: "Gus Guest" });

    await page.goto(`/timeline/${timeline.id}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Share Timeline" });
    const linkInput = dialog.getByLabel("Share link");
    // Opening Share makes no link: the owner asks for one.
    const createLink = dialog.getByRole("button", { name: "Create link" });
    await expect(createLink).toBeVisible();
    await expect(dialog.getByText("There is no share link yet.")).toBeVisible();
    await expect(linkInput).toHaveCount(0);
    await expect(toast(page, "Share Link Created")).toHaveCount(0);
    expect((await writer.api<{ shareCode: string | null }>("GET", `/api/timelines/${timeline.id}/share`)).shareCode).toBeNull();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "share-link-none-yet");
    await createLink.click();
    await expect(linkInput).toHaveValue(/\/timeline\/shared\/[\w-]{12,}$/);
    await expect(toast(page, "Share Link Created")).toBeVisible();
    const oldUrl = await linkInput.inputValue();

    // The guest opens the link in their own browser: what it is, and nothing joined until asked.
    const other = await writerPage(browser, guest);
    await openShared(other.page, oldUrl);
    await expect(other.page.getByRole("heading", { name: "The Glass Orchard" })).toBeVisible();
    await expect(other.page.getByText("Olive Owner")).toBeVisible();
    await expect(other.page.getByText("Collaborator (can edit)")).toBeVisible();
    await expect(other.page.getByText("Frost on the apples")).toHaveCount(0);
    await expectNoSeriousA11yViolations(other.page);
    await screenshot(other.page, "share-link-join");
    await other.page.getByRole("link", { name: "Cancel" }).click();
    await other.page.waitForURL("**/timeline");
    const guestList = await apiAs<{ id: number }[]>(request, guest, "GET", "/api/timelines");
    expect(guestList.some((t) => t.id === timeline.id)).toBe(false);
    // Join: the timeline is theirs to open, and they are in the room.
    await joinFromLink(other.page, oldUrl, timeline.id);
    await expect(other.page.getByText("Frost on the apples")).toBeVisible();
    await expect(other.page.getByText("Connected", { exact: true })).toBeVisible();
    expect((await apiAs<{ id: number }[]>(request, guest, "GET", "/api/timelines")).some((t) => t.id === timeline.id)).toBe(true);

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

    // The new link works (joining again: the old link's access went with it).
    await joinFromLink(other.page, newUrl, timeline.id);
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
    await expect(other.page.getByRole("button", { name: "Join timeline" })).toBeVisible();
    await expect(other.page.getByRole("heading", { name: "The Glass Orchard" })).toBeVisible();
    await other.context.close();

    // The owner opening their own link goes straight to the timeline.
    await openShared(page, third);
    await expect(page.getByText("Frost on the apples")).toBeVisible();
    await expect(page.getByRole("button", { name: "Join timeline" })).toHaveCount(0);
  });
});

test.describe(() => {
  test.use({ timelineTitle: "The Early Click" });

  test("'Join timeline' pressed before the join page's code has loaded still joins (a plain form post)", async ({
    page,
    request,
    writer,
    timeline,
  }) => {
    await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "First frost", content: "It begins." });
    const link = await writer.api<{ shareCode: string }>("POST", `/api/timelines/${timeline.id}/share`, { role: "collaborator" });
    const guest = await createUser(request, { name: "Gus Guest" });
    await signIn(page, guest);
    // The join page's chunk is held back: the button is the server's HTML, not yet React's.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/join-shared-timeline-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    await page.goto(`/timeline/shared/${link.shareCode}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Join timeline" }).click();
    await page.waitForURL(`**/timeline/${timeline.id}`);
    release();
    await expect(page.getByText("First frost")).toBeVisible();
    const joined = await apiAs<{ id: number }[]>(request, guest, "GET", "/api/timelines");
    expect(joined.some((t) => t.id === timeline.id)).toBe(true);
  });
});
