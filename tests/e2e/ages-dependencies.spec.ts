import { card, expect, expectNoSeriousA11yViolations, openTimeline, test, toast } from "./fixtures";

import type { EventRow as Ev } from "./types";

test.describe("ages and dependencies", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "Lifelines" });
  test("a writer sets a character's birth, sees her age on a dated scene, and a broken dependency flagged", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(90_000);
    const mara = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, {
      kind: "character",
      name: "Mara",
    });
    const letter = await owner.api<Ev>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The letter arrives",
      content: "A letter.",
      storyStart: "2031-10-12",
    });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The reply",
      content: "She writes back.",
      storyStart: "2031-10-11",
      entityIds: [mara.id],
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await openTimeline(page, timeline.id);

    // Born, in the codex dialog.
    await page.getByRole("region", { name: "Codex" }).getByRole("button", { name: "Edit Mara" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit codex entry" });
    await dialog.getByLabel("Born").fill("2014-05-10");
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page, "Codex entry updated")).toBeVisible();

    // The reply depends on the letter, in the edit form's 'After'.
    await page.getByRole("button", { name: "Edit The reply" }).click();
    await page
      .getByRole("group", { name: "After" })
      .getByRole("checkbox", { name: /The letter arrives/ })
      .check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(page.getByRole("group", { name: "After" })).toHaveCount(0);

    // Chronological: her age on the chip, and the reply (dated before the letter it follows) flagged.
    await page.getByRole("button", { name: "Chronological" }).click();
    const reply = card(page, "The reply");
    await expect(reply.getByTestId("entity-chip")).toHaveText("Mara (17)");
    await expect(reply.getByRole("list", { name: "Continuity" })).toHaveText("Comes before The letter arrives, which it follows");
    await expect(card(page, "The letter arrives").getByRole("list", { name: "Continuity" })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Fixed by dating the reply after the letter: the flag goes.
    await owner.api("PATCH", `/api/events/${letter.id}`, { storyStart: "2031-10-10" });
    await expect(reply.getByRole("list", { name: "Continuity" })).toHaveCount(0);
    await expect(reply.getByTestId("entity-chip")).toHaveText("Mara (17)");
  });
});
