import type { Page } from "@playwright/test";
import { expect, openTimeline, test, type Writer } from "./fixtures";

// The editing flow keeps the writer's place: after Save or Cancel the scene stays where it was on screen and
// focus returns to its card; the point-of-view list offers characters; on a phone the help button never
// covers the editor's Save.

import type { Timeline, EventRow } from "./types";

/**
 * `count` scenes of different lengths on the timeline ('The Long Tide', the `timeline` fixture's): the list is
 * virtualized and the rows differ in height.
 */
async function longStory(writer: Writer, timeline: Timeline, count: number) {
  const events: EventRow[] = [];
  for (let i = 1; i <= count; i++) {
    const content = `Scene ${i} begins. ${"The tide turns and the boats come home. ".repeat(i % 4 === 0 ? 9 : (i % 3) + 1)}`;
    events.push(await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, { title: `Scene ${i}`, content }));
  }
  return events;
}

const cardOf = (page: Page, eventId: number) => page.locator(`[data-testid="event-card"][data-event-id="${eventId}"]`);

async function top(page: Page, eventId: number) {
  const box = await cardOf(page, eventId).boundingBox();
  if (!box) throw new Error("card not visible");
  return box.y;
}

const focusInCard = (page: Page, eventId: number) =>
  page.evaluate((id) => {
    const active = document.activeElement;
    return Boolean(active && active !== document.body && active.closest(`[data-event-id="${id}"]`));
  }, eventId);

/** The list's virtualizer arrives with the first scroll (or press): scroll once and let it measure. */
async function virtualListReady(page: Page) {
  await page.mouse.wheel(0, 300);
  await page.waitForTimeout(800);
}

/** Scrolls the scene's card to the middle of the window and opens its editor: the card and its (editable) content. */
async function openCardEditor(page: Page, event: EventRow) {
  const card = cardOf(page, event.id);
  // Twice: the list measures the rows it draws, and the first scroll can land on estimates.
  await card.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await page.waitForTimeout(300);
  await card.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await card.getByRole("button", { name: `Edit ${event.title}` }).click();
  const content = card.getByLabel("Content", { exact: true });
  await expect(content).toHaveAttribute("contenteditable", "true");
  return { card, content };
}

/** Opens the scene's editor with its card's top `at` px below the window's top, types a line, and returns the card's top. */
async function editScene(page: Page, event: EventRow, at: number) {
  const { card, content } = await openCardEditor(page, event);
  await card.evaluate((el, at) => window.scrollBy(0, el.getBoundingClientRect().top - at), at);
  await content.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" A gull cries.");
  await expect(card.getByRole("button", { name: "Save", exact: true })).toBeInViewport({ ratio: 1 });
  return top(page, event.id);
}

test.describe(() => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Long Tide" });
  test("Save and Cancel keep the scene where it was on screen and focus on its card, seven saves in a row", async ({
    page,
    writer,
    timeline,
  }) => {
    // Long (eight edits of a 40-scene list in a 2,000 px window, 20 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    const events = await longStory(writer, timeline, 40);
    // Tall enough that the longest scene's editor (text, comments row, Editing/Suggesting, AI tools, story fields with
    // the After list, Synopsis and Notes, Save) fits below the card's top.
    await page.setViewportSize({ width: 1280, height: 2000 });
    await openTimeline(page, timeline.id);
    await virtualListReady(page);

    // Seven saves, from the 5th scene on, each with the page scrolled to put the card mid-window.
    for (const [n, event] of events.slice(4, 11).entries()) {
      const before = await editScene(page, event, 120 + n * 20);
      await cardOf(page, event.id).getByRole("button", { name: "Save", exact: true }).click();
      const edit = cardOf(page, event.id).getByRole("button", { name: `Edit ${event.title}` });
      await expect(edit).toBeVisible();
      await expect(cardOf(page, event.id)).toContainText("A gull cries.");
      // The list re-measures the shorter card on the next frames: the card must still be where it was after that.
      await page.waitForTimeout(400);
      expect(Math.abs((await top(page, event.id)) - before), `save ${n + 1}: the card's top moved`).toBeLessThanOrEqual(8);
      await expect(edit).toBeFocused();
    }

    // Cancel: the same.
    const event = events[4];
    const before = await editScene(page, event, 140);
    await cardOf(page, event.id).getByRole("button", { name: "Cancel", exact: true }).click();
    const edit = cardOf(page, event.id).getByRole("button", { name: `Edit ${event.title}` });
    await expect(edit).toBeVisible();
    await page.waitForTimeout(400);
    expect(Math.abs((await top(page, event.id)) - before)).toBeLessThanOrEqual(8);
    expect(await focusInCard(page, event.id)).toBe(true);
    await expect(edit).toBeFocused();
  });

  test("After Save in a tall editor scrolled down to its Save button, the scene shows from its top, focus on its card", async ({
    page,
    writer,
    timeline,
  }) => {
    // Long (a 40-scene list, 11 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    const events = await longStory(writer, timeline, 40);
    await openTimeline(page, timeline.id);
    await virtualListReady(page);
    const barBottom = await page.evaluate(() => document.querySelector("header")?.getBoundingClientRect().bottom ?? 0);
    for (const event of events.slice(4, 7)) {
      const { card, content } = await openCardEditor(page, event);
      await content.click();
      await page.keyboard.press("End");
      await page.keyboard.type(" A gull cries.");
      const save = card.getByRole("button", { name: "Save", exact: true });
      // The writer scrolls down to Save: the card's top is out of sight above.
      await save.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 40));
      expect(await top(page, event.id)).toBeLessThan(barBottom);
      await save.click();
      const edit = card.getByRole("button", { name: `Edit ${event.title}` });
      await expect(edit).toBeVisible();
      await page.waitForTimeout(400);
      await expect(card).toBeInViewport({ ratio: 1 });
      expect(await top(page, event.id)).toBeGreaterThanOrEqual(barBottom);
      await expect(edit).toBeFocused();
    }
  });
});

