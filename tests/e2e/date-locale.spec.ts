import { card, expect, openTimeline, test, toast } from "./fixtures";

// The browser asks in German (Playwright sends Accept-Language from the context's locale).
test.use({ locale: "de-DE" });

test.describe("story dates in the writer's locale", () => {
  test.use({ writerOptions: { name: "Greta Owner", premium: false }, timelineTitle: "Der Brief" });
  test("a German writer reads scene dates in German, types one in German and sees it read back, with no hydration mismatch", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    const warnings: string[] = [];
    page.on("console", (msg) => {
      if (/hydrat|#418|#425/i.test(msg.text())) warnings.push(msg.text());
    });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The letter arrives",
      content: "A letter.",
      storyStart: "2031-10-13T09:00",
    });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The siege", content: "Walls fall." });
    await openTimeline(page, timeline.id);

    await expect(card(page, "The letter arrives").getByText("Story time: 13. Oktober 2031 um 09:00")).toBeVisible();

    await page.getByRole("button", { name: "Edit The siege" }).click();
    const start = page.getByLabel("Story start");
    await start.fill("13. Oktober 2031");
    await expect(start).toHaveAccessibleDescription("Reads as Montag, 13. Oktober 2031");
    await start.fill("14. Okt. 2031 um 21:30");
    await expect(start).toHaveAccessibleDescription("Reads as Dienstag, 14. Oktober 2031 um 21:30");
    // The English forms still read.
    await start.fill("13 October 2031");
    await expect(start).toHaveAccessibleDescription("Reads as Montag, 13. Oktober 2031");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(card(page, "The siege").getByText("Story time: 13. Oktober 2031")).toBeVisible();

    // A reload renders the same words on the server as the browser does.
    await openTimeline(page, timeline.id);
    await expect(card(page, "The siege").getByText("Story time: 13. Oktober 2031")).toBeVisible();
    expect(warnings).toEqual([]);
  });
});
