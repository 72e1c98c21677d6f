import { expect, type Page, test } from "@playwright/test";
import { apiAs, createUser, login, openTimeline, waitForHydration } from "./fixtures";

// Write anywhere (DESIGN.md §12), its honest edges: what a writer sees at the limits of the device copies.
// Service workers are allowed here (the rest of the suite blocks them); see offline.spec.ts.
test.use({ serviceWorkers: "allow" });

/** Opens the timeline, waits until the service worker controls the page, then loads it once through it (so it is kept). */
async function keepOnDevice(page: Page, timelineId: number) {
  await openTimeline(page, timelineId);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await openTimeline(page, timelineId);
}

test("an empty timeline reloaded offline shows its empty list and the 'Offline' badge, and stays so", async ({ page, request }) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Eve Empty" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Blank Pages" });
  await login(page, writer);
  await keepOnDevice(page, timeline.id);

  await page.context().setOffline(true);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "Blank Pages" })).toBeVisible();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  // Past the empty list's second look (500 ms) and a window focus: still the timeline, not an error page.
  await page.waitForTimeout(1_500);
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await page.waitForTimeout(500);
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Blank Pages" })).toBeVisible();
  await expect(page.getByTestId("event-card")).toHaveCount(0);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await page.context().setOffline(false);
});
