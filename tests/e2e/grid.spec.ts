import type { Locator, Page } from "@playwright/test";
import {
  layoutMenu,
  apiAs,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  openTimeline,
  screenshot,
  test,
  toast,
  writerPage,
} from "./fixtures";
import { shareWith, premiumOwnerWithTimeline } from "./helpers/timeline";

import type { EventRow as Ev } from "./types";

/** The grid's cell named 'Plotline, Chapter'. */
const cell = (page: Page, name: string) => page.getByRole("cell", { name, exact: true });
const cardIn = (where: Locator, title: string) => where.getByTestId("grid-card").filter({ hasText: title });

test.describe("the plotline grid", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Grid Book" });
    test("an owner drags a card across the grid by mouse and by keyboard while a collaborator watches; adds a scene in a cell", async ({
      page,
      browser,
      request,
      writer: owner,
      timeline,
    }) => {
      test.setTimeout(150_000);
      const base = `/api/timelines/${timeline.id}`;
      const one = await owner.api("POST", `${base}/chapters`, { title: "Chapter 1" });
      const two = await owner.api("POST", `${base}/chapters`, { title: "Chapter 2" });
      const main = await owner.api("POST", `${base}/plotlines`, { title: "Main plot" });
      await owner.api("POST", `${base}/plotlines`, { title: "Romance" });
      const storm = await owner.api<Ev>("POST", `${base}/events`, { title: "Storm", content: "Rain.", chapterId: one.id });
      await owner.api("PATCH", `/api/events/${storm.id}`, { plotlineIds: [main.id] });
      await owner.api("POST", `${base}/events`, { title: "Letter", content: "Ink.", chapterId: two.id });
      const collab = await createUser(request, { name: "Cole Collab" });
      await shareWith(request, owner, timeline.id, collab, "collaborator");

      await page.setViewportSize({ width: 1280, height: 900 });
      await openTimeline(page, `/timeline/${timeline.id}?layout=grid`);
      const other = await writerPage(browser, collab, `/timeline/${timeline.id}?layout=grid`);

      for (const p of [page, other.page]) {
        await expect(cardIn(cell(p, "Main plot, Chapter 1"), "Storm")).toBeVisible();
        await expect(cardIn(cell(p, "No plotline, Chapter 2"), "Letter")).toBeVisible();
      }
      await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Grid");
      await expectNoSeriousA11yViolations(page);

      // Mouse: Storm from Main plot, Chapter 1 to Romance, Chapter 2; the collaborator sees it move. (A tall window:
      // near its edge the drag scrolls the page.)
      await page.setViewportSize({ width: 1280, height: 1600 });
      const from = cardIn(cell(page, "Main plot, Chapter 1"), "Storm");
      const target = cell(page, "Romance, Chapter 2");
      const start = (await from.boundingBox())!;
      const end = (await target.boundingBox())!;
      await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
      await page.mouse.down();
      await page.mouse.move(start.x + start.width / 2 + 20, start.y + start.height / 2 + 10, { steps: 4 });
      await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
      await page.mouse.up();
      for (const p of [page, other.page]) {
        await expect(cardIn(cell(p, "Romance, Chapter 2"), "Storm")).toBeVisible();
        await expect(cardIn(cell(p, "Main plot, Chapter 1"), "Storm")).toHaveCount(0);
      }

      await page.setViewportSize({ width: 1280, height: 900 });
      // Keyboard: pick Storm up, one cell left and one down, to No plotline, Chapter 1, and drop it.
      await cardIn(cell(page, "Romance, Chapter 2"), "Storm").focus();
      await page.keyboard.press("Space");
      await expect(page.getByTestId("grid-announcement")).toContainText("Picked up Storm in Romance, Chapter 2");
      await page.keyboard.press("ArrowLeft");
      await expect(page.getByTestId("grid-announcement")).toHaveText("Romance, Chapter 1");
      await page.keyboard.press("ArrowDown");
      await expect(page.getByTestId("grid-announcement")).toHaveText("No plotline, Chapter 1");
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("grid-announcement")).toHaveText("Moved to No plotline, Chapter 1");
      for (const p of [page, other.page]) {
        await expect(cardIn(cell(p, "No plotline, Chapter 1"), "Storm")).toBeVisible();
        await expect(cardIn(cell(p, "Romance, Chapter 2"), "Storm")).toHaveCount(0);
      }
      await expect(cardIn(cell(page, "No plotline, Chapter 1"), "Storm")).toBeFocused();
      // Escape puts a picked-up card back where it was.
      await page.keyboard.press("Enter");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("grid-announcement")).toContainText("Move cancelled");
      await expect(cardIn(cell(page, "No plotline, Chapter 1"), "Storm")).toBeVisible();

      const stored = await owner.api<Ev[]>("GET", `${base}/events`);
      expect(stored.find((e) => e.title === "Storm")).toMatchObject({ chapterId: one.id, plotlineIds: [] });

      // Add a scene in a cell: the dialog says where, and the scene lands there for both.
      await page.getByRole("button", { name: "Add a scene to Main plot, Chapter 2" }).click();
      const dialog = page.getByRole("dialog", { name: "Create New Event" });
      await expect(dialog).toContainText("In Main plot, Chapter 2");
      await dialog.getByLabel("Title").fill("Duel");
      await dialog.getByLabel("Content").fill("Steel.");
      await dialog.getByRole("button", { name: "Create Event" }).click();
      await expect(toast(page, "Event created successfully")).toBeVisible();
      for (const p of [page, other.page]) await expect(cardIn(cell(p, "Main plot, Chapter 2"), "Duel")).toBeVisible();

      // Rows and columns reorder; a collapsed row stays collapsed after a reload.
      await page.getByRole("button", { name: "Move Romance up" }).click();
      await expect(page.getByTestId("grid-row").first()).toContainText("Romance");
      await page.getByRole("button", { name: "Move Chapter 2 left" }).click();
      await expect(page.getByRole("columnheader").nth(1)).toContainText("Chapter 2");
      await expect(other.page.getByTestId("grid-row").first()).toContainText("Romance");
      await page.getByRole("button", { name: "Collapse Main plot" }).click();
      await expect(cardIn(page.getByTestId("grid-row").nth(1), "Duel")).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole("button", { name: "Expand Main plot" })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      // 390 px: the grid scrolls sideways, the plotline names stay in view.
      await page.setViewportSize({ width: 390, height: 844 });
      const scroller = page.getByTestId("grid-scroll");
      await scroller.scrollIntoViewIfNeeded();
      await expect(layoutMenu(page)).toBeInViewport();
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await scroller.evaluate((el) => {
        el.scrollLeft = 300;
      });
      await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      const header = (await page.getByRole("rowheader", { name: /Romance/ }).boundingBox())!;
      expect(header.x).toBeGreaterThanOrEqual(0);
      expect(header.x + header.width).toBeLessThanOrEqual(390);
      await screenshot(page, "grid-390");
      await other.context.close();
    });
  });

  test("a viewer sees the grid read-only", async ({ page, request }) => {
    const { owner, timeline } = await premiumOwnerWithTimeline(request, "Read Only Grid");
    const main = await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/plotlines`, { title: "Main plot" });
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
      title: "Storm",
      content: "Rain.",
      plotlineIds: [main.id],
    });
    const viewer = await createUser(request, { name: "Vera Viewer" });
    await shareWith(request, owner, timeline.id, viewer, "viewer");
    await signIn(page, viewer);
    await openTimeline(page, `/timeline/${timeline.id}?layout=grid`);
    await expect(cardIn(cell(page, "Main plot, No chapter"), "Storm")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Add a scene to/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Move / })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "Lane Links" });
    test("lanes: a scene dropped into a character's lane, by mouse or by keyboard, is linked to that character", async ({
      page,
      writer: owner,
      timeline,
    }) => {
      test.setTimeout(90_000);
      const base = `/api/timelines/${timeline.id}`;
      const ada = await owner.api("POST", `${base}/entities`, { kind: "character", name: "Ada" });
      const mara = await owner.api("POST", `${base}/entities`, { kind: "character", name: "Mara" });
      await owner.api("POST", `${base}/events`, { title: "Storm", content: "Rain.", entityIds: [mara.id] });
      await owner.api("POST", `${base}/events`, { title: "Calm", content: "Sun." });
      await page.setViewportSize({ width: 1280, height: 900 });
      await openTimeline(page, `/timeline/${timeline.id}?layout=lanes`);
      const lane = (name: string) =>
        page.getByTestId("lane").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name}`) }) });
      await expect(lane("No character").getByRole("button", { name: /Calm/ })).toBeVisible();

      // Mouse: Calm into Ada's lane.
      await lane("No character").getByRole("button", { name: /Calm/ }).dragTo(lane("Ada"));
      await expect(lane("Ada").getByRole("button", { name: /Calm/ })).toBeVisible();
      // The emptied lane stays for editors: dropping a scene there unlinks it.
      await expect(lane("No character").getByRole("button", { name: /Calm/ })).toHaveCount(0);

      // Keyboard: Storm (Mara's) up into Ada's lane.
      await lane("Mara").getByRole("button", { name: /Storm/ }).focus();
      await page.keyboard.press("Space");
      await expect(page.getByTestId("lanes-announcement")).toContainText("Picked up Storm");
      await page.keyboard.press("ArrowUp");
      await expect(page.getByTestId("lanes-announcement")).toHaveText("Ada");
      await page.keyboard.press("Space");
      await expect(page.getByTestId("lanes-announcement")).toHaveText("Linked Ada to Storm");
      await expect(lane("Ada").getByRole("button", { name: /Storm/ })).toBeVisible();
      await expect(lane("Mara").getByRole("button", { name: /Storm/ })).toBeVisible();
      await expect(page).toHaveURL(/layout=lanes/);
      const stored = await owner.api<{ title: string; entityIds: number[] }[]>("GET", `${base}/events`);
      expect(stored.map((e) => [e.title, [...e.entityIds].sort()])).toEqual([
        ["Storm", [ada.id, mara.id].sort()],
        ["Calm", [ada.id]],
      ]);
      await expectNoSeriousA11yViolations(page);
    });
  });
});
