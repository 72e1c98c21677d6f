import type { Page } from "@playwright/test";
import {
  chooseLayout,
  layoutMenu,
  expect,
  expectNoSeriousA11yViolations,
  makePremium,
  screenshot,
  test,
  openHome,
  type Writer,
  waitForHydration,
  cardTitles,
  openTimeline,
} from "./fixtures";

import type { Timeline, EventRow } from "./types";

const toast = (page: Page) => page.locator("[data-sonner-toast]");

async function expectToast(page: Page, text: string) {
  await expect(toast(page).filter({ hasText: text }).first()).toBeVisible();
}

// The `timeline` fixture: a village's story, its scenes added by each test.
test.use({ timelineTitle: "The Drowned Bell", timelineDescription: "A village hears a bell under the sea." });

/** Scenes titled `titles` ('… happens.') added to the timeline, in order. */
async function addScenes(user: Writer, timeline: Timeline, titles: string[]) {
  for (const title of titles) await user.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} happens.` });
}

test.describe("timeline home", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Nora Writer", premium: false } });
    test("create, edit and delete a timeline, with validation toasts", async ({ page, writer: _ }) => {
      await openHome(page);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

      await page.getByRole("button", { name: "New Timeline" }).click();
      const dialog = page.getByRole("dialog", { name: "Create New Timeline" });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Create Timeline" }).click();
      await expectToast(page, "Please enter a timeline title");

      await dialog.getByLabel("Title").fill("Salt and Iron");
      await dialog.getByLabel("Description").fill("Two smugglers and one lighthouse.");
      await dialog.getByRole("button", { name: "Create Timeline" }).click();
      await expectToast(page, "Timeline created successfully");
      await expect(dialog).toBeHidden();
      const card = page.getByRole("region", { name: "Your timelines" }).getByText("Salt and Iron");
      await expect(card).toBeVisible();
      await expect(page.getByText("Two smugglers and one lighthouse.").first()).toBeVisible();
      await expect(page.getByText(/^Created /).first()).toBeVisible();

      await page.getByRole("button", { name: "Edit Salt and Iron" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Timeline" });
      await expect(edit.getByLabel("Title")).toHaveValue("Salt and Iron");
      await edit.getByLabel("Title").fill("   ");
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expectToast(page, "Please enter a timeline title");
      await edit.getByLabel("Title").fill("Salt, Iron and Fog");
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expectToast(page, "Timeline updated successfully");
      await expect(page.getByRole("region", { name: "Your timelines" }).getByText("Salt, Iron and Fog")).toBeVisible();

      await page.getByRole("button", { name: "Delete Salt, Iron and Fog" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Are you sure?" });
      await expect(confirm).toBeVisible();
      await confirm.getByRole("button", { name: "Delete Timeline" }).click();
      await expectToast(page, "Timeline deleted successfully");
      await expect(page.getByRole("region", { name: "Your timelines" }).getByText("Salt, Iron and Fog")).toHaveCount(0);
    });
  });

  test("add an event from home to the selected timeline; card opens the detail", async ({ page, writer, timeline }) => {
    await addScenes(writer, timeline, ["Storm"]);
    await openHome(page);
    await expect(page.getByRole("combobox", { name: "Select timeline" })).toContainText(timeline.title);
    await expect(page.getByRole("heading", { name: "Storm", exact: true })).toBeVisible();

    await page.getByRole("button", { name: "Add Event" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Event" });
    await dialog.getByLabel("Title").fill("Only a title");
    await dialog.getByRole("button", { name: "Create Event" }).click();
    await expectToast(page, "Please fill in both title and content");
    await dialog.getByLabel("Content").fill("The bell rings at low tide.");
    await dialog.getByRole("button", { name: "Create Event" }).click();
    await expectToast(page, "Event created successfully");
    await expect(page.getByRole("heading", { name: "Only a title", exact: true })).toBeVisible();

    await page.getByRole("region", { name: "Your timelines" }).getByText(timeline.title).click();
    await expect(page).toHaveURL(new RegExp(`/timeline/${timeline.id}$`));
    await expect(cardTitles(page)).toHaveText(["Storm", "Only a title"]);
  });

  test("the free limit turns New Timeline into the upgrade link; Premium lifts it", async ({ page, request, writer }) => {
    for (const title of ["One", "Two", "Three"]) await writer.api("POST", "/api/timelines", { title });
    await openHome(page);
    const upgrade = page.getByRole("link", { name: "Upgrade for Unlimited Timelines" });
    await expect(upgrade).toHaveAttribute("href", "/upgrade");
    await expect(page.getByRole("button", { name: "New Timeline" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Upgrade to Share" }).first()).toBeVisible();

    await makePremium(request, writer);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "New Timeline" })).toBeVisible();
    await expect(upgrade).toHaveCount(0);
  });
});

test.describe("timeline detail", () => {
  test("add, inline-edit, cancel and delete events", async ({ page, writer, timeline }) => {
    await addScenes(writer, timeline, []);
    await openTimeline(page, timeline.id);
    await expect(page.getByRole("heading", { level: 1, name: timeline.title })).toBeVisible();
    await expect(page.getByText("A village hears a bell under the sea.")).toBeVisible();
    await expect(page.getByText("No events yet. Add your first event to this timeline!")).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade to Share" })).toHaveAttribute("href", "/upgrade");

    await page.getByRole("button", { name: "Add Event" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Event" });
    await dialog.getByRole("button", { name: "Create Event" }).click();
    await expectToast(page, "Please fill in both title and content");
    await dialog.getByLabel("Title").fill("The bell rings");
    await dialog.getByLabel("Content").fill("Nobody is in the tower.");
    await dialog.getByRole("button", { name: "Create Event" }).click();
    await expectToast(page, "Event created successfully");
    await expect(cardTitles(page)).toHaveText(["The bell rings"]);

    // Cancel discards.
    await page.getByRole("button", { name: "Edit The bell rings" }).click();
    const card = page.getByTestId("event-card");
    await card.getByLabel("Title").fill("Changed my mind");
    await card.getByRole("button", { name: "Cancel" }).click();
    await expect(cardTitles(page)).toHaveText(["The bell rings"]);

    // Save sends title and content; an empty field is refused first.
    await page.getByRole("button", { name: "Edit The bell rings" }).click();
    await card.getByLabel("Content").fill("");
    await card.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Please fill in both title and content");
    await card.getByLabel("Title").fill("The bell rings twice");
    await card.getByLabel("Content").fill("Someone is in the tower after all.");
    await card.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Event updated successfully");
    await expect(cardTitles(page)).toHaveText(["The bell rings twice"]);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByText("Someone is in the tower after all.")).toBeVisible();

    await page.getByRole("button", { name: "Delete The bell rings twice" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Event" }).click();
    await expectToast(page, "Event deleted successfully");
    await expect(page.getByText("No events yet. Add your first event to this timeline!")).toBeVisible();
  });

  test("reorder by mouse drag and by keyboard; the order survives a reload", async ({ page, writer, timeline }) => {
    await addScenes(writer, timeline, ["Arrival", "Storm", "Wreck", "Rescue"]);
    await openTimeline(page, timeline.id);
    await expect(cardTitles(page)).toHaveText(["Arrival", "Storm", "Wreck", "Rescue"]);

    // Mouse: drag Wreck's handle onto Arrival, both in view (Arrival's card just below the header).
    await page.getByRole("button", { name: "Reorder Arrival" }).evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 120));
    const wreck = page.getByRole("button", { name: "Reorder Wreck" });
    // dnd-kit loads on the first hover of a handle: the drag starts once it holds the handle (a busy machine is slow).
    await wreck.hover();
    await expect(wreck).toHaveAttribute("aria-describedby", /.+/);
    // And nothing still arriving that would move the drop targets under the drag.
    await page.waitForLoadState("networkidle");
    const from = await wreck.boundingBox();
    const to = await page.getByRole("button", { name: "Reorder Arrival" }).boundingBox();
    if (!from || !to) throw new Error("handles not visible");
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 20, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 10, { steps: 20 });
    await page.mouse.up();
    await expect(cardTitles(page)).toHaveText(["Wreck", "Arrival", "Storm", "Rescue"]);
    await expect
      .poll(async () => (await writer.api<EventRow[]>("GET", `/api/timelines/${timeline.id}/events`)).map((e) => e.title))
      .toEqual(["Wreck", "Arrival", "Storm", "Rescue"]);

    // Keyboard: Space lifts, arrows move, Space drops.
    await page.getByRole("button", { name: "Reorder Storm" }).focus();
    await page.keyboard.press("Space");
    await page.waitForTimeout(150);
    await page.keyboard.press("ArrowDown");
    await page.waitForTimeout(150);
    await page.keyboard.press("Space");
    await expect(cardTitles(page)).toHaveText(["Wreck", "Arrival", "Rescue", "Storm"]);
    await expect
      .poll(async () => (await writer.api<EventRow[]>("GET", `/api/timelines/${timeline.id}/events`)).map((e) => e.title))
      .toEqual(["Wreck", "Arrival", "Rescue", "Storm"]);

    await page.reload();
    await waitForHydration(page);
    await expect(cardTitles(page)).toHaveText(["Wreck", "Arrival", "Rescue", "Storm"]);
  });

  test("a handle pressed the moment the page is ready lifts its card with that very key press, nothing replayed", async ({
    page,
    writer,
    timeline,
  }) => {
    await addScenes(writer, timeline, ["Arrival", "Storm", "Wreck"]);
    // Presses on a drag handle that the page dispatched itself (untrusted) instead of the browser.
    await page.addInitScript(() => {
      const counts = window as unknown as { replayedPresses: number };
      counts.replayedPresses = 0;
      for (const type of ["keydown", "pointerdown"]) {
        document.addEventListener(
          type,
          (e) => {
            if (!e.isTrusted && e.target instanceof Element && e.target.closest("[data-reorder]")) counts.replayedPresses++;
          },
          true,
        );
      }
    });
    await page.goto(`/timeline/${timeline.id}`);
    await waitForHydration(page);
    // Focus and Space at once: drag and drop may still be on its way.
    await page.getByRole("button", { name: "Reorder Arrival" }).press("Space");
    const live = page.locator("[id^=DndLiveRegion]").first();
    await expect(live).toContainText(/Picked up Arrival. It is at position 1 of 3.|Arrival moved to position 1 of 3./);
    await page.waitForTimeout(150);
    await page.keyboard.press("ArrowDown");
    await expect(live).toContainText("Arrival moved to position 2 of 3");
    await page.keyboard.press("Space");
    await expect(cardTitles(page)).toHaveText(["Storm", "Arrival", "Wreck"]);
    await expect
      .poll(async () => (await writer.api<EventRow[]>("GET", `/api/timelines/${timeline.id}/events`)).map((e) => e.title))
      .toEqual(["Storm", "Arrival", "Wreck"]);
    expect(await page.evaluate(() => (window as unknown as { replayedPresses: number }).replayedPresses)).toBe(0);
  });

  test("an unknown timeline says so", async ({ page, writer: _ }) => {
    await page.goto("/timeline/99999999");
    await expect(page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Timelines" }).click();
    await expect(page).toHaveURL(/\/timeline$/);
  });
});

test.describe("timeline screens at desktop and phone widths", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Iris Layout", premium: false } });
    test("no serious accessibility issues; screenshots of both layouts", async ({ page, writer, timeline }) => {
      // Long (four axe scans and five full-page screenshots: 7.6 s on CI, past 60 s on a loaded machine): three times the 60 s a test gets, for a machine busy with two workers.
      test.slow();
      await addScenes(writer, timeline, ["The keeper arrives", "A ship without lights", "The lamp goes out", "Morning"]);
      await openHome(page);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "timeline-home-desktop");

      await openTimeline(page, timeline.id);
      await expect(cardTitles(page)).toHaveCount(4);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "timeline-detail-vertical-desktop");
      await chooseLayout(page, "Horizontal");
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "timeline-detail-horizontal-desktop");
      // A narrow card (here 288 px wide on a desktop) puts its actions on a row of their own below the text,
      // so the text keeps most of the card's width instead of a column squeezed beside four buttons.
      const card = page.getByTestId("event-card").first();
      const text = card.locator('[id^="event-"][id$="-text"]');
      const [cardBox, textBox, editBox] = await Promise.all([
        card.boundingBox(),
        text.boundingBox(),
        card.getByRole("button", { name: /^Edit / }).boundingBox(),
      ]);
      expect(textBox?.width ?? 0).toBeGreaterThan((cardBox?.width ?? 0) * 0.6);
      expect(editBox?.y ?? 0).toBeGreaterThanOrEqual((textBox?.y ?? 0) + (textBox?.height ?? 0));

      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, "timeline-detail-horizontal-phone");
      await chooseLayout(page, "Vertical");
      await screenshot(page, "timeline-detail-vertical-phone");
      // Nothing spills sideways on a phone in the vertical layout.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.goto("/timeline");
      await waitForHydration(page);
      await screenshot(page, "timeline-home-phone");
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Iris Linked", premium: false } });
    test("the layout is in the address: it survives a reload and opens from a link", async ({ page, writer, timeline }) => {
      await addScenes(writer, timeline, ["The keeper arrives", "A ship without lights", "Morning"]);
      await openTimeline(page, timeline.id);
      const cards = page.getByTestId("event-card");
      const pressed = (name: string) => expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-pressed", "true");
      const shown = (name: string) => expect(layoutMenu(page)).toHaveAccessibleName(`Layout: ${name}`);
      // Along a line from left to right (horizontal: each card starts right of the one before) or down the page.
      const sideBySide = async () => {
        const [a, b, c] = await Promise.all([0, 1, 2].map((i) => cards.nth(i).boundingBox()));
        return Boolean(a && b && c && b.x >= a.x + a.width && c.x >= b.x + b.width);
      };
      expect(await sideBySide()).toBe(false);
      await expect(page).not.toHaveURL(/layout=/);

      await chooseLayout(page, "Horizontal");
      await expect(page).toHaveURL(/[?&]layout=horizontal(&|$)/);
      await page.reload();
      await waitForHydration(page);
      await shown("Horizontal");
      await expect(cards).toHaveCount(3);
      expect(await sideBySide()).toBe(true);

      // The default layout leaves the address clean.
      await chooseLayout(page, "Vertical");
      await expect(page).not.toHaveURL(/layout=/);

      // A link to a view: the layout and the order both come with it.
      await page.goto(`/timeline/${timeline.id}?layout=horizontal&order=chronological`);
      await waitForHydration(page);
      await shown("Horizontal");
      await pressed("Chronological");
      await expect(cards).toHaveCount(3);
      expect(await sideBySide()).toBe(true);
      await page.goto(`/timeline/${timeline.id}?layout=lanes`);
      await waitForHydration(page);
      await shown("Lanes");
      await expect(page.getByRole("button", { name: "By character" })).toBeVisible();
      await page.goto(`/timeline/${timeline.id}?layout=map`);
      await waitForHydration(page);
      await shown("Map");
      await expect(page.locator(".react-flow__node").first()).toBeVisible();
    });
  });
});
