import { createUser, expect, login, test, waitForHydration } from "./fixtures";

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
