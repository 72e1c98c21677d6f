import { openPanel, card, expect, expectNoSeriousA11yViolations, openTimeline, test, toast } from "./fixtures";

test.describe("the Calendar dialog", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Reckoning" });
  test("a fantasy writer picks and edits a calendar with two eras, converts a dated scene, and dates a scene in words", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(150_000);
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The letter arrives",
      content: "A letter.",
      storyStart: "2031-10-13T09:00",
    });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The siege", content: "Walls fall." });
    await page.setViewportSize({ width: 390, height: 844 });
    await openTimeline(page, timeline.id);

    // A preset to start from, then the writer's own changes: one month fewer, the second era renamed.
    await openPanel(page, "Calendar");
    const dialog = page.getByRole("dialog", { name: "Calendar" });
    await dialog.getByLabel("Start from a preset").selectOption({ label: "13 × 28 days" });
    await expect(dialog.getByLabel("Month 1 name")).toHaveValue("Frostmoon");
    await dialog.getByRole("button", { name: "Remove month 13" }).click();
    await expect(dialog.getByLabel("Month 13 name")).toHaveCount(0);
    await dialog.getByLabel("Era 2 name").fill("Age of Reckoning");
    await expect(dialog.getByLabel("Era 1 abbreviation")).toHaveValue("BR");
    await expect(dialog.getByLabel("Era 2 abbreviation")).toHaveValue("AR");

    // The server's refusal, inline.
    await dialog.getByLabel("Hours per day").fill("0");
    await dialog.getByRole("button", { name: "Save Calendar" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Hours per day must be a whole number from 1 to 100");
    await expectNoSeriousA11yViolations(page);
    // Usable at 390 px: nothing in the dialog runs off its side.
    const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await dialog.getByLabel("Hours per day").fill("24");
    await dialog.getByRole("button", { name: "Save Calendar" }).click();

    // A dated scene moves: the preview first, then the conversion.
    await expect(dialog.getByText("Changing the calendar moves 1 dated scene")).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Scenes that move" })).toContainText(
      "The letter arrives: 13 October 2031, 9:00 → 13 Leafmoon 2031 AR, 9:00",
    );
    await dialog.getByRole("button", { name: "Convert 1 scene" }).click();
    await expect(toast(page, "Calendar saved")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(card(page, "The letter arrives").getByText("Story time: 13 Leafmoon 2031 AR, 9:00")).toBeVisible();

    // Dating a scene in the calendar's words: what it reads as while typing, a refusal under the field.
    await page.getByRole("button", { name: "Edit The siege" }).click();
    const start = page.getByLabel("Story start");
    await start.fill("14 Frostmoon 1203 AR");
    await expect(page.getByText("Reads as Sunday, 14 Frostmoon 1203 AR")).toBeVisible();
    await start.fill("13 October 2031");
    await start.press("Tab");
    await expect(start).toHaveAccessibleDescription("Story start must be a date like 14 Frostmoon 1203 AR");
    await expect(start).toHaveAttribute("aria-invalid", "true");
    await start.fill("14 frostmoon 1203 ar 9am");
    await expect(start).toHaveAccessibleDescription("Reads as Sunday, 14 Frostmoon 1203 AR, 9:00");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(card(page, "The siege").getByText("Story time: 14 Frostmoon 1203 AR, 9:00")).toBeVisible();

    // Opened again, the form shows the date in words, never the stored form.
    await page.getByRole("button", { name: "Edit The siege" }).click();
    await expect(page.getByLabel("Story start")).toHaveValue("14 Frostmoon 1203 AR, 9:00");
    await expectNoSeriousA11yViolations(page);
  });
});
