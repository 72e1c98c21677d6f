import type { Page } from "@playwright/test";
import { chooseLayout, createUser, expect, openTimeline, test, toast, writerPage } from "./fixtures";
import { shareWith } from "./helpers/timeline";

// A story that knows itself (DESIGN.md §12), seen live: the lanes and the Map show each codex entry as of a scene
// (its progressions, by the story bible's rule), and two writers share the Relationships view as they edit it.

import type { Entity, EventRow } from "./types";

/** The lane whose header names `name`. */
const lane = (page: Page, name: string) =>
  page.getByTestId("lane").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name} ?\\d+ events?$`) }) });

/** A marker set on the page's window: still there, the page was never reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { notReloaded?: boolean }).notReloaded = true;
  });
}
const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

test.describe("a story as of its scenes", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Lena Lanes", premium: false }, timelineTitle: "The Salt Keep" });
    test("the lanes and the Map show each character and place as of the scene, and a new progression arrives live", async ({
      page,
      writer,
      timeline,
    }) => {
      test.setTimeout(150_000);
      const base = `/api/timelines/${timeline.id}`;
      const mara = await writer.api<Entity>("POST", `${base}/entities`, { kind: "character", name: "Mara" });
      const keep = await writer.api<Entity>("POST", `${base}/entities`, { kind: "place", name: "The Keep" });
      const scenes: Record<string, EventRow> = {};
      for (const title of ["The Gate", "The Duel", "The Crown"]) {
        scenes[title] = await writer.api<EventRow>("POST", `${base}/events`, { title, content: `${title}.` });
        await writer.api("PATCH", `/api/events/${scenes[title].id}`, { entityIds: [mara.id, keep.id] });
      }
      const progress = (entity: Entity, scene: string, text: string) =>
        writer.api("POST", `/api/entities/${entity.id}/progressions`, { eventId: scenes[scene].id, text });
      await progress(mara, "The Duel", "Loses an eye");
      await progress(keep, "The Gate", "Walls stand");
      await progress(keep, "The Crown", "Burnt to the ground");

      await openTimeline(page, timeline.id);
      await markPage(page);

      // Lanes by character: nothing yet at The Gate, the change where it starts, still so after.
      await chooseLayout(page, "Lanes");
      const mLane = lane(page, "Mara");
      await expect(mLane.getByRole("button")).toHaveText([
        /^The Gate$/,
        /The DuelFrom here: Loses an eye$/,
        /The CrownAs of here: Loses an eye$/,
      ]);
      // By place: the Keep's state changes twice.
      await page.getByRole("button", { name: "By place" }).click();
      await expect(lane(page, "The Keep").getByRole("button")).toHaveText([
        /The GateFrom here: Walls stand$/,
        /The DuelAs of here: Walls stand$/,
        /The CrownFrom here: Burnt to the ground$/,
      ]);

      // Another progression, recorded meanwhile (here through the API), shows without a reload.
      await progress(keep, "The Duel", "Besieged");
      await expect(lane(page, "The Keep").getByRole("button").nth(1)).toHaveText(/The DuelFrom here: Besieged$/);
      expect(await notReloaded(page)).toBe(true);

      // The Map: the whole story by default (each entry's latest state), then as of a chosen scene.
      await chooseLayout(page, "Map");
      const maraNode = page.getByRole("group", { name: "Character: Mara" });
      const keepNode = page.getByRole("group", { name: "Place: The Keep" });
      await expect(maraNode.getByTestId("map-state")).toHaveText("Loses an eye");
      await expect(keepNode.getByTestId("map-state")).toHaveText("Burnt to the ground");
      const asOf = page.getByLabel("As of scene");
      await asOf.selectOption({ label: "The Gate" });
      await expect(maraNode.getByTestId("map-state")).toHaveCount(0);
      await expect(keepNode.getByTestId("map-state")).toHaveText("Walls stand");
      await asOf.selectOption({ label: "The Duel" });
      await expect(maraNode.getByTestId("map-state")).toHaveText("Loses an eye");
      await expect(keepNode.getByTestId("map-state")).toHaveText("Besieged");
      // Selected, the entry's node reads its state in full under the map.
      await maraNode.click();
      await expect(page.getByTestId("map-selected-state")).toHaveText("As of The Duel: Loses an eye");
      expect(await notReloaded(page)).toBe(true);
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Rhea Relations", premium: true }, timelineTitle: "The Salt House" }); // sharing needs Premium
    test("owner and collaborator both in the Relationships view: one adds a relationship, the other sees it without a reload, and 'As of scene' hides it before its scene", async ({
      page,
      request,
      browser,
      writer,
      timeline,
    }) => {
      test.setTimeout(150_000);
      const collab = await createUser(request, { name: "Cora Collab" });
      const base = `/api/timelines/${timeline.id}`;
      for (const title of ["The Gate", "The Duel", "The Crown"])
        await writer.api<EventRow>("POST", `${base}/events`, { title, content: `${title}.` });
      for (const name of ["Mara", "Jon"]) await writer.api<Entity>("POST", `${base}/entities`, { kind: "character", name });
      await shareWith(request, writer, timeline.id, collab, "collaborator");

      await openTimeline(page, timeline.id);
      await chooseLayout(page, "Relationships");
      const mine = page.getByTestId("relationships-view");
      await expect(mine.getByText("No relationships here yet.")).toBeVisible();
      await markPage(page);

      const other = await writerPage(browser, collab, timeline.id);
      await chooseLayout(other.page, "Relationships");
      const theirs = other.page.getByTestId("relationships-view");
      await expect(theirs.getByText("No relationships here yet.")).toBeVisible();
      await markPage(other.page);

      // The collaborator adds 'Mara mother of Jon' from The Crown on.
      const form = theirs.getByRole("form", { name: "Add relationship" });
      await form.getByLabel("From").selectOption({ label: "Mara" });
      await form.getByLabel("Label").fill("mother of");
      await form.getByLabel("To").selectOption({ label: "Jon" });
      await form.getByLabel("Since scene").selectOption({ label: "The Crown" });
      await form.getByRole("button", { name: "Add relationship" }).click();
      await expect(toast(other.page, "Relationship added")).toBeVisible();
      await expect(theirs.getByTestId("relationship")).toHaveText(['Mara mother of Jon (from "The Crown" on)']);

      // The owner sees it appear, the page not reloaded.
      await expect(mine.getByTestId("relationship")).toHaveText(['Mara mother of Jon (from "The Crown" on)']);
      await expect(mine.getByTestId("relationship-web").locator(".react-flow__edge-text")).toHaveText(["mother of"]);
      expect(await notReloaded(page)).toBe(true);

      // As of The Duel it has not started: hidden, and counted as starting later.
      await mine.getByLabel("As of scene").selectOption({ label: "The Duel" });
      await expect(mine.getByTestId("relationship")).toHaveCount(0);
      await expect(mine.getByTestId("relationships-later")).toHaveText("1 relationship starts after The Duel.");
      await mine.getByLabel("As of scene").selectOption({ label: "The Crown" });
      await expect(mine.getByTestId("relationship")).toHaveCount(1);

      // The other way round: the owner adds one from the start; the collaborator, filtered to The Gate, sees only it.
      await theirs.getByLabel("As of scene").selectOption({ label: "The Gate" });
      await expect(theirs.getByTestId("relationship")).toHaveCount(0);
      const ownerForm = mine.getByRole("form", { name: "Add relationship" });
      await ownerForm.getByLabel("From").selectOption({ label: "Jon" });
      await ownerForm.getByLabel("Label").fill("rival of");
      await ownerForm.getByLabel("To").selectOption({ label: "Mara" });
      await ownerForm.getByRole("button", { name: "Add relationship" }).click();
      await expect(theirs.getByTestId("relationship")).toHaveText(["Jon rival of Mara"]);
      await expect(theirs.getByTestId("relationships-later")).toHaveText("1 relationship starts after The Gate.");
      expect(await notReloaded(other.page)).toBe(true);
      await other.context.close();
    });
  });
});
