import { card, expect, openTimeline, test, toast } from "./fixtures";

// A story that knows itself (DESIGN.md §12): codex progressions ('From this scene on') and an entry read at a scene.

import type { EventRow, Entity } from "./types";

test.describe("a story that knows itself", () => {
  test.use({ writerOptions: { name: "Pia Progress", premium: false }, timelineTitle: "The Glass Keep" });
  test("a progression added in the codex with a scene picker shows when the entry is read from a later scene, not an earlier one", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    const scenes: EventRow[] = [];
    for (const title of ["The Gate", "The Duel", "The Crown"]) {
      scenes.push(await owner.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title}.` }));
    }
    const mara = await owner.api<Entity>("POST", `/api/timelines/${timeline.id}/entities`, {
      kind: "character",
      name: "Mara",
      description: "A knight of the keep.",
    });
    for (const scene of scenes) await owner.api("PATCH", `/api/events/${scene.id}`, { entityIds: [mara.id] });
    await openTimeline(page, timeline.id);

    // In the codex: 'From this scene on', a scene picker and the text; no scene gets the server's message.
    await page.getByRole("region", { name: "Codex" }).getByRole("button", { name: "Edit Mara" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit codex entry" });
    const section = dialog.getByRole("region", { name: "From this scene on" });
    await expect(section).toContainText("Nothing changes yet.");
    await section.getByLabel("What changes").fill("Loses her left hand");
    await section.getByRole("button", { name: "Add progression" }).click();
    await expect(toast(page, "Choose the scene it starts from")).toBeVisible();
    await section.getByLabel("From scene").selectOption({ label: "The Duel" });
    await section.getByRole("button", { name: "Add progression" }).click();
    await expect(toast(page, "Progression added")).toBeVisible();
    await expect(section.getByTestId("progression")).toHaveText([/From "The Duel" on: Loses her left hand/]);

    // Edited, it keeps its scene; a second one at an earlier scene lists first (story order).
    await section.getByRole("button", { name: 'Edit the progression from "The Duel"' }).click();
    await section.getByLabel("What changes").first().fill("Loses her sword hand");
    await section.getByRole("button", { name: "Save progression" }).click();
    await expect(toast(page, "Progression updated")).toBeVisible();
    await section.getByLabel("From scene").selectOption({ label: "The Gate" });
    await section.getByLabel("What changes").fill("Swears an oath");
    await section.getByRole("button", { name: "Add progression" }).click();
    await expect(section.getByTestId("progression")).toHaveText([
      /From "The Gate" on: Swears an oath/,
      /From "The Duel" on: Loses her sword hand/,
    ]);
    await section.getByRole("button", { name: 'Delete the progression from "The Gate"' }).click();
    await expect(toast(page, "Progression deleted")).toBeVisible();
    await expect(section.getByTestId("progression")).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    // Read from a later scene: the state then, 'As of The Crown'.
    await card(page, "The Crown")
      .getByRole("listitem")
      .filter({ hasText: "Mara" })
      .getByRole("button", { name: "As of this scene" })
      .click();
    let reading = page.getByRole("dialog", { name: "Mara" });
    await expect(reading).toContainText("As of The Crown");
    await expect(reading).toContainText("A knight of the keep.");
    await expect(reading).toContainText('From "The Duel" on: Loses her sword hand');
    await page.keyboard.press("Escape");
    await expect(reading).toHaveCount(0);

    // Read from an earlier scene: not yet.
    await card(page, "The Gate")
      .getByRole("listitem")
      .filter({ hasText: "Mara" })
      .getByRole("button", { name: "As of this scene" })
      .click();
    reading = page.getByRole("dialog", { name: "Mara" });
    await expect(reading).toContainText("As of The Gate");
    await expect(reading).toContainText("A knight of the keep.");
    await expect(reading).not.toContainText("Loses her sword hand");
  });
});
