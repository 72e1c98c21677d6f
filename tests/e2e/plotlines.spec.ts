import { openPanel, card, cardTitles, expect, expectNoSeriousA11yViolations, openTimeline, test, toast } from "./fixtures";

test.describe("plotlines on the timeline screen", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "Two Threads" });
  test("a writer adds two plotlines, tags a scene, sees its chips, filters by plotline, and a reload keeps the filter", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(90_000);
    for (const title of ["Heist", "Interlude", "Kiss"]) {
      await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} happens.` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await openTimeline(page, timeline.id);

    // The manager: two plotlines, the second recolored; a blank title is refused in the product's words.
    await openPanel(page, "Plotlines");
    const dialog = page.getByRole("dialog", { name: "Plotlines" });
    await dialog.getByRole("button", { name: "Add plotline" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Plotline title is required");
    await dialog.getByLabel("New plotline").fill("Main plot");
    await dialog.getByRole("button", { name: "Add plotline" }).click();
    await expect(dialog.getByTestId("plotline-row")).toHaveCount(1);
    await dialog.getByLabel("New plotline").fill("Romance");
    await dialog.getByRole("button", { name: "Add plotline" }).click();
    await expect(dialog.getByTestId("plotline-row")).toHaveCount(2);
    const romanceRow = dialog.getByTestId("plotline-row").nth(1);
    await romanceRow.getByRole("button", { name: "Pink" }).click();
    await expect(romanceRow.getByRole("button", { name: "Pink" })).toHaveAttribute("aria-pressed", "true");
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    // Tag two scenes in the edit form.
    await page.getByRole("button", { name: "Edit Heist" }).click();
    await page.getByRole("checkbox", { name: "Main plot" }).check();
    await page.getByRole("checkbox", { name: "Romance" }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Main plot" })).toHaveCount(0);
    await page.getByRole("button", { name: "Edit Kiss" }).click();
    await page.getByRole("checkbox", { name: "Romance" }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("checkbox", { name: "Romance" })).toHaveCount(0);

    // Chips on the cards.
    await expect(card(page, "Heist").getByRole("list", { name: "Plotlines" }).getByRole("listitem")).toHaveText(["Main plot", "Romance"]);
    await expect(card(page, "Kiss").getByRole("list", { name: "Plotlines" }).getByRole("listitem")).toHaveText(["Romance"]);
    await expect(card(page, "Interlude").getByRole("list", { name: "Plotlines" })).toHaveCount(0);

    // The filter, in the address; a reload keeps it (and the chips come with the page).
    await page.getByLabel("Plotline", { exact: true }).selectOption({ label: "Romance" });
    await expect(cardTitles(page)).toHaveText(["Heist", "Kiss"]);
    await expect(page).toHaveURL(/[?&]plotline=\d+/);
    await page.getByLabel("Plotline", { exact: true }).selectOption({ label: "Main plot" });
    await expect(cardTitles(page)).toHaveText(["Heist"]);
    await page.reload();
    await expect(cardTitles(page)).toHaveText(["Heist"]);
    await openTimeline(page, page.url().replace(/^https?:\/\/[^/]+/, ""));
    await expect(page.getByLabel("Plotline", { exact: true })).toHaveValue(/\d+/);
    await expect(cardTitles(page)).toHaveText(["Heist"]);
    // A chip shows that plotline's scenes; 'All plotlines' shows every scene again.
    await card(page, "Heist").getByRole("button", { name: "Romance" }).click();
    await expect(cardTitles(page)).toHaveText(["Heist", "Kiss"]);
    await page.getByLabel("Plotline", { exact: true }).selectOption({ label: "All plotlines" });
    await expect(cardTitles(page)).toHaveText(["Heist", "Interlude", "Kiss"]);
    await expect(page).not.toHaveURL(/plotline=/);
  });
});
