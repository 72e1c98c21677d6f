import { expect, test } from "@playwright/test";
import { apiAs, createUser, login, makePremium, openTimeline } from "./fixtures";
import { addChapter } from "./helpers/offline";

// Write anywhere (DESIGN.md §12): a writer whose network goes during a first visit, before the installed app's code
// is on the device (service workers stay blocked here, so nothing is kept). The code a click loads on demand (the
// toaster, on the first press; the list in chapters) cannot be fetched: the page must go on working, not fail with
// 'Application Error', and what waited for the network comes with it, in the same page.

test("the network gone on a first visit: a chapter added offline is queued, the page keeps working, and sends it on return", async ({
  page,
  request,
}) => {
  const writer = await createUser(request, { name: "Fay First" });
  await makePremium(request, writer);
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "First Visit" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "Opening", content: "It begins." });
  await login(page, writer);
  await openTimeline(page, timeline.id);
  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();

  await addChapter(page, "Out of Range");
  await expect(page.getByText("1 change waiting")).toBeVisible();
  await expect(page.getByText("Application Error")).toHaveCount(0);

  // The list in chapters loads on demand: on this first visit its code comes with the network, in this page.
  await page.context().setOffline(false);
  await expect(page.getByText("All changes synced")).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Out of Range", exact: true })).toBeVisible();
  await expect(page.getByText("Application Error")).toHaveCount(0);
  const chapters = await apiAs<{ title: string }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/chapters`);
  expect(chapters.map((c) => c.title)).toEqual(["Out of Range"]);
});

test("the live room's parts that load after the page (who is here) cannot be fetched: the page goes on without them", async ({
  page,
  request,
}) => {
  const writer = await createUser(request, { name: "Pia Partial" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Half Loaded" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "Opening", content: "It begins." });
  await login(page, writer);
  // As when the network went between the page and the code it loads once the room has connected.
  let refused = 0;
  await page.route(/\/assets\/presence-[^/]*\.js$/, (route) => {
    refused++;
    return route.abort("internetdisconnected");
  });
  await openTimeline(page, timeline.id);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await expect.poll(() => refused).toBeGreaterThan(0);
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(page.getByText("Application Error")).toHaveCount(0);
  // The screen still works: the scene opens for editing.
  await page.getByRole("button", { name: "Edit Opening" }).click();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeVisible();
});
