import { expect, type Page, test } from "@playwright/test";
import { apiAs, createUser, signIn, openTimeline } from "./fixtures";

// Write anywhere (DESIGN.md §12): the app is installable and, once a timeline was opened online, its page loads
// again with no network, from the service worker's caches. Logout deletes what the device kept of the account.
// The rest of the suite blocks service workers (playwright.config.ts); this file allows them. The fixtures' `test`
// (console errors fail a test) is not used here: with no network the browser logs each failed request.
test.use({ serviceWorkers: "allow" });

const keptOnDevice = (page: Page) =>
  page.evaluate(async () => ({
    caches: (await caches.keys()).filter((name) => !name.startsWith("workbox-precache")).sort(),
    databases: (await indexedDB.databases()).map((d) => d.name ?? "").filter((name) => name.startsWith("storyweave-")),
  }));

test("the manifest names the app, starts at /timeline and brings 192 and 512 px PNG icons", async ({ request }) => {
  const res = await request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  const manifest = JSON.parse(await res.text());
  expect(manifest).toMatchObject({ name: "StoryWeave", short_name: "StoryWeave", start_url: "/timeline", display: "standalone" });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i: { sizes: string }) => i.sizes === `${size}x${size}`);
    expect(icon?.type).toBe("image/png");
    const png = await (await request.get(icon.src)).body();
    // PNG signature, then the IHDR chunk's width and height.
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  }
  const sw = await request.get("/sw.js");
  expect(sw.status()).toBe(200);
  expect(sw.headers()["content-type"]).toContain("javascript");
});

test("a timeline opened online reloads offline with its scenes and the 'Offline' badge; logout deletes the copies", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Wren Wanderer" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "On the Train" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The tunnel", content: "Dark for a minute." });

  await signIn(page, writer);
  await openTimeline(page, timeline.id);
  // The service worker takes this page over, then the page is loaded once through it (so it is kept).
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await openTimeline(page, timeline.id);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);

  await page.context().setOffline(true);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "On the Train" })).toBeVisible();
  await expect(page.getByTestId("event-card").locator("h3", { hasText: "The tunnel" })).toBeVisible();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect.poll(async () => (await keptOnDevice(page)).caches).toContain("storyweave-pages");

  // Back online the badge goes; logout deletes the kept pages and data of this account.
  await page.context().setOffline(false);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect.poll(() => keptOnDevice(page)).toEqual({ caches: [], databases: [] });
});
