import { expect, type Page } from "@playwright/test";
import { openTimeline } from "../fixtures";

/** Waits until the installed app's service worker controls `page` (specs that allow service workers). */
export async function underServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * Opens a timeline (its id, or a path), waits until the service worker controls the page, then loads it once more
 * through it, so the page and its data are kept on the device for an offline reload.
 */
export async function keepOnDevice(page: Page, timeline: number | string) {
  await openTimeline(page, timeline);
  await underServiceWorker(page);
  await openTimeline(page, timeline);
}

/** Adds a chapter through the timeline screen's 'Add Chapter' form (online or queued offline). */
export async function addChapter(page: Page, title: string) {
  await page.getByRole("button", { name: "Add Chapter" }).click();
  await page.getByPlaceholder("Chapter title").fill(title);
  await page.getByRole("button", { name: "Add", exact: true }).click();
}
