import {
  chooseLayout,
  layoutMenu,
  expect,
  expectNoSeriousA11yViolations,
  screenshot,
  type Writer,
  test,
  waitForHydration,
  card,
  cardTitles,
  openTimeline,
  toast,
} from "./fixtures";

// The story model on the timeline screen: lanes, combined filters in the address, gaps and continuity
// flags in chronological order, 'Link Mara?' mentions, the picker creating places, and the Export menu.

import type { Entity, Timeline } from "./types";

/** On `timeline`: 3 characters, 2 places, 8 events with dates (two of them put Mara in two places at once). */
async function buildStory(owner: Writer, timeline: Timeline) {
  const entity = (kind: string, name: string, aliases: string[] = []): Promise<Entity> =>
    owner.api("POST", `/api/timelines/${timeline.id}/entities`, { kind, name, aliases });
  const mara = await entity("character", "Mara", ["The Captain"]);
  const ilse = await entity("character", "Ilse");
  const tobin = await entity("character", "Tobin");
  const harbor = await entity("place", "Harbor");
  const tower = await entity("place", "Tower");
  const plan: [string, string, Entity[], Entity | null, string | null][] = [
    ["Storm", "", [mara, harbor], mara, "1203-04-03"],
    ["Vigil", "", [mara, tower], null, "1203-04-03T22:00"],
    ["Letters", "", [ilse, tower], null, "1203-04-06"],
    ["The Ambush", "", [mara, ilse, harbor], ilse, "1203-04-01"],
    ["Market Day", "", [tobin, harbor], null, "1203-05"],
    ["Homecoming", "", [tobin, ilse, tower], null, "1204"],
    ["Dreams", "The Captain dreams of the sea.", [], null, null],
    ["Epilogue", "", [tobin], null, null],
  ];
  for (const [title, content, links, pov, date] of plan) {
    const event = await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: content || title });
    if (links.length || date) {
      await owner.api("PATCH", `/api/events/${event.id}`, {
        entityIds: links.map((l) => l.id),
        povEntityId: pov?.id ?? null,
        storyStart: date,
      });
    }
  }
}

