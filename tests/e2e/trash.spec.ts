import { cardTitles, expect, expectNoSeriousA11yViolations, openHome, openTimeline, test, toast, waitForHydration } from "./fixtures";

test.describe("trash", () => {
  test.use({ timelineTitle: "The Drowned Bell" });
  test("a deleted scene goes to Trash, is restored there, and is back on the timeline; Undo restores a deleted scene and a deleted timeline", async ({
    page,
    writer,
    timeline,
  }) => {
    for (const title of ["Arrival", "Storm", "Rescue"]) {
      await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} happens.` });
    }
    await openTimeline(page, timeline.id);

    await page.getByRole("button", { name: "Delete Storm" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("will move to Trash");
    await confirm.getByRole("button", { name: "Delete Event" }).click();
    // SPEC's words exactly, the Trash note on a line of its own.
    const deleted = toast(page, "Event deleted successfully");
    await expect(deleted.locator("[data-toast-message]")).toHaveText(/^Event deleted successfully$/);
    await expect(deleted).toContainText("It stays in Trash for 30 days.");
    await expect(cardTitles(page)).toHaveText(["Arrival", "Rescue"]);

    await page.goto("/trash");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Trash", level: 1 })).toBeVisible();
    await expect(page.getByText("stay here for 30 days, then they are deleted for good")).toBeVisible();
    const entry = page.getByRole("listitem").filter({ hasText: "Storm" });
    await expect(entry).toContainText("in The Drowned Bell");
    await expect(entry).toContainText(/Deleted by .+ just now/);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 390, height: 800 });
    await expectNoSeriousA11yViolations(page);
    await entry.getByRole("button", { name: "Restore scene Storm" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Restored “Storm”." })).toBeVisible();
    await expect(page.getByText("Trash is empty.")).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 800 });
    await openTimeline(page, timeline.id);
    await expect(cardTitles(page)).toHaveText(["Arrival", "Storm", "Rescue"]);

    // Undo on a scene's delete toast brings it straight back, in its place.
    await page.getByRole("button", { name: "Delete Rescue" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Event" }).click();
    await expect(cardTitles(page)).toHaveText(["Arrival", "Storm"]);
    await toast(page, "Event deleted successfully").getByRole("button", { name: "Undo" }).click();
    await expect(cardTitles(page)).toHaveText(["Arrival", "Storm", "Rescue"]);

    // Deleting a timeline: Undo on the toast brings it straight back.
    await openHome(page);
    await page.getByRole("button", { name: "Delete The Drowned Bell" }).click();
    const sure = page.getByRole("alertdialog", { name: "Are you sure?" });
    await expect(sure).toContainText("move the timeline and all its events to Trash");
    await sure.getByRole("button", { name: "Delete Timeline" }).click();
    const moved = toast(page, "Timeline deleted successfully");
    await expect(moved.locator("[data-toast-message]")).toHaveText(/^Timeline deleted successfully$/);
    await expect(moved).toContainText("It stays in Trash for 30 days.");
    await expect(page.getByRole("region", { name: "Your timelines" }).getByText("The Drowned Bell")).toHaveCount(0);
    await moved.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByRole("region", { name: "Your timelines" }).getByText("The Drowned Bell")).toBeVisible();
  });
});
