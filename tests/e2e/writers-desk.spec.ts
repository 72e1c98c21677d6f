import type { APIRequestContext, Page } from "@playwright/test";
import { apiAs, card, docText, expect, openTimeline, test, type Writer } from "./fixtures";
import { openEditor } from "./helpers/editor";
import { addBellScene } from "./helpers/timeline";

// The writer's desk (DESIGN §12): 'Synopsis' and 'Notes' beside a scene's text, and no text lost at any typing speed.

import type { EventRow, Timeline } from "./types";

/** The owner's bell scene, open in its editor on the timeline (synced: editable, showing its text). */
async function openBell(page: Page, request: APIRequestContext, owner: Writer, timeline: Timeline) {
  await addBellScene(request, owner, timeline, "The bell rang.");
  await openTimeline(page, timeline.id);
  return openEditor(page, "The bell rang.");
}

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });

const eventsOf = (request: APIRequestContext, user: Parameters<typeof apiAs>[1], id: number) =>
  apiAs<EventRow[]>(request, user, "GET", `/api/timelines/${id}/events`);

test("the scene editor writes a synopsis and notes beside the text; the card shows them and they never count", async ({
  page,
  request,
  writer: owner,
  timeline,
}) => {
  const content = await openBell(page, request, owner, timeline);
  await page.getByLabel("Synopsis", { exact: true }).fill("Mara hears the *bell* under the water.");
  await page.getByLabel("Notes", { exact: true }).fill("Check the tide tables for 1903.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(content).toBeHidden();

  const desk = card(page, "The bell").getByTestId("scene-desk");
  await expect(desk.getByRole("region", { name: "Synopsis" })).toContainText("Mara hears the bell under the water.");
  await desk.getByText("Notes", { exact: true }).click();
  await expect(desk).toContainText("Check the tide tables for 1903.");
  await expect(card(page, "The bell")).toContainText("3 words");

  const [scene] = await eventsOf(request, owner, timeline.id);
  expect(scene).toMatchObject({
    synopsis: "Mara hears the *bell* under the water.",
    notes: "Check the tide tables for 1903.",
    content: "The bell rang.",
    wordCount: 3,
  });
  await page.reload();
  await expect(card(page, "The bell").getByTestId("scene-desk")).toContainText("Mara hears the bell under the water.");
});

test("a 200-characters-a-second burst and a 20,000-character paste survive a reload, every character", async ({
  page,
  request,
  writer: owner,
  timeline,
}) => {
  // 24 s on CI: six times that, for a machine busy with two workers.
  test.setTimeout(150_000);
  const content = await openBell(page, request, owner, timeline);
  await content.click();
  await page.keyboard.press("End");

  // 1,000 characters at 200 a second (5 ms a key), as key repeat or automation types them.
  const burst = Array.from({ length: 100 }, (_, i) => `w${String(i).padStart(3, "0")}abcde `).join("");
  expect(burst).toHaveLength(1000);
  await page.keyboard.type(burst, { delay: 5 });

  // A 20,000-character paste, as the clipboard gives it.
  const pasted = Array.from({ length: 2000 }, (_, i) => `p${String(i).padStart(4, "0")}xyz`)
    .join(" ")
    .slice(0, 20_000);
  await content.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData("text/plain", text);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, pasted);

  const status = page.getByTestId("co-editor-status");
  await expect(status).toHaveText("All changes saved", { timeout: 60_000 });
  await expect(page.getByText("Too many changes at once")).toHaveCount(0);
  const typed = await docText(content);
  expect(typed).toContain(burst.trim());
  expect(typed).toContain(pasted);

  await page.reload();
  await openTimeline(page, timeline.id);
  await expect
    .poll(async () => (await eventsOf(request, owner, timeline.id))[0].content.replace(/\s+/g, " "), { timeout: 30_000 })
    .toContain(`${burst.trim()}`);
  const stored = (await eventsOf(request, owner, timeline.id))[0].content.replace(/\s+/g, " ");
  expect(stored).toContain(pasted);
  await page.getByRole("button", { name: "Edit The bell" }).click();
  await expect(content).toHaveAttribute("contenteditable", "true");
  const reopened = await docText(content);
  expect(reopened).toContain(burst.trim());
  expect(reopened).toContain(pasted);
});