test.describe("the story model on the timeline screen", () => {
  test.use({ timelineTitle: "The Salt Road" });
  test("chronological gaps and continuity flags, combined filters kept in the address", async ({ page, writer, timeline }) => {
    await buildStory(writer, timeline);
    await openTimeline(page, `/timeline/${timeline.id}`);
    await expect(cardTitles(page)).toHaveCount(8);

    // Chronological: the gaps between dated scenes, and Mara in two places at once flagged on both.
    await page.getByRole("button", { name: "Chronological" }).click();
    await expect(cardTitles(page)).toHaveText([
      "The Ambush",
      "Storm",
      "Vigil",
      "Letters",
      "Market Day",
      "Homecoming",
      "Dreams",
      "Epilogue",
    ]);
    await expect(card(page, "Storm").getByTestId("story-gap")).toHaveText("2 days later");
    await expect(card(page, "Vigil").getByTestId("story-gap")).toHaveText("Overlaps");
    // Dated to the day after a timed scene: counted in calendar days (the 3rd at night → the 6th), never in hours.
    await expect(card(page, "Letters").getByTestId("story-gap")).toHaveText("3 days later");
    await expect(card(page, "Homecoming").getByTestId("story-gap")).toHaveText("8 months later");
    await expect(card(page, "Storm").getByRole("list", { name: "Continuity" })).toHaveText("Mara is also in Tower at this time ('Vigil')");
    await expect(card(page, "Vigil").getByRole("list", { name: "Continuity" })).toHaveText("Mara is also in Harbor at this time ('Storm')");
    await expect(page.getByRole("list", { name: "Continuity" })).toHaveCount(2);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Story order" }).click();
    await expect(page.getByRole("list", { name: "Continuity" })).toHaveCount(0);

    // Text, entries (any / all), dated or not: combined, in the address, kept on reload.
    await page.getByRole("button", { name: "Filters", exact: true }).click();
    const filters = page.getByRole("group", { name: "Filter events" });
    await filters.getByLabel("Filter by text").fill("storm");
    await expect(page).toHaveURL(/q=storm/);
    await expect(cardTitles(page)).toHaveText(["Storm"]);
    await filters.getByRole("button", { name: "Clear filters" }).click();
    await expect(cardTitles(page)).toHaveCount(8);
    await filters.getByLabel("Filter by codex entry").selectOption({ label: "Mara" });
    await filters.getByLabel("Filter by codex entry").selectOption({ label: "Ilse" });
    await expect(cardTitles(page)).toHaveText(["Storm", "Vigil", "Letters", "The Ambush", "Homecoming"]);
    await filters.getByRole("button", { name: "All of" }).click();
    await expect(page).toHaveURL(/match=all/);
    await expect(page.getByRole("button", { name: "Filters (2)" })).toHaveAttribute("aria-expanded", "true");
    await expect(cardTitles(page)).toHaveText(["The Ambush"]);
    await page.reload();
    await waitForHydration(page);
    await expect(cardTitles(page)).toHaveText(["The Ambush"]);
    // The parts the screen loads after hydration (chapters, plotlines, review) are in before the chips are used.
    await expect(page.getByRole("button", { name: "Panels", exact: true })).toBeEnabled();
    await expect(layoutMenu(page)).toBeEnabled();
    await expect(page.getByRole("list", { name: "Filtered by" }).getByRole("listitem")).toHaveText(["Mara", "Ilse"]);
    await page.getByRole("button", { name: "Remove Mara from the filter" }).click();
    await expect(page.getByRole("list", { name: "Filtered by" }).getByRole("listitem")).toHaveText(["Ilse"]);
    await page.getByRole("button", { name: "Remove Ilse from the filter" }).click();
    await page.getByLabel("Story dates").selectOption({ label: "Undated only" });
    await expect(page).toHaveURL(/dated=undated/);
    await expect(cardTitles(page)).toHaveText(["Dreams", "Epilogue"]);
    await page.getByLabel("Filter by text").fill("nothing like this");
    await expect(page.getByText("No events match these filters.")).toBeVisible();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(cardTitles(page)).toHaveCount(8);
    await expect(page).not.toHaveURL(/dated=|q=/);
  });

  test("lanes by character and by place, by keyboard; mentions linked; the picker creates a place; Export menu", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    await buildStory(owner, timeline);
    await openTimeline(page, `/timeline/${timeline.id}`);

    await chooseLayout(page, "Lanes");
    const lanes = page.getByRole("table", { name: "Lanes by character" });
    await expect(lanes.getByRole("rowheader")).toHaveText(["Ilse3 events", "Mara3 events", "Tobin3 events", "No character1 event"]);
    await expect(lanes.getByRole("button", { name: /^The Ambush.*POV \(point of view\)$/ })).toHaveCount(1);
    await expect(lanes.getByRole("button", { name: /^Storm.*POV \(point of view\)$/ })).toHaveCount(1);
    await expect(lanes.getByRole("button", { name: /^The Ambush/ })).toHaveCount(2);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "story-lanes-1280");

    // Keyboard: one tab stop; arrows move along a lane and across lanes to the nearest scene; Enter opens it.
    const mara = lanes.getByRole("row").nth(1);
    await lanes.getByRole("button", { name: /^Letters/ }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(
      lanes
        .getByRole("row")
        .first()
        .getByRole("button", { name: /^The Ambush.*point of view/ }),
    ).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(mara.getByRole("button", { name: /^The Ambush/ })).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(mara.getByRole("button", { name: /^Vigil/ })).toBeFocused();
    await page.keyboard.press("End");
    await expect(mara.getByRole("button", { name: /^The Ambush/ })).toBeFocused();
    await page.keyboard.press("Home");
    await expect(mara.getByRole("button", { name: /^Storm/ })).toBeFocused();
    await expect(lanes.locator("button[tabindex='0']")).toHaveCount(1);

    await page.getByRole("button", { name: "By place" }).click();
    const places = page.getByRole("table", { name: "Lanes by place" });
    await expect(places.getByRole("rowheader")).toHaveText(["Harbor3 events", "Tower3 events", "No place2 events"]);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "story-lanes-390");
    await page.setViewportSize({ width: 1280, height: 900 });
    await places.getByRole("button", { name: /^Letters/ }).press("Enter");
    await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Vertical");
    await expect(card(page, "Letters")).toBeInViewport();

    // 'Link Mara?': the alias in Dreams' text offers the link; one click makes it.
    await expect(card(page, "Dreams").getByRole("button", { name: "Link Mara?" })).toBeVisible();
    await card(page, "Dreams").getByRole("button", { name: "Link Mara?" }).click();
    await expect(toast(page, "Mara linked")).toBeVisible();
    await expect(card(page, "Dreams").getByTestId("entity-chip")).toHaveText(["Mara"]);
    await expect(card(page, "Dreams").getByRole("button", { name: "Link Mara?" })).toHaveCount(0);
    const events = await owner.api("GET", `/api/timelines/${timeline.id}/events`);
    expect(events.find((e: { title: string }) => e.title === "Dreams").entityIds).toHaveLength(1);

    // The picker makes a place (not only characters).
    await page.getByRole("button", { name: "Edit Epilogue" }).click();
    const picker = page.getByRole("combobox", { name: "Codex links" });
    await picker.fill("Old Mill");
    await page.getByRole("option", { name: 'Create place "Old Mill"' }).click();
    await expect(toast(page, "Codex entry created")).toBeVisible();
    await page.getByTestId("event-card").getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(page.getByRole("region", { name: "Codex" }).getByRole("list", { name: "Places" })).toContainText("Old Mill");

    // Export from the timeline screen.
    await page.getByRole("button", { name: "Export" }).click();
    const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "JSON (.json)" }).click()]);
    expect(json.suggestedFilename()).toBe("the-salt-road.json");
  });
});