test.describe(() => {
  test.use({ timelineTitle: "The Salt Road" });
  test("The point-of-view list offers the linked characters only; a place chosen before still shows and is kept", async ({
    page,
    writer,
    timeline,
  }) => {
    const entity = (kind: string, name: string) =>
      writer.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, { kind, name });
    const mara = await entity("character", "Mara");
    const harbor = await entity("place", "Harbor");
    const compass = await entity("thing", "Compass");
    const storm = await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "Storm",
      content: "Storm.",
    });
    await writer.api("PATCH", `/api/events/${storm.id}`, { entityIds: [mara.id, harbor.id, compass.id] });
    // Saved before the list offered characters only.
    const vigil = await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "Vigil",
      content: "Vigil.",
    });
    await writer.api("PATCH", `/api/events/${vigil.id}`, { entityIds: [mara.id, harbor.id], povEntityId: harbor.id });

    await openTimeline(page, timeline.id);
    await cardOf(page, storm.id).getByRole("button", { name: "Edit Storm" }).click();
    const stormPov = cardOf(page, storm.id).getByLabel("Point of view");
    await expect(stormPov.locator("option")).toHaveText(["None", "Mara"]);
    await cardOf(page, storm.id).getByRole("button", { name: "Cancel", exact: true }).click();

    await cardOf(page, vigil.id).getByRole("button", { name: "Edit Vigil" }).click();
    const vigilPov = cardOf(page, vigil.id).getByLabel("Point of view");
    await expect(vigilPov.locator("option")).toHaveText(["None", "Mara", "Harbor (place)"]);
    await expect(vigilPov).toHaveValue(String(harbor.id));
    await expect(cardOf(page, vigil.id).getByLabel("Content", { exact: true })).toHaveAttribute("contenteditable", "true");
    await cardOf(page, vigil.id).getByRole("button", { name: "Save", exact: true }).click();
    await expect(cardOf(page, vigil.id).getByRole("button", { name: "Edit Vigil" })).toBeVisible();
    const saved = await writer.api<EventRow[]>("GET", `/api/timelines/${timeline.id}/events`);
    expect(saved.find((e) => e.id === vigil.id)?.povEntityId).toBe(harbor.id);
  });
});

test.describe(() => {
  test.use({ timelineTitle: "Pocket Tale" });
  test("On a phone the help button never covers the editor's Save", async ({ page, writer, timeline }) => {
    const scene = await writer.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, { title: "Dawn", content: "Dawn." });
    for (const title of ["Noon", "Dusk", "Night"]) {
      await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title}.` });
    }
    await page.setViewportSize({ width: 375, height: 667 });
    await openTimeline(page, timeline.id);
    const help = page.getByRole("button", { name: "Open help assistant" });
    await expect(help).toBeVisible();

    const card = cardOf(page, scene.id);
    await card.getByRole("button", { name: "Edit Dawn" }).click();
    await expect(card.getByLabel("Content", { exact: true })).toHaveAttribute("contenteditable", "true");
    // The whole editor is there (its story fields load beside it, above Save).
    await expect(card.getByLabel("Point of view")).toBeVisible();
    const save = card.getByRole("button", { name: "Save", exact: true });
    // Save scrolled to where the floating button sits (the window's lower right corner).
    await save.evaluate((el) => {
      const r = el.getBoundingClientRect();
      window.scrollBy(0, r.top + r.height / 2 - (window.innerHeight - 48));
    });
    const onTop = () =>
      save.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return Boolean(hit && (hit === el || el.contains(hit)));
      });
    expect(await onTop(), "Save is the element at its own centre").toBe(true);
    await save.click({ trial: true });

    await card.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(help).toBeVisible();
  });
});
