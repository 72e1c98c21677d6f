import type { Page } from "@playwright/test";
import {
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  screenshot,
  test,
  waitForHydration,
  card,
  cardTitles,
  openTimeline,
  toast,
  writerPage,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

import type { EventRow } from "./types";

const codexPanel = (page: Page) => page.getByRole("region", { name: "Codex" });
async function newEntry(page: Page, kind: "Character" | "Place" | "Thing", name: string, aliases = "") {
  await codexPanel(page).getByRole("button", { name: "New entry" }).click();
  const dialog = page.getByRole("dialog", { name: "New codex entry" });
  await dialog.getByLabel("Kind").selectOption({ label: kind });
  await dialog.getByLabel("Name").fill(name);
  if (aliases) await dialog.getByLabel("Aliases").fill(aliases);
  await dialog.getByRole("button", { name: "Create Entry" }).click();
  await expect(toast(page, "Codex entry created")).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

test.describe("the codex and story time", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Salt Road" });
  test("codex entries, links, POV, story dates, chronological order and the entity filter", async ({ page, writer: owner, timeline }) => {
    test.setTimeout(180_000);
    for (const title of ["Departure", "The Ambush", "Homecoming"]) {
      await owner.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} happens.` });
    }
    await openTimeline(page, `/timeline/${timeline.id}`);

    // The panel: two characters and a place; a blank name gets the server's message.
    await codexPanel(page).getByRole("button", { name: "New entry" }).click();
    await page.getByRole("dialog", { name: "New codex entry" }).getByRole("button", { name: "Create Entry" }).click();
    await expect(toast(page, "Name is required")).toBeVisible();
    await page.keyboard.press("Escape");
    await newEntry(page, "Character", "Mara", "The Captain");
    await newEntry(page, "Character", "Tobin");
    await newEntry(page, "Place", "Saltmere");
    const panel = codexPanel(page);
    await expect(panel.getByRole("list", { name: "Characters" }).getByTestId("codex-entry")).toHaveCount(2);
    await expect(panel.getByRole("list", { name: "Places" }).getByTestId("codex-entry")).toHaveCount(1);
    await panel.getByLabel("Search the codex").fill("capt");
    await expect(panel.getByTestId("codex-entry")).toHaveCount(1);
    await expect(panel.getByTestId("codex-entry")).toContainText("Mara");
    await panel.getByLabel("Search the codex").fill("");

    // Edit an entry through the same dialog.
    await panel.getByRole("button", { name: "Edit Tobin" }).click();
    const edit = page.getByRole("dialog", { name: "Edit codex entry" });
    await edit.getByLabel("Description").fill("A ferryman who owes Mara.");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page, "Codex entry updated")).toBeVisible();
    await expect(panel.getByText("A ferryman who owes Mara.")).toBeVisible();

    // Link through the picker (one new character made from it), a POV and story dates.
    await page.getByRole("button", { name: "Edit The Ambush" }).click();
    const picker = page.getByRole("combobox", { name: "Codex links" });
    await picker.fill("mar");
    await expect(page.getByRole("listbox", { name: "Codex entries" }).getByRole("option", { name: /Mara/ })).toBeVisible();
    await picker.press("Enter");
    await picker.fill("Salt");
    await picker.press("Enter");
    await picker.fill("Iska");
    await page.getByRole("option", { name: 'Create character "Iska"' }).click();
    await expect(toast(page, "Codex entry created")).toBeVisible();
    const editing = page.getByTestId("event-card").filter({ has: page.getByRole("combobox", { name: "Codex links" }) });
    await expect(editing.getByRole("list", { name: "Linked codex entries" }).getByRole("listitem")).toHaveText([
      "Mara",
      "Saltmere",
      "Iska",
    ]);
    await editing.getByLabel("Point of view").selectOption({ label: "Mara" });
    await editing.getByLabel("Story start").fill("2024-03-20");
    await editing.getByLabel("Story end").fill("2024-03-15");
    await editing.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "End must not be before start")).toBeVisible();
    await editing.getByLabel("Story end").fill("2024-03-22");
    await editing.getByLabel("Story label").fill("Day 3, dusk");
    await editing.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Codex links" })).toHaveCount(0);

    // Homecoming gets an earlier date and Tobin; Departure stays undated.
    await page.getByRole("button", { name: "Edit Homecoming" }).click();
    await page.getByRole("combobox", { name: "Codex links" }).fill("Tob");
    await page.getByRole("combobox", { name: "Codex links" }).press("Enter");
    await page.getByLabel("Story start").fill("2024-03-01");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("combobox", { name: "Codex links" })).toHaveCount(0);

    // After a reload: chips (POV marked) and the story time line.
    await openTimeline(page, `/timeline/${timeline.id}`);
    const ambush = card(page, "The Ambush");
    await expect(ambush.getByText("Story time: 20 March 2024 – 22 March 2024 · Day 3, dusk")).toBeVisible();
    await expect(ambush.getByTestId("entity-chip")).toHaveCount(3);
    await expect(ambush.getByRole("button", { name: "Mara (POV)" })).toBeVisible();
    await expect(cardTitles(page)).toHaveText(["Departure", "The Ambush", "Homecoming"]);
    await screenshot(page, "codex-timeline-1280");
    await expectNoSeriousA11yViolations(page);

    // Chronological: by story start, the undated after an 'Undated' heading; no dragging.
    await page.getByRole("button", { name: "Chronological" }).click();
    await expect(page).toHaveURL(/order=chronological/);
    await expect(cardTitles(page)).toHaveText(["Homecoming", "The Ambush", "Departure"]);
    await expect(page.getByRole("heading", { name: "Undated" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Reorder Departure" })).toHaveCount(0);
    await expect(page.getByText("Switch to Story order to reorder events by dragging.")).toBeVisible();
    await page.reload();
    await waitForHydration(page);
    await expect(cardTitles(page)).toHaveText(["Homecoming", "The Ambush", "Departure"]);
    await page.getByRole("button", { name: "Story order" }).click();
    await expect(cardTitles(page)).toHaveText(["Departure", "The Ambush", "Homecoming"]);

    // A chip filters the timeline to that entity's events.
    await card(page, "Homecoming").getByRole("button", { name: "Tobin" }).click();
    await expect(page).toHaveURL(/entity=\d+/);
    await expect(page.getByRole("list", { name: "Filtered by" }).getByRole("listitem")).toHaveText(["Tobin"]);
    await expect(cardTitles(page)).toHaveText(["Homecoming"]);
    await page.getByRole("button", { name: "Remove Tobin from the filter" }).click();
    await expect(cardTitles(page)).toHaveText(["Departure", "The Ambush", "Homecoming"]);

    // Delete (owner): its chips go too.
    await panel.getByRole("button", { name: "Delete Tobin" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Entry" }).click();
    await expect(toast(page, "Codex entry deleted")).toBeVisible();
    await expect(card(page, "Homecoming").getByTestId("entity-chip")).toHaveCount(0);

    // Phones.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(panel).toBeVisible();
    await screenshot(page, "codex-timeline-390");
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Olive Owner", premium: true } });
    test("a viewer reads the codex without controls; a collaborator's edit reaches the owner live", async ({
      page,
      browser,
      request,
      writer: owner,
      timeline,
    }) => {
      const event = await owner.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
        title: "Departure",
        content: "x",
      });
      const mara = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, {
        kind: "character",
        name: "Mara",
      });
      await owner.api("PATCH", `/api/events/${event.id}`, { entityIds: [mara.id], storyStart: "2024" });
      const viewer = await createUser(request, { name: "Vera Viewer" });
      const collab = await createUser(request, { name: "Cole Collab" });
      await shareWith(request, owner, timeline.id, viewer, "viewer");
      await shareWith(request, owner, timeline.id, collab, "collaborator");

      const v = await writerPage(browser, viewer, timeline.id);
      await expect(codexPanel(v.page).getByText("Mara")).toBeVisible();
      await expect(card(v.page, "Departure").getByText("Story time: 2024")).toBeVisible();
      for (const name of ["New entry", "Edit Mara", "Delete Mara"]) {
        await expect(v.page.getByRole("button", { name, exact: true })).toHaveCount(0);
      }
      await v.context.close();

      await openTimeline(page, `/timeline/${timeline.id}`);
      const c = await writerPage(browser, collab, timeline.id);
      await expect(codexPanel(c.page).getByRole("button", { name: "Delete Mara" })).toHaveCount(0);
      await codexPanel(c.page).getByRole("button", { name: "Edit Mara" }).click();
      const dialog = c.page.getByRole("dialog", { name: "Edit codex entry" });
      await dialog.getByLabel("Name").fill("Mara Vell");
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await expect(toast(c.page, "Codex entry updated")).toBeVisible();
      // The owner sees it without a reload: in the panel and on the card's chip.
      await expect(codexPanel(page).getByText("Mara Vell")).toBeVisible();
      await expect(card(page, "Departure").getByRole("button", { name: "Mara Vell" })).toBeVisible();
      await c.context.close();
    });
  });
});
