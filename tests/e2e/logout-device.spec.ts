import type { Page } from "@playwright/test";
import { expect, loginThroughForm, openTimeline, test } from "./fixtures";

// Logout leaves nothing of the writer's scenes on the device: the co-writing editor's copies (IndexedDB) and the
// markers of unsaved edits (localStorage) go with the session.

const localCopies = (page: Page) =>
  page.evaluate(async () => {
    const databases = await indexedDB.databases();
    const markers = Object.keys(localStorage).filter((key) => key.startsWith("storyweave-doc-pending-"));
    return [...databases.map((d) => d.name ?? "").filter((name) => name.startsWith("storyweave-doc-")), ...markers].sort();
  });

test.use({ writerOptions: { name: "Dee Device", premium: false }, timelineTitle: "Shared Laptop" });

test("after Logout no copy of a scene opened in the editor stays in the browser", async ({ page, writer, timeline }) => {
  const event = await writer.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/events`, {
    title: "The letter",
    content: "She kept the letter.",
  });

  // Signed in through the form, as on a shared laptop (the fixture's page was signed in through the API).
  await page.context().clearCookies();
  await loginThroughForm(page, writer);
  await openTimeline(page, timeline.id);
  await page.getByRole("button", { name: "Edit The letter" }).click();
  const content = page.getByLabel("Content", { exact: true });
  await expect(content).toHaveAttribute("contenteditable", "true");
  await content.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Then burned it.");
  // The editor keeps its copy of the scene in this browser; an edit typed offline earlier left its marker.
  await page.evaluate((id) => localStorage.setItem(`storyweave-doc-pending-${id + 1000}`, "1"), event.id);
  await expect.poll(() => localCopies(page)).toEqual([`storyweave-doc-${event.id}`, `storyweave-doc-pending-${event.id + 1000}`]);

  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect.poll(() => localCopies(page)).toEqual([]);
});
