import type { Page } from "@playwright/test";
import { chooseLayout, layoutMenu, card, expect, expectNoSeriousA11yViolations, openTimeline, screenshot, test } from "./fixtures";

import { RECKONING_ERAS, THIRTEEN_MONTHS, reckoningCalendar } from "../fixtures/calendars";

const ruler = (page: Page) => page.getByTestId("time-ruler");
const scene = (page: Page, title: string) => page.getByTestId("ruler-scene").filter({ hasText: title });
/** A scene's place on the ruler's axis (its left, in pixels of the ruler). */
const xOf = (page: Page, title: string) =>
  scene(page, title).evaluate((el) => Number.parseFloat((el.parentElement as HTMLElement).style.left));

/** Clicks a zoom button until the ruler's ticks are in `unit`; the units met on the way, in order. */
async function zoomUntil(page: Page, button: "Zoom in" | "Zoom out", unit: string) {
  const seen = [await ruler(page).getAttribute("data-unit")];
  for (let i = 0; i < 20 && seen.at(-1) !== unit; i++) {
    await page.getByRole("button", { name: button }).click();
    const now = await ruler(page).getAttribute("data-unit");
    if (now !== seen.at(-1)) seen.push(now);
  }
  expect(seen.at(-1)).toBe(unit);
  return seen;
}

test.describe("the time ruler", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Rhea Ruler", premium: false }, timelineTitle: "Story Time" });
    test("dated scenes sit at their true distance; zoom goes years → months → days; keys move and open; 390 px; axe", async ({
      page,
      writer: owner,
      timeline,
    }) => {
      test.setTimeout(150_000);
      const events = `/api/timelines/${timeline.id}/events`;
      await owner.api("POST", events, { title: "Return", content: "Home.", storyStart: "2034-05-01" });
      await owner.api("POST", events, { title: "Arrival", content: "Docks.", storyStart: "2031-10-01" });
      await owner.api("POST", events, { title: "Storm", content: "Rain.", storyStart: "2031-10-09" });
      await owner.api("POST", events, { title: "Harbor", content: "Ships.", storyStart: "2031-10-03" });
      await owner.api("POST", events, { title: "Someday", content: "Undated." });
      await openTimeline(page, `/timeline/${timeline.id}?layout=ruler`);

      await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Ruler");
      await expect(ruler(page)).toBeVisible();
      await expect(page.getByTestId("ruler-scene")).toHaveCount(4);
      await expect(page.getByRole("region", { name: "Time ruler" }).getByRole("button", { name: "Someday" })).toBeVisible();
      // In time order, whatever the story order.
      const order = await Promise.all(["Arrival", "Harbor", "Storm", "Return"].map((t) => xOf(page, t)));
      expect([...order].sort((a, b) => a - b)).toEqual(order);

      // Out to years, then in: months, then days (the ticks' words follow).
      await zoomUntil(page, "Zoom out", "year");
      await expect(page.getByTestId("ruler-tick").filter({ hasText: /^2032$/ })).toBeVisible();
      expect(await zoomUntil(page, "Zoom in", "day")).toEqual(["year", "month", "day"]);
      await expect(
        page
          .getByTestId("ruler-tick")
          .filter({ hasText: /^\d{1,2}$/ })
          .first(),
      ).toBeAttached();
      // At day scale the distances are true (2 days, then 6 more) and the years to the return are a labelled break.
      await scene(page, "Arrival").focus();
      await page.keyboard.press("Home");
      await expect(scene(page, "Arrival")).toBeFocused();
      const [arrival, harbor, storm] = await Promise.all(["Arrival", "Harbor", "Storm"].map((t) => xOf(page, t)));
      expect(harbor - arrival).toBeGreaterThan(40);
      expect((storm - arrival) / (harbor - arrival)).toBeCloseTo(4, 5);
      await expect(page.getByTestId("ruler-break").filter({ hasText: "3 years later" })).toBeVisible();

      // Live: a scene added elsewhere appears at its place.
      await owner.api("POST", events, { title: "Dawn", content: "Light.", storyStart: "2031-10-05" });
      await expect(scene(page, "Dawn")).toBeVisible();
      expect(await xOf(page, "Dawn")).toBeCloseTo(arrival + 2 * (harbor - arrival), 3);

      // Arrow keys move in time order, End to the last; − zooms out from the keyboard; Enter opens the scene.
      await scene(page, "Arrival").focus();
      await page.keyboard.press("ArrowRight");
      await expect(scene(page, "Harbor")).toBeFocused();
      await page.keyboard.press("ArrowRight");
      await expect(scene(page, "Dawn")).toBeFocused();
      await page.keyboard.press("End");
      await expect(scene(page, "Return")).toBeFocused();
      await page.keyboard.press("ArrowLeft");
      await expect(scene(page, "Storm")).toBeFocused();
      await page.keyboard.press("-");
      await page.keyboard.press("-");
      await page.keyboard.press("-");
      await expect(ruler(page)).toHaveAttribute("data-unit", "month");
      await expectNoSeriousA11yViolations(page);
      await scene(page, "Storm").focus();
      await page.keyboard.press("Enter");
      await expect(page).not.toHaveURL(/layout=ruler/);
      await expect(card(page, "Storm")).toBeVisible();

      // A phone: the ruler scrolls inside itself, the page does not.
      await page.setViewportSize({ width: 390, height: 844 });
      await openTimeline(page, `/timeline/${timeline.id}?layout=ruler`);
      await expect(page.getByTestId("ruler-scene").first()).toBeVisible();
      await ruler(page).scrollIntoViewIfNeeded();
      await expect(page.getByRole("button", { name: "Zoom in" })).toBeInViewport();
      await page.getByRole("button", { name: "Zoom in" }).click();
      await expect(page.getByTestId("ruler-scene").first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, "ruler-390");
      await expectNoSeriousA11yViolations(page);
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Moss Moons", premium: false }, timelineTitle: "Thirteen Moons" });
    test("a 13 × 28 days calendar: gaps count its days, the ruler names its months", async ({ page, writer: owner, timeline }) => {
      test.setTimeout(120_000);
      // Years after the Reckoning only.
      const calendar = reckoningCalendar(THIRTEEN_MONTHS, { eras: RECKONING_ERAS.filter((era) => era.direction === "forward") });
      await owner.api("PUT", `/api/timelines/${timeline.id}/calendar`, calendar);
      const events = `/api/timelines/${timeline.id}/events`;
      await owner.api("POST", events, { title: "The siege", content: "Walls.", storyStart: "1203-01-13" });
      await owner.api("POST", events, { title: "The thaw", content: "Water.", storyStart: "1203-02-03" });
      await owner.api("POST", events, { title: "The feast", content: "Bread.", storyStart: "1203-12-03" });
      await openTimeline(page, `/timeline/${timeline.id}?order=chronological`);
      // 15 days to the end of a 28-day Frostmoon, then 3 into Snowmoon.
      await expect(card(page, "The thaw").getByTestId("story-gap")).toHaveText("18 days later");
      await expect(card(page, "The feast").getByTestId("story-gap")).toHaveText("10 months later");

      await chooseLayout(page, "Ruler");
      await expect(page).toHaveURL(/layout=ruler/);
      await expect(page.getByTestId("ruler-scene")).toHaveCount(3);
      await zoomUntil(page, "Zoom in", "month");
      await expect(page.getByTestId("ruler-tick").filter({ hasText: /^Snowmoon$/ })).toBeAttached();
      await expect(page.getByTestId("ruler-tick").filter({ hasText: /^Ashmoon$/ })).toBeAttached();
      await expectNoSeriousA11yViolations(page);
    });
  });
});
