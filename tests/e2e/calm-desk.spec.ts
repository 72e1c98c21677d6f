import type { Page } from "@playwright/test";
import {
  apiAs,
  chooseLayout,
  createUser,
  expect,
  layoutMenu,
  login,
  makePremium,
  openPanel,
  openTimeline,
  test,
  waitForHydration,
} from "./fixtures";

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

/** The first scene card's top edge, in the viewport. */
const firstCardTop = async (page: Page) => (await page.getByTestId("event-card").first().boundingBox())?.y ?? Number.POSITIVE_INFINITY;

/** Every visible control above the first scene card that overlaps another one (as 'A × B'). */
const overlaps = (page: Page) =>
  page.evaluate(() => {
    const first = document.querySelector('[data-testid="event-card"]')?.getBoundingClientRect().top ?? Number.POSITIVE_INFINITY;
    const controls = Array.from(document.querySelectorAll("main button, main a, main select, main input"))
      .map((el) => ({ name: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30), box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0 && box.bottom <= first);
    const found: string[] = [];
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i].box;
        const b = controls[j].box;
        const apart = a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
        if (!apart) found.push(`${controls[i].name} × ${controls[j].name}`);
      }
    }
    return found;
  });

/** How many rows the header's actions (Manuscript, Export, Share, Add Event…) take. */
const actionRows = (page: Page) =>
  page.getByTestId("timeline-actions").evaluate((el) => {
    const tops = new Set<number>();
    for (const child of Array.from(el.querySelectorAll("button, a"))) {
      const box = child.getBoundingClientRect();
      if (box.width > 0) tops.add(Math.round(box.top));
    }
    return tops.size;
  });

test("one layout menu and one Panels menu: the first scene stands above the fold at 1280 and 390 px", async ({ page, request }) => {
  const owner = await createUser(request, { name: "Calm Owner" });
  await makePremium(request, owner);
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "A Calm Desk" });
  for (const title of ["Opening", "Middle", "Ending"]) {
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} text.` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, owner);
  await page.evaluate(() => window.localStorage.removeItem("storyweave:side-panel"));
  await openTimeline(page, timeline.id);

  // The six layout buttons are one menu naming the current layout; the panels one 'Panels' menu.
  await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Vertical");
  for (const name of ["Grid", "Lanes", "Map", "Ruler", "Horizontal", "Comments", "Activity", "Reader links", "Calendar"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await layoutMenu(page).click();
  await expect(page.getByRole("menuitemradio")).toHaveText(["Vertical", "Horizontal", "Lanes", "Grid", "Ruler", "Map", "Relationships"]);
  await expect(page.getByRole("menuitemradio", { name: "Vertical" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
  await page.getByRole("button", { name: "Panels", exact: true }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Comments", "Activity", "Plotlines", "Calendar", "Reader links"]);
  await page.keyboard.press("Escape");

  // Side column open: the bar is one row and the first scene is above the fold.
  await expect(page.locator("#timeline-side-panel")).toBeVisible();
  await expect.poll(() => firstCardTop(page)).toBeLessThan(800);
  expect(await overlaps(page)).toEqual([]);
  await page.screenshot({ path: "test-results/shots/desk-1280-side-shown.png" });
  await page.getByRole("button", { name: "Hide side panel" }).click();
  await expect(page.locator("#timeline-side-panel")).toBeHidden();
  await expect.poll(() => firstCardTop(page)).toBeLessThan(800);
  expect(await overlaps(page)).toEqual([]);
  await page.screenshot({ path: "test-results/shots/desk-1280-side-hidden.png" });

  // By keyboard: the menu opens on Enter, arrows move through the layouts, Enter picks; the address keeps it.
  await layoutMenu(page).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitemradio", { name: "Vertical" })).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitemradio", { name: "Grid" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/layout=grid/);
  await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Grid");
  await chooseLayout(page, "Vertical");
  await expect(page).not.toHaveURL(/layout=/);
  // A layout stays reachable by its address.
  await page.goto(`/timeline/${timeline.id}?layout=lanes`);
  await waitForHydration(page);
  await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Lanes");
  await expect(page.getByRole("button", { name: "By character" })).toHaveAttribute("aria-pressed", "true");

  // A panel opens from the menu as its button did.
  await openPanel(page, "Activity");
  await expect(page.getByRole("dialog", { name: "Activity" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  // A phone: the header's actions take two rows at most and the first scene's top is above the fold.
  await page.setViewportSize({ width: 390, height: 844 });
  await openTimeline(page, timeline.id);
  await expect.poll(() => actionRows(page)).toBeLessThanOrEqual(2);
  await expect.poll(() => firstCardTop(page)).toBeLessThan(844);
  expect(await overlaps(page)).toEqual([]);
  await page.screenshot({ path: "test-results/shots/desk-390.png" });
});
