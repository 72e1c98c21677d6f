import { openPanel, card, expect, expectNoSeriousA11yViolations, openTimeline, test, toast } from "./fixtures";

test.describe("seasons", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Reckoning" });
  test("the owner adds seasons, a scene typed 'spring 1203' reads as the season, and a conversion names lifespans", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(150_000);
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The thaw", content: "Ice breaks." });
    await openTimeline(page, timeline.id);

    // A preset without seasons, then two of the writer's own; a clash is refused inline.
    await openPanel(page, "Calendar");
    const dialog = page.getByRole("dialog", { name: "Calendar" });
    await expect(dialog.getByLabel("Season 1 name")).toHaveValue("Spring");
    await dialog.getByLabel("Start from a preset").selectOption({ label: "12 × 30 + 5" });
    await expect(dialog.getByLabel("Season 1 name")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Add season" }).click();
    await dialog.getByLabel("Season 1 name").fill("Spring");
    await dialog.getByLabel("Season 1 starts in").selectOption({ label: "From Month 3" });
    await dialog.getByRole("button", { name: "Add season" }).click();
    await dialog.getByLabel("Season 2 name").fill("spring");
    await dialog.getByLabel("Season 2 starts in").selectOption({ label: "From Month 7" });
    await dialog.getByRole("button", { name: "Save Calendar" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Two seasons cannot have the same name");
    await dialog.getByLabel("Season 2 name").fill("Rains");
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Save Calendar" }).click();
    await expect(toast(page, "Calendar saved")).toBeVisible();

    // Typed as a season: read back as it while typing, and on the card.
    await page.getByRole("button", { name: "Edit The thaw" }).click();
    const start = page.getByLabel("Story start");
    await start.fill("spring 1203");
    await expect(start).toHaveAccessibleDescription("Reads as Spring 1203 AR");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(card(page, "The thaw").getByText("Story time: Spring 1203 AR")).toBeVisible();

    // A change of structure previews the characters' born and died dates too.
    await owner.api("POST", `/api/timelines/${timeline.id}/entities`, {
      kind: "character",
      name: "Mara",
      born: "3 Month 2 1185 AR",
    });
    // Reopened, the dialog loads the calendar again; on a slow connection (here 1.5 s), what is typed meanwhile is not
    // lost to the loaded calendar: the form waits for it (a form with the last opening's calendar took the typing).
    await page.route(/\/api\/timelines\/\d+\/calendar/, async (route) => {
      if (route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await openPanel(page, "Calendar");
    await dialog.getByLabel("Month 1 days").fill("31");
    await dialog.getByRole("button", { name: "Save Calendar" }).click();
    await expect(dialog.getByText("Changing the calendar moves 1 dated scene and 1 born or died date")).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Lifespans that move" })).toContainText(
      "Mara, born: 3 Month 2 1185 AR → 3 Month 2 1185 AR",
    );
    await dialog.getByRole("button", { name: "Convert 1 scene and 1 lifespan date" }).click();
    await expect(toast(page, "Calendar saved")).toBeVisible();
    await expect(card(page, "The thaw").getByText("Story time: Spring 1203 AR")).toBeVisible();
  });
});
