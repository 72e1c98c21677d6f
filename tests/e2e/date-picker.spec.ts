import { card, expect, expectNoSeriousA11yViolations, openTimeline, screenshot, test, toast } from "./fixtures";

import { PRESETS } from "../../db/domain/calendar";
import { THIRTEEN_MONTHS, reckoningCalendar } from "../fixtures/calendars";

// The product's 13 × 28 days preset (every month starts on a Moonday), counted before and after the Reckoning.
const MOONS = reckoningCalendar(THIRTEEN_MONTHS, { weekdays: PRESETS.thirteen.calendar.weekdays });

test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Reckoning" });

test.describe("the date picker", () => {
  test("a writer dates a scene from the calendar by mouse and by keyboard, at 390 px", async ({ page, writer: owner, timeline }) => {
    test.setTimeout(120_000);
    await owner.api("PUT", `/api/timelines/${timeline.id}/calendar`, MOONS);
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The letter arrives",
      content: "A letter.",
      storyStart: "1203-01-14T09:00",
    });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The siege", content: "Walls fall." });
    await page.setViewportSize({ width: 390, height: 844 });
    await openTimeline(page, timeline.id);

    // By mouse: an undated scene's picker opens at the month of the dated scene beside it.
    await page.getByRole("button", { name: "Edit The siege" }).click();
    await page.getByRole("button", { name: "Choose story start from the calendar" }).click();
    const picker = page.getByRole("dialog", { name: "Choose story start" });
    await expect(picker.getByRole("heading", { name: "Frostmoon 1203 AR" })).toBeVisible();
    await expect(picker.getByRole("columnheader")).toHaveText(["Moo", "Tid", "Win", "Thu", "Fir", "Sta", "Sun"]);
    await picker.getByRole("button", { name: "Next month" }).click();
    await expect(picker.getByRole("heading", { name: "Snowmoon 1203 AR" })).toBeVisible();
    await expect(picker.getByRole("gridcell")).toHaveCount(28);
    await expectNoSeriousA11yViolations(page);
    // Looked at: the month fits a phone, nothing runs off the screen.
    const box = await picker.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await screenshot(page, "date-picker-390");
    await picker.getByRole("gridcell", { name: "Starday, 20 Snowmoon 1203 AR" }).click();
    await expect(picker).toHaveCount(0);
    const start = page.getByLabel("Story start");
    await expect(start).toHaveValue("20 Snowmoon 1203 AR");
    await expect(start).toHaveAccessibleDescription("Reads as Starday, 20 Snowmoon 1203 AR");
    await expect(page.getByRole("button", { name: "Choose story start from the calendar" })).toBeFocused();

    // By keyboard: the end's picker opens at the start, on its day; a time already typed is kept.
    const end = page.getByLabel("Story end");
    await end.fill("3 Snowmoon 1203 AR, 21:00");
    const endButton = page.getByRole("button", { name: "Choose story end from the calendar" });
    await endButton.focus();
    await page.keyboard.press("Enter");
    const endPicker = page.getByRole("dialog", { name: "Choose story end" });
    await expect(endPicker.getByRole("gridcell", { name: "Windday, 3 Snowmoon 1203 AR" })).toBeFocused();
    await expect(endPicker.getByRole("gridcell", { name: "Windday, 3 Snowmoon 1203 AR" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    await expect(endPicker.getByRole("gridcell", { name: "Thunderday, 11 Snowmoon 1203 AR" })).toBeFocused();
    await page.keyboard.press("End");
    await expect(endPicker.getByRole("gridcell", { name: "Sunday, 14 Snowmoon 1203 AR" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Home");
    await expect(endPicker.getByRole("gridcell", { name: "Moonday, 15 Snowmoon 1203 AR" })).toBeFocused();
    await page.keyboard.press("PageDown");
    await expect(endPicker.getByRole("heading", { name: "Thawmoon 1203 AR" })).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("PageUp");
    await page.keyboard.press("Shift+PageDown");
    await page.keyboard.press("Shift+PageUp");
    await expect(endPicker.getByRole("gridcell", { name: "Sunday, 14 Snowmoon 1203 AR" })).toBeFocused();
    // Escape closes without a change and gives focus back to the button.
    await page.keyboard.press("Escape");
    await expect(endPicker).toHaveCount(0);
    await expect(endButton).toBeFocused();
    await expect(end).toHaveValue("3 Snowmoon 1203 AR, 21:00");
    await page.keyboard.press("Enter");
    await expect(endPicker.getByRole("gridcell", { name: "Windday, 3 Snowmoon 1203 AR" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press(" ");
    await expect(endPicker).toHaveCount(0);
    await expect(end).toHaveValue("24 Snowmoon 1203 AR, 21:00");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(card(page, "The siege").getByText("Story time: 20 Snowmoon 1203 AR – 24 Snowmoon 1203 AR, 21:00")).toBeVisible();
  });

  test("Born is picked across the era boundary in the codex dialog and reads in words when reopened", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(90_000);
    await owner.api("PUT", `/api/timelines/${timeline.id}/calendar`, MOONS);
    const mara = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, {
      kind: "character",
      name: "Mara",
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await openTimeline(page, timeline.id);

    await page.getByRole("region", { name: "Codex" }).getByRole("button", { name: "Edit Mara" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit codex entry" });
    // Nothing dated yet: the picker opens at the first year after the Reckoning; a month back is the year before it.
    await dialog.getByRole("button", { name: "Choose birth date from the calendar" }).click();
    const picker = page.getByRole("dialog", { name: "Choose birth date" });
    await expect(picker.getByRole("heading", { name: "Frostmoon 1 AR" })).toBeVisible();
    await picker.getByRole("button", { name: "Previous month" }).click();
    await expect(picker.getByRole("heading", { name: "Darkmoon 1 BR" })).toBeVisible();
    await picker.getByRole("button", { name: "Previous year" }).click();
    await expect(picker.getByRole("heading", { name: "Darkmoon 2 BR" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "date-picker-codex-390");
    await picker.getByRole("gridcell", { name: /, 3 Darkmoon 2 BR$/ }).click();
    await expect(picker).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Born")).toHaveValue("3 Darkmoon 2 BR");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page, "Codex entry updated")).toBeVisible();
    const codex = await owner.api<Array<{ id: number; born: string }>>("GET", `/api/timelines/${timeline.id}/entities`);
    expect(codex.find((e) => e.id === mara.id)?.born).toBe("-1-13-03");

    // Reopened: the date in words, as it was picked; an edit elsewhere does not send it again.
    await page.getByRole("region", { name: "Codex" }).getByRole("button", { name: "Edit Mara" }).click();
    await expect(dialog.getByLabel("Born")).toHaveValue("3 Darkmoon 2 BR");
    await expect(dialog.getByLabel("Born")).toHaveAccessibleDescription("Reads as Windday, 3 Darkmoon 2 BR");
    await dialog.getByLabel("Description").fill("Born before the Reckoning.");
    const patch = page.waitForRequest((r) => r.method() === "PATCH" && r.url().includes(`/api/entities/${mara.id}`));
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    expect((await patch).postDataJSON()).not.toHaveProperty("born");
    await expect(toast(page, "Codex entry updated")).toBeVisible();
  });
});
