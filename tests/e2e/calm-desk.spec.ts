import { apiAs, createUser, expect, login, openTimeline, test, waitForHydration } from "./fixtures";

test("Import stands next to New Timeline on the home page", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Calm Desk" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  await waitForHydration(page);
  const importButton = page.getByRole("button", { name: "Import" });
  const newTimeline = page.getByRole("button", { name: "New Timeline" });
  await expect(importButton).toBeVisible();
  await expect(newTimeline).toBeVisible();
  // Neighbours in the heading's actions: nothing between them.
  const adjacent = await importButton.evaluate((el) => {
    const next = el.nextElementSibling;
    return next?.textContent?.includes("New Timeline") ?? false;
  });
  expect(adjacent).toBe(true);
  await page.screenshot({ path: "test-results/shots/home-1280.png" });
});

test("the side column hides, the timeline takes the full width, and it stays hidden over a reload", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Side Panel" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Wide Desk" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "First scene", content: "It begins." });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  await openTimeline(page, timeline.id);
  await waitForHydration(page);
  const events = page.getByRole("region", { name: "Timeline events" });
  const narrow = (await events.boundingBox())?.width ?? 0;
  const hide = page.getByRole("button", { name: "Hide side panel" });
  await expect(hide).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: "test-results/shots/timeline-1280-side-shown.png" });
  await hide.click();
  const show = page.getByRole("button", { name: "Show side panel" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator("#timeline-side-panel")).toBeHidden();
  await expect.poll(async () => (await events.boundingBox())?.width ?? 0).toBeGreaterThan(narrow + 300);
  const top = (await page.getByTestId("event-card").first().boundingBox())?.y ?? Number.POSITIVE_INFINITY;
  // The first scene stands above the fold.
  expect(top).toBeLessThan(800);
  await page.screenshot({ path: "test-results/shots/timeline-1280-side-hidden.png" });

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Show side panel" })).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator("#timeline-side-panel")).toBeHidden();
  await page.getByRole("button", { name: "Show side panel" }).click();
  await expect(page.locator("#timeline-side-panel")).toBeVisible();
  await expect(page.getByRole("button", { name: "Hide side panel" })).toHaveAttribute("aria-expanded", "true");
  // A phone keeps the column below the scenes and has no toggle.
  await page.getByRole("button", { name: "Hide side panel" }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("button", { name: "Show side panel" })).toBeHidden();
  await expect(page.locator("#timeline-side-panel")).toBeVisible();
  await page.screenshot({ path: "test-results/shots/timeline-390.png" });
});
