import type { Page } from "@playwright/test";
import {
  apiAs,
  cardTitles,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  openTimeline,
  screenshot,
  test,
  toast,
  writerPage,
} from "./fixtures";

import type { EventRow, Chapter } from "./types";

const chapterHeading = (page: Page, title: string) => page.getByRole("heading", { level: 3, name: title, exact: true });
const chapterSection = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });
const sectionTitles = (page: Page, title: string) => chapterSection(page, title).getByTestId("event-card").locator("h3");

async function addChapter(page: Page, title: string) {
  await page.getByRole("button", { name: "Add Chapter" }).click();
  await page.getByPlaceholder("Chapter title").fill(title);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(chapterHeading(page, title)).toBeVisible();
}

async function openSettings(page: Page, chapter: string) {
  const settings = page.getByRole("button", { name: `${chapter} settings` });
  if ((await settings.getAttribute("aria-expanded")) !== "true") await settings.click();
  return chapterSection(page, chapter);
}

test.describe("chapters on the timeline screen", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });
  test("a writer builds chapters, moves scenes, renames, reorders, collapses, deletes; targets; live and read-only", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    // A long story of steps (two more browsers, axe three times): on a busy machine it takes over two minutes.
    test.setTimeout(180_000);
    const scenes = ["Arrival", "Storm", "Wreck", "Rescue"];
    for (const title of scenes) {
      await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} comes to the village.` });
    }
    const collab = await createUser(request, { name: "Cole Collab" });
    const viewer = await createUser(request, { name: "Vera Viewer" });
    for (const [who, accessLevel] of [
      [collab, "collaborator"],
      [viewer, "viewer"],
    ] as const) {
      await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/share-with-user`, { userEmail: who.email, accessLevel });
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    await openTimeline(page, timeline.id);
    const other = await writerPage(browser, collab, timeline.id);

    // Without chapters the screen is as before; every card shows its word count.
    await expect(page.getByRole("heading", { name: "No chapter" })).toHaveCount(0);
    await expect(page.getByTestId("event-card").filter({ hasText: "Arrival" })).toContainText("5 words");
    await expect(page.getByTestId("book-progress")).toContainText("20 words");

    // Add: the title is required; then three chapters. The collaborator sees them without reloading.
    await page.getByRole("button", { name: "Add Chapter" }).click();
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByText("Chapter title is required")).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();
    await addChapter(page, "Chapter One");
    await expect(chapterHeading(other.page, "Chapter One")).toBeVisible();
    await addChapter(page, "Chapter Two");
    await addChapter(page, "Chapter Three");
    await expect(page.getByRole("heading", { name: "No chapter" })).toBeVisible();
    await expect(chapterHeading(other.page, "Chapter Three")).toBeVisible();

    // Keyboard: a scene moves into a chapter from the chapter's settings.
    for (const [scene, chapter] of [
      ["Arrival", "Chapter One"],
      ["Storm", "Chapter One"],
      ["Wreck", "Chapter Two"],
    ] as const) {
      const section = await openSettings(page, chapter);
      await section.getByLabel("Move a scene into this chapter").selectOption({ label: scene });
      await section.getByRole("button", { name: "Move here" }).click();
      await expect(sectionTitles(page, chapter)).toContainText([scene]);
      await page.getByRole("button", { name: `${chapter} settings` }).click();
    }
    await expect(sectionTitles(page, "Chapter One")).toHaveText(["Arrival", "Storm"]);
    await expect(chapterSection(page, "Chapter One")).toContainText("2 scenes · 10 words");

    // Mouse: Rescue's card dragged onto Chapter Three's header (both in view).
    await page.setViewportSize({ width: 1280, height: 1600 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const chapters = await apiAs<Chapter[]>(request, owner, "GET", `/api/timelines/${timeline.id}/chapters`);
    const three = chapters.find((c) => c.title === "Chapter Three");
    const rescueChapter = async () =>
      (await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`)).find((e) => e.title === "Rescue")?.chapterId;
    // The lists have settled before the drag: every chapter and card where the moves put them, and nothing being
    // reloaded (the events region is busy while the events or chapters are fetched again, e.g. after the room's
    // sync), so the drop targets do not move under the drag.
    const settled = async () => {
      await expect(sectionTitles(page, "Chapter One")).toHaveText(["Arrival", "Storm"]);
      await expect(sectionTitles(page, "Chapter Two")).toHaveText(["Wreck"]);
      await expect(chapterHeading(page, "Chapter Three")).toBeVisible();
      await expect(sectionTitles(page, "No chapter")).toHaveText(["Rescue"]);
      await expect(page.getByRole("region", { name: "Timeline events" })).toHaveAttribute("aria-busy", "false");
    };
    const drag = async () => {
      const handle = page.getByRole("button", { name: "Reorder Rescue" });
      // dnd-kit loads on the first hover of a handle: the drag starts once it holds the handle (a busy machine is slow).
      await handle.hover();
      await expect(handle).toHaveAttribute("aria-describedby", /.+/);
      await settled();
      const from = await handle.boundingBox();
      const to = await chapterSection(page, "Chapter Three").getByTestId("chapter-header").boundingBox();
      if (!from || !to) throw new Error("not visible");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, from.y - 20, { steps: 5 });
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 20 });
      await page.mouse.up();
    };
    // Dragged again only when the drop did not land (a re-render under the drag): the server says where Rescue is.
    await expect(async () => {
      if ((await rescueChapter()) !== three?.id && (await sectionTitles(page, "Chapter Three").count()) === 0) await drag();
      await expect.poll(rescueChapter, { timeout: 5_000 }).toBe(three?.id);
    }).toPass({ timeout: 60_000 });
    await expect(sectionTitles(page, "Chapter Three")).toHaveText(["Rescue"]);
    await expect(page.getByRole("heading", { name: "No chapter" })).toHaveCount(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect
      .poll(
        async () =>
          (await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`)).find((e) => e.title === "Rescue")
            ?.chapterId,
      )
      .toBe(three?.id);

    // Rename (required), and a chapter target.
    let section = await openSettings(page, "Chapter Three");
    await section.getByLabel("Chapter title").fill(" ");
    await section.getByRole("button", { name: "Save chapter" }).click();
    await expect(section.getByText("Chapter title is required")).toBeVisible();
    await section.getByLabel("Chapter title").fill("The Rescue");
    await section.getByLabel("Target words").fill("100");
    await section.getByRole("button", { name: "Save chapter" }).click();
    await expect(chapterHeading(page, "The Rescue")).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "The Rescue: target" })).toHaveAttribute("aria-valuemax", "100");
    await expect(chapterSection(page, "The Rescue")).toContainText("1 scene · 5 of 100 words");
    await expect(chapterHeading(other.page, "The Rescue")).toBeVisible();

    // Reorder: Chapter Two up (its scene follows), then back down with Alt+ArrowDown on its header.
    await page.getByRole("button", { name: "Move Chapter Two up" }).click();
    await expect(cardTitles(page)).toHaveText(["Wreck", "Arrival", "Storm", "Rescue"]);
    await expect
      .poll(async () => (await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`)).map((e) => e.title))
      .toEqual(["Wreck", "Arrival", "Storm", "Rescue"]);
    await chapterSection(page, "Chapter Two").getByTestId("chapter-header").focus();
    await page.keyboard.press("Alt+ArrowDown");
    await expect(cardTitles(page)).toHaveText(["Arrival", "Storm", "Wreck", "Rescue"]);

    // Collapse: Chapter One's scenes are hidden, also after a reload.
    await page.getByRole("button", { name: "Collapse Chapter One" }).click();
    await expect(cardTitles(page)).toHaveText(["Wreck", "Rescue"]);
    await page.reload();
    await expect(page.getByRole("button", { name: "Expand Chapter One" })).toBeVisible();
    await expect(cardTitles(page)).toHaveText(["Wreck", "Rescue"]);
    await page.getByRole("button", { name: "Expand Chapter One" }).click();

    // Delete: the scenes stay, in no chapter.
    section = await openSettings(page, "Chapter Two");
    await section.getByRole("button", { name: "Delete chapter" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete chapter" });
    await expect(confirm).toContainText("Its scenes are kept");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Chapter deleted")).toBeVisible();
    await expect(chapterHeading(page, "Chapter Two")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "No chapter" })).toBeVisible();
    await expect(cardTitles(page)).toHaveText(["Arrival", "Storm", "Wreck", "Rescue"]);

    // The book's target: 'x of y words' with a progress bar.
    await page.getByRole("button", { name: "Set target" }).click();
    await page.getByLabel("Target words for the book").fill("abc");
    await page.getByRole("button", { name: "Save target" }).click();
    await expect(page.getByText("Target must be a whole number of words between 1 and 10,000,000, or empty")).toBeVisible();
    await page.getByLabel("Target words for the book").fill("1000");
    await page.getByRole("button", { name: "Save target" }).click();
    const bar = page.getByRole("progressbar", { name: "Book target" });
    await expect(bar).toHaveAttribute("aria-valuemax", "1000");
    await expect(bar).toHaveAttribute("aria-valuenow", "20");
    await expect(page.getByTestId("book-progress")).toContainText("20 of 1,000 words");

    // The progress panel: words per day as a chart and a table for screen readers.
    await page.getByRole("button", { name: "Progress", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "Progress" });
    await expect(panel.getByRole("table")).toHaveCount(1);
    await expect(panel.getByText("Words written", { exact: true })).toBeVisible();
    await expect(panel.getByRole("table")).toContainText("Words");
    await panel.getByLabel("Per writer").check();
    await expect(panel.getByText("Words written by Olive Owner", { exact: true })).toBeVisible();
    await panel.getByLabel("Daily goal (words)").fill("0");
    await panel.getByRole("button", { name: "Save goal" }).click();
    await expect(panel.getByText("Daily goal must be a whole number of words between 1 and 10,000,000, or empty")).toBeVisible();
    await panel.getByLabel("Daily goal (words)").fill("500");
    await panel.getByRole("button", { name: "Save goal" }).click();
    await expect(toast(page, "Daily goal saved")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "chapters-progress-panel");
    await page.keyboard.press("Escape");

    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "chapters-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "chapters-390");

    // A viewer sees the headers but no controls.
    const v = await writerPage(browser, viewer, timeline.id);
    await expect(chapterHeading(v.page, "Chapter One")).toBeVisible();
    await expect(chapterHeading(v.page, "The Rescue")).toBeVisible();
    for (const name of [
      "Add Chapter",
      "Move Chapter One up",
      "Move Chapter One down",
      "Chapter One settings",
      "Set target",
      "Change target",
    ]) {
      await expect(v.page.getByRole("button", { name, exact: true })).toHaveCount(0);
    }
    await expectNoSeriousA11yViolations(v.page);
    await v.page.close();
    await other.page.close();
  });

  test("the chapters come with the page: the server draws them, and loading asks for none", async ({ page, request, writer, timeline }) => {
    const chapter = async (title: string) =>
      ((await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/chapters`, { title })) as Chapter).id;
    const [one, two] = [await chapter("Low Tide"), await chapter("High Water")];
    for (const [title, chapterId] of [
      ["Shore", one],
      ["Flood", two],
    ] as const) {
      await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} text.`, chapterId });
    }
    // The server's HTML has the chapters' headings (before, they came after hydration).
    const html = await (await page.context().request.get(`/timeline/${timeline.id}`)).text();
    expect(html).toContain("Low Tide");
    expect(html).toContain("High Water");
    const asked: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === `/api/timelines/${timeline.id}/chapters`) asked.push(r.method());
    });
    await openTimeline(page, timeline.id);
    await expect(chapterHeading(page, "Low Tide")).toBeVisible();
    await expect(sectionTitles(page, "High Water")).toHaveText(["Flood"]);
    await page.waitForTimeout(1500);
    expect(asked).toEqual([]);
    // A change from another writer still reaches this page (the room says so; the query reads the list again).
    await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/chapters`, { title: "Ebb" });
    await expect(chapterHeading(page, "Ebb")).toBeVisible();
    expect(asked).toEqual(["GET"]);
  });

  test("back on a timeline opened before in this tab, the first frame already shows the chapters the page brings", async ({
    page,
    request,
    writer,
    timeline,
  }) => {
    const { id } = (await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/chapters`, { title: "Low Tide" })) as Chapter;
    await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "Shore", content: "Shore text.", chapterId: id });
    await openTimeline(page, timeline.id);
    await expect(chapterHeading(page, "Low Tide")).toBeVisible();

    // Renamed elsewhere while this tab is on the home page: the tab still holds the old list from its first visit.
    await page.getByRole("link", { name: "Back to Timelines" }).click();
    await expect(page.getByRole("heading", { name: "Timeline", level: 1 })).toBeVisible();
    await apiAs(request, writer, "PATCH", `/api/chapters/${id}`, { title: "High Water" });

    // On the way back, whenever the page's work ends for the moment (a task, when the browser may paint), the old name
    // is not on the screen: the page's newer list is in the first render's tree, or written before it can show.
    await page.evaluate(() => {
      const w = window as unknown as { staleShown: number };
      w.staleShown = 0;
      new MutationObserver(() => {
        if (Array.from(document.querySelectorAll("h3")).some((h) => h.textContent === "Low Tide")) w.staleShown += 1;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await page.getByRole("link", { name: timeline.title, exact: true }).click();
    await expect(chapterHeading(page, "High Water")).toBeVisible();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { staleShown: number }).staleShown)).toBe(0);
    await expect(chapterHeading(page, "Low Tide")).toHaveCount(0);
  });
});
