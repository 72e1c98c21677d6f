import type { APIRequestContext, Page } from "@playwright/test";
import {
  apiAs,
  createUser,
  docText,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  screenshot,
  type TestUser,
  type Writer,
  test,
  waitForHydration,
  writerPage,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

// The manuscript: the whole book on one page in story order under its chapter headings, written in place with the
// co-writing editor (focus mode, smart quotes and dashes, Ctrl+S, live word counts) while a collaborator writes too.

import type { EventRow, Timeline } from "./types";

const SCENES = [
  { title: "Prologue", content: "Before the flood, the town kept a bell.", chapter: null },
  { title: "Harbor at dawn", content: "Mara walked the harbor wall at dawn.", chapter: 0 },
  { title: "The letter", content: "The letter had no stamp.", chapter: 0 },
  { title: "Night crossing", content: "They crossed at night, without lights.", chapter: 1 },
  { title: "The island", content: "The island was smaller than the map.", chapter: 1 },
  { title: "Storm", content: "The storm came from the west.", chapter: 2 },
] as const;
const CHAPTERS = ["One: The Harbor", "Two: The Crossing", "Three: The Storm"];

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });

/** The owner's timeline: the scenes in their chapters, shared with a collaborator and a viewer. */
async function setup(request: APIRequestContext, owner: Writer, timeline: Timeline) {
  // Through the API, as the other specs do (not written into the server's database file beside it, which another
  // worker's tests may be writing to at the same moment).
  const chapterIds: number[] = [];
  for (const title of CHAPTERS)
    chapterIds.push((await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/chapters`, { title })).id);
  for (const scene of SCENES) {
    await owner.api<EventRow>("POST", `/api/timelines/${timeline.id}/events`, {
      title: scene.title,
      content: scene.content,
      ...(scene.chapter === null ? {} : { chapterId: chapterIds[scene.chapter] }),
    });
  }
  const share = async (name: string, accessLevel: "collaborator" | "viewer") => {
    const user = await createUser(request, { name });
    await shareWith(request, owner, timeline.id, user, accessLevel);
    return user;
  };
  return {
    timelineId: timeline.id,
    collaborator: await share("Cole Writer", "collaborator"),
    viewer: await share("Vera Viewer", "viewer"),
  };
}

async function openManuscript(page: Page, timelineId: number) {
  await page.goto(`/timeline/${timelineId}/manuscript`);
  await waitForHydration(page);
}

/** A scene's editor (it mounts once the scene is near the viewport), once its doc has synced (editable). */
async function sceneEditor(page: Page, title: string) {
  await page.getByRole("region", { name: title }).scrollIntoViewIfNeeded();
  const editor = page.getByRole("textbox", { name: `Text of ${title}` });
  await expect(editor).toHaveAttribute("contenteditable", "true");
  return editor;
}

const status = (page: Page) => page.getByTestId("manuscript-status");
const contentOf = async (request: APIRequestContext, user: TestUser, timelineId: number, title: string) =>
  (await apiAs<EventRow[]>(request, user, "GET", `/api/timelines/${timelineId}/events`)).find((e) => e.title === title)?.content;

test("a writer drafts in the manuscript in focus mode while a collaborator writes another scene", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(120_000);
  const { timelineId, collaborator, viewer } = await setup(request, owner, timeline);
  await openManuscript(page, timelineId);

  // The whole book in story order, a heading wherever the chapter changes (none over the prologue).
  await expect(page.getByRole("heading", { level: 1, name: "The Drowned Bell" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(CHAPTERS);
  await expect(page.getByTestId("manuscript-scene").locator("h3")).toHaveText(SCENES.map((s) => s.title));
  const order = await page.locator("main h2, main h3").allTextContents();
  expect(order).toEqual([
    "Prologue",
    CHAPTERS[0],
    "Harbor at dawn",
    "The letter",
    CHAPTERS[1],
    "Night crossing",
    "The island",
    CHAPTERS[2],
    "Storm",
  ]);
  await expect(page.getByText("The storm came from the west.")).toBeVisible();
  await expect(status(page)).toContainText("Book: 39 words");

  // The collaborator writes in the last scene meanwhile.
  const other = await writerPage(browser, collaborator);
  await openManuscript(other.page, timelineId);
  const storm = await sceneEditor(other.page, "Storm");
  await storm.click();
  await other.page.keyboard.press("Control+End");
  // At a writer's pace: the doc socket closes a connection that sends more than 40 updates a second.
  await other.page.keyboard.type(" The wind rose.", { delay: 60 });

  // Focus mode: no navigation; the writer types into the second chapter scene with smart quotes and dashes.
  await page.getByRole("button", { name: "Focus mode" }).click();
  await expect(page.getByRole("button", { name: "Focus mode" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("region", { name: "Email verification" })).toBeHidden();
  const letter = await sceneEditor(page, "The letter");
  await letter.click();
  await page.keyboard.press("Control+End");
  await expect(status(page)).toContainText("Scene: 5 words");
  await expect(status(page)).toContainText("Chapter: 12 words");
  await page.keyboard.type(` She said "yes" -- it's 'done' --- finally.`, { delay: 60 });
  await expect.poll(() => docText(letter)).toBe("The letter had no stamp. She said “yes” – it’s ‘done’ — finally.");
  // Counted as typed: the scene, its chapter, and the book (with the collaborator's three words, synced live).
  await expect(status(page)).toContainText("Scene: 11 words");
  await expect(status(page)).toContainText("Chapter: 18 words");
  await expect(status(page)).toContainText("Book: 48 words");

  // Ctrl+S saves at once (and the browser's save dialog does not open).
  await page.keyboard.press("Control+s");
  await expect(status(page)).toContainText("Saved");
  await screenshot(page, "manuscript-focus-1280");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Focus mode" })).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();

  await other.page.keyboard.press("Control+s");
  await expect(status(other.page)).toContainText("Saved");
  await expect.poll(() => contentOf(request, owner, timelineId, "Storm")).toBe("The storm came from the west. The wind rose.");
  await expect
    .poll(() => contentOf(request, owner, timelineId, "The letter"))
    .toBe("The letter had no stamp. She said “yes” – it’s ‘done’ — finally.");
  await other.context.close();

  // Reloaded, the page shows both texts as saved.
  await openManuscript(page, timelineId);
  await expect(page.getByText("She said “yes” – it’s ‘done’ — finally.")).toBeVisible();
  await expect(page.getByText("The storm came from the west. The wind rose.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, "manuscript-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "manuscript-390");

  // A viewer reads the book and gets no editor.
  const reader = await writerPage(browser, viewer);
  await openManuscript(reader.page, timelineId);
  await expect(reader.page.getByText("The storm came from the west. The wind rose.")).toBeVisible();
  await expect(reader.page.getByRole("button", { name: "Focus mode" })).toHaveCount(0);
  await reader.page.waitForTimeout(500);
  await expect(reader.page.getByRole("textbox")).toHaveCount(0);
  await expectNoSeriousA11yViolations(reader.page);
  await reader.context.close();
});

test("a writer without access to the timeline gets the not-found page", async ({ page, request, writer, timeline }) => {
  const { timelineId } = await setup(request, writer, timeline);
  const outsider = await createUser(request, { name: "Otto Outsider" });
  await signIn(page, outsider);
  const res = await page.goto(`/timeline/${timelineId}/manuscript`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
});

test("on a phone, the scenes not yet laid out take about the room they will, so a jump to a far scene lands on it", async ({
  page,
  writer,
  timeline,
}) => {
  // 24 scenes of six short paragraphs: at 390 px a line holds fewer words than at the desktop's measure.
  const paragraph = (n: number, i: number) =>
    `Paragraph ${i} of scene ${n}: the lamp gutters, the tide turns against the stone, and Mara counts the bells one by one.`;
  for (let n = 1; n <= 24; n++) {
    const content = Array.from({ length: 6 }, (_, i) => paragraph(n, i + 1)).join("\n\n");
    await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: `Scene ${n}`, content });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await openManuscript(page, timeline.id);
  await expect(page.getByTestId("manuscript-scene")).toHaveCount(24);

  // The page's length with most scenes estimated, against its length once every scene is laid out.
  const estimated = await page.evaluate(() => document.documentElement.scrollHeight);
  const real = await page.evaluate(() => {
    const scenes = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="manuscript-scene"]'));
    for (const scene of scenes) scene.style.contentVisibility = "visible";
    const height = document.documentElement.scrollHeight;
    for (const scene of scenes) scene.style.contentVisibility = "";
    return height;
  });
  expect(Math.abs(estimated - real) / real, `page ${estimated} px estimated, ${real} px laid out`).toBeLessThan(0.15);

  // Straight to a scene in the middle of the book that was never laid out: it is on the screen, its editor open.
  await page.getByRole("heading", { name: "Scene 14", exact: true }).scrollIntoViewIfNeeded();
  await expect(page.getByRole("textbox", { name: "Text of Scene 14" })).toHaveAttribute("contenteditable", "true");
  await expect(page.getByRole("heading", { name: "Scene 14", exact: true })).toBeInViewport();
});
