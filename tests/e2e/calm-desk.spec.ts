import { apiAs, createUser, expect, login, test, toast, waitForHydration } from "./fixtures";

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

test("a toast stands clear of the navigation and the help button", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Toast Reader" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  await waitForHydration(page);
  await page.getByRole("button", { name: "New Timeline" }).click();
  await page.getByRole("dialog").getByLabel("Title").fill("A calm book");
  await page.getByRole("button", { name: "Create Timeline" }).click();
  const shown = toast(page, "Timeline created successfully");
  await expect(shown).toBeVisible();
  expect(await apiAs<unknown[]>(request, writer, "GET", "/api/timelines")).toHaveLength(1);
  const box = await shown.boundingBox();
  const nav = await page.getByRole("navigation").first().boundingBox();
  if (!box || !nav) throw new Error("toast or navigation not laid out");
  // Below the navigation and any toolbar under it: in the lower half of the window, on the left.
  expect(box.y).toBeGreaterThan(400);
  expect(box.x + box.width).toBeLessThan(1280 / 2 + 100);
  await page.screenshot({ path: "test-results/shots/toast-1280.png" });
});
