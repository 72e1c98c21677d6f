import { card, expect, expectNoSeriousA11yViolations, openTimeline, test, toast } from "./fixtures";

import { FROST_THAW_SUN, reckoningCalendar } from "../fixtures/calendars";

const FANTASY = reckoningCalendar(FROST_THAW_SUN.slice(0, 2));

test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Reckoning" });

test.describe("calendars", () => {
  test("a scene dated in a fantasy calendar's words reads in words; a bad date names an example", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    await owner.api("PUT", `/api/timelines/${timeline.id}/calendar`, FANTASY);
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The siege", content: "Walls fall." });
    await openTimeline(page, `/timeline/${timeline.id}`);

    await page.getByRole("button", { name: "Edit The siege" }).click();
    const start = page.getByLabel("Story start");
    await start.fill("13 October 2031");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Story start must be a date like 14 Frostmoon 1203 AR")).toBeVisible();

    await start.fill("14 Frostmoon 1203 AR");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(card(page, "The siege").getByText("Story time: 14 Frostmoon 1203 AR")).toBeVisible();

    await openTimeline(page, `/timeline/${timeline.id}`);
    await expect(card(page, "The siege").getByText("Story time: 14 Frostmoon 1203 AR")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
