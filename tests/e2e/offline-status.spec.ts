import { type Locator, type Page, expect, test } from "@playwright/test";
import { apiAs, createUser, openTimeline, signIn } from "./fixtures";

// Write anywhere (DESIGN.md §12), as the writer sees it: the sync status sits in the page's flow (the timeline's
// title row, beside the connection badge) so it covers nothing on a phone; the connection badge says 'Offline' as
// soon as the network goes; 'You're offline' is written once on the screen while each locked control keeps its title
// and description. SHOTS_DIR=<dir> keeps screenshots of each state for a look.

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** No shown sync status (in the header or the app's strip) overlaps `target`, as they are on the screen now. */
async function expectNothingOver(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  // The bottom of the window, where a bar fixed there would sit.
  await target.evaluate((el) => el.scrollIntoView({ block: "end" }));
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  const statuses = page.getByTestId("sync-status").filter({ visible: true });
  const offlineBadge = page.getByText("Offline", { exact: true }).filter({ visible: true });
  for (const status of [...(await statuses.all()), ...(await offlineBadge.all())]) {
    const other = await status.boundingBox();
    if (other && box) expect(intersects(other, box), `${await status.textContent()} covers the Story Assistant's button`).toBe(false);
  }
}

const shot = async (page: Page, name: string) => {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: false });
};

/** 'You're offline' as drawn on the screen (the locked controls' own notes only describe them). */
const drawnOfflineNotes = (page: Page) => page.getByText("You're offline", { exact: true }).filter({ visible: true });

async function writerOnTimeline(page: Page, request: Parameters<typeof createUser>[0], name: string) {
  const writer = await createUser(request, { name });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Harbour Lights" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The quay", content: "Rain on the stones." });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/entities`, { kind: "character", name: "Mara" });
  await signIn(page, writer);
  await openTimeline(page, timeline.id);
  return timeline;
}

test("at 390 px the sync status covers nothing (online and offline); the badge says 'Offline' at once and 'Connected' again once back", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await writerOnTimeline(page, request, "Pip Phone");
  const suggest = page.getByRole("button", { name: "Suggest Plot Idea" });
  await expect(suggest).toBeVisible();
  await expectNothingOver(page, suggest);
  await shot(page, "390-online");

  await page.context().setOffline(true);
  const header = page.getByRole("main");
  await expect(header.getByText("Connected", { exact: true })).toHaveCount(0);
  await expect(header.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByTestId("sync-status").filter({ visible: true })).toHaveText(/All changes synced/);
  await expectNothingOver(page, suggest);
  await shot(page, "390-offline-bottom");
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "390-offline-top");
  await expect(drawnOfflineNotes(page)).toHaveCount(1);
  // The locked Story Assistant button keeps its title and description.
  await expect(suggest).toHaveAttribute("title", "You're offline");
  await expect(suggest).toHaveAccessibleDescription("You're offline");

  await page.context().setOffline(false);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await expectNothingOver(page, suggest);
  await expect(drawnOfflineNotes(page)).toHaveCount(0);
});

test("at 1280 px offline, 'You're offline' is written once; Export, 'Upgrade to Share', Reader links and the codex keep their titles", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await writerOnTimeline(page, request, "Dee Desk");
  await shot(page, "1280-online");

  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByText("Connected", { exact: true })).toHaveCount(0);
  const codex = page.getByRole("region", { name: "Codex" });
  const locked = [
    page.getByRole("button", { name: "Export", exact: true }),
    page.getByRole("button", { name: "Upgrade to Share" }),
    codex.getByRole("button", { name: "New entry" }),
    page.getByRole("button", { name: "Suggest Plot Idea" }),
  ];
  for (const control of locked) {
    await expect(control).toBeDisabled();
    await expect(control).toHaveAttribute("title", "You're offline");
    await expect(control).toHaveAccessibleDescription("You're offline");
  }
  await expect(drawnOfflineNotes(page)).toHaveCount(1);
  // Said in the header, beside the controls it is about.
  await expect(page.getByTestId("timeline-actions").getByText("You're offline", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(codex.getByText("You're offline", { exact: true })).toBeHidden();
  await shot(page, "1280-offline");

  await page.context().setOffline(false);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await expect(page.getByText("You're offline", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toBeVisible();
});
