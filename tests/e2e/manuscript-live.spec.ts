import type { APIRequestContext, Page } from "@playwright/test";
import {
  apiAs,
  card,
  cardTitles,
  createUser,
  docText,
  expect,
  expectNoSeriousA11yViolations,
  openTimeline,
  test,
  waitForHydration,
  writerPage,
  type Writer,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

// The manuscript in the timeline's live room (a co-writer's changes arrive without a reload, open editors stay
// open, who is here shows), and the timeline's Chapter filter kept in the address.

import type { EventRow as Row, Chapter, Timeline } from "./types";

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });

/** The owner's timeline: four scenes, two chapters, and a collaborator it is shared with. */
async function setup(request: APIRequestContext, owner: Writer, timeline: Timeline) {
  const scene = (title: string, content: string) => owner.api<Row>("POST", `/api/timelines/${timeline.id}/events`, { title, content });
  const prologue = await scene("Prologue", "Before the flood, the town kept a bell.");
  const harbor = await scene("Harbor at dawn", "Mara walked the harbor wall at dawn.");
  const letter = await scene("The letter", "The letter had no stamp.");
  const storm = await scene("Storm", "The storm came from the west.");
  const chapter = (title: string, eventIds: number[]) =>
    owner.api<Chapter>("POST", `/api/timelines/${timeline.id}/chapters`, { title, eventIds });
  const one = await chapter("One: The Harbor", [harbor.id, letter.id]);
  const two = await chapter("Two: The Storm", [storm.id]);
  const collaborator = await createUser(request, { name: "Cole Writer" });
  await shareWith(request, owner, timeline.id, collaborator, "collaborator");
  return { collaborator, timelineId: timeline.id, scenes: { prologue, harbor, letter, storm }, chapters: { one, two } };
}

const sceneTitles = (page: Page) => page.getByTestId("manuscript-scene").locator("h3");

test("the open manuscript shows a co-writer's new scene, renamed chapter and renamed scene live, keeping my editor open", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(120_000);
  const { collaborator, timelineId, scenes, chapters } = await setup(request, owner, timeline);
  await page.goto(`/timeline/${timelineId}/manuscript`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(["One: The Harbor", "Two: The Storm"]);

  // I am writing in a scene: its editor holds text not yet saved.
  await page.getByRole("region", { name: "The letter" }).scrollIntoViewIfNeeded();
  const letter = page.getByRole("textbox", { name: "Text of The letter" });
  await expect(letter).toHaveAttribute("contenteditable", "true");
  await letter.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Still here.", { delay: 40 });
  await letter.evaluate((el) => el.setAttribute("data-same-editor", "yes"));

  // The co-writer arrives (on the timeline screen: the same room): I see who is here.
  const other = await writerPage(browser, collaborator, timelineId);
  const here = page.getByRole("button", { name: "Active collaborators (2)" });
  await expect(here).toBeVisible();
  // They see where I am writing, on that scene's card.
  await expect(card(other.page, "The letter").getByText("Olive Owner is writing here")).toBeVisible();

  // They add a scene to the storm chapter, rename the first chapter, then rename a scene.
  const added = await apiAs<Row>(request, collaborator, "POST", `/api/timelines/${timelineId}/events`, {
    title: "Aftermath",
    content: "Nothing was left of the pier.",
    chapterId: chapters.two.id,
  });
  expect(added.chapterId).toBe(chapters.two.id);
  await apiAs(request, collaborator, "PATCH", `/api/chapters/${chapters.one.id}`, { title: "One: The Harbor Wall" });

  await expect(page.getByRole("heading", { level: 2 })).toHaveText(["One: The Harbor Wall", "Two: The Storm"]);
  await expect(sceneTitles(page)).toHaveText(["Prologue", "Harbor at dawn", "The letter", "Storm", "Aftermath"]);
  await expect(page.getByText("Nothing was left of the pier.")).toBeVisible();
  await expect(page.getByTestId("manuscript-status")).toContainText("Book: 34 words");

  await apiAs(request, collaborator, "PATCH", `/api/events/${scenes.storm.id}`, { title: "The storm" });
  await expect(sceneTitles(page)).toHaveText(["Prologue", "Harbor at dawn", "The letter", "The storm", "Aftermath"]);

  // My editor is the same one, my unsaved words still in it, and the page never reloaded.
  await expect(letter).toHaveAttribute("data-same-editor", "yes");
  expect(await docText(letter)).toBe("The letter had no stamp. Still here.");
  await expect(letter).toBeFocused();

  // Who is here: the co-writer by name.
  await here.click();
  const list = page.getByRole("dialog", { name: "Active collaborators (2)" });
  await expect(list.getByText("Cole Writer")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");

  // The co-writer leaves: the presence shows only me.
  await other.context.close();
  await expect(page.getByRole("button", { name: "Active collaborators (1)" })).toBeVisible();
});

test("a chapter filter chosen in the filters survives a reload and shows only that chapter's scenes, in the list, the lanes and the map", async ({
  page,
  request,
  writer: owner,
  timeline,
}) => {
  const { timelineId, chapters } = await setup(request, owner, timeline);
  await openTimeline(page, timelineId);
  await expect(cardTitles(page)).toHaveText(["Prologue", "Harbor at dawn", "The letter", "Storm"]);

  await page.getByRole("button", { name: "Filters" }).click();
  const chapter = page.getByRole("combobox", { name: "Chapter" });
  await expect(chapter.locator("option")).toHaveText(["All chapters", "One: The Harbor", "Two: The Storm", "No chapter"]);
  await chapter.selectOption({ label: "One: The Harbor" });
  await expect(page).toHaveURL(new RegExp(`chapter=${chapters.one.id}`));
  await expect(cardTitles(page)).toHaveText(["Harbor at dawn", "The letter"]);
  await expect(page.getByRole("button", { name: "Filters (1)" })).toBeVisible();

  await page.reload();
  await waitForHydration(page);
  await expect(cardTitles(page)).toHaveText(["Harbor at dawn", "The letter"]);
  await expect(page.getByRole("combobox", { name: "Chapter" })).toHaveValue(String(chapters.one.id));
  // Only the chosen chapter's header: the others have no scene in this view.
  await expect(page.getByRole("region", { name: "Two: The Storm", exact: true })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // 'No chapter': the scenes outside every chapter.
  await page.getByRole("combobox", { name: "Chapter" }).selectOption({ label: "No chapter" });
  await expect(page).toHaveURL(/chapter=none/);
  await expect(cardTitles(page)).toHaveText(["Prologue"]);

  // The lanes honour it too, and each card names its chapter.
  await page.goto(`/timeline/${timelineId}?layout=lanes&chapter=${chapters.two.id}`);
  await waitForHydration(page);
  const lanes = page.getByTestId("lanes-scroll");
  await expect(lanes.getByRole("button")).toHaveCount(1);
  await expect(lanes.getByRole("button")).toContainText("Storm");
  await expect(lanes.getByTestId("lane-chapter")).toHaveText("Chapter: Two: The Storm");

  // So does the map: the other scenes' nodes are hidden.
  await page.goto(`/timeline/${timelineId}?layout=map&chapter=${chapters.two.id}`);
  await waitForHydration(page);
  await expect(page.getByRole("group", { name: "Event: Storm" })).toBeVisible();
  await expect(page.getByRole("group", { name: /^Event: / })).toHaveCount(1);
  await expect(page.getByRole("group", { name: "Event: Prologue" })).toHaveCount(0);
});
