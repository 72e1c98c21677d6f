import { apiAs, card, createUser, expect, expectNoSeriousA11yViolations, signIn, openTimeline, test, toast } from "./fixtures";

import { FROST_THAW_SUN, reckoningCalendar } from "../fixtures/calendars";
import type { Timeline } from "./types";

const FANTASY = reckoningCalendar(FROST_THAW_SUN.slice(0, 2));

test.describe("calendars", () => {
  test("a scene dated in a fantasy calendar's words reads in words; a bad date names an example", async ({ page, request }) => {
    test.setTimeout(120_000);
    const owner = await createUser(request, { name: "Olive Owner" });
    const timeline = await apiAs<Timeline>(request, owner, "POST", "/api/timelines", { title: "The Reckoning" });
    await apiAs(request, owner, "PUT", `/api/timelines/${timeline.id}/calendar`, FANTASY);
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "The siege", content: "Walls fall." });
    await signIn(page, owner);
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
