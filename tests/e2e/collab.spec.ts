import type { Browser, Page } from "@playwright/test";
import {
  apiAs,
  createUser,
  docText,
  expect,
  login,
  signIn,
  screenshot,
  type TestUser,
  type Writer,
  test,
  cardTitles,
  openTimeline,
  toast,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

import type { EventRow, Timeline } from "./types";

/** A second browser (its own cookies), signed in as `user`: on the timeline when given, else on /timeline. */
async function writerPage(browser: Browser, user: TestUser, timelineId?: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  if (timelineId === undefined) await login(page, user);
  else {
    await signIn(page, user);
    await openTimeline(page, timelineId);
  }
  return { page, context, errors };
}

/** Adds a scene for each of `titles` to the owner's timeline ('{title} happens.'). */
async function addScenes(owner: Writer, timeline: Timeline, titles: string[]) {
  for (const title of titles) {
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} happens.` });
  }
}

/** Shares the timeline with `collab` as collaborator; the owner (whose `page` is signed in) and the collaborator both open it. */
async function bothOnTimeline(
  request: Parameters<typeof apiAs>[0],
  page: Page,
  browser: Browser,
  owner: TestUser,
  collab: TestUser,
  timelineId: number,
) {
  await shareWith(request, owner, timelineId, collab, "collaborator");
  await openTimeline(page, timelineId);
  const other = await writerPage(browser, collab, timelineId);
  return other;
}

test.describe("live collaboration", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });
  test("share by email, presence, live typing, save, add and reorder reach the other writer", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    // Long (two browsers, 13 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    await addScenes(owner, timeline, ["Dawn", "Noon", "Dusk"]);
    const collab = await createUser(request, { name: "Cole Collab" });

    // The owner shares through the dialog.
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share Timeline" });
    await dialog.getByRole("tab", { name: "Share with User" }).click();
    await dialog.getByLabel("Email Address").fill(collab.email);
    await dialog.getByLabel("Access Level").selectOption("collaborator");
    await dialog.getByRole("button", { name: "Share Timeline" }).click();
    await expect(toast(page, "Timeline Shared")).toBeVisible();
    await expect(dialog.getByText("Shared with:")).toBeVisible();
    await expect(dialog.getByText(collab.email)).toBeVisible();
    await screenshot(page, "share-dialog-with-user");
    await page.keyboard.press("Escape");

    // The collaborator is told on their next page view, and finds it under 'Shared with you'.
    const other = await writerPage(browser, collab);
    await expect(toast(other.page, `shared "${timeline.title}" with you`)).toBeVisible();
    await expect(other.page.getByText("Shared with you", { exact: true })).toBeVisible();
    await expect(other.page.getByText("You can edit", { exact: true })).toBeVisible();
    await openTimeline(other.page, timeline.id);
    await expect(other.page.getByText("Collaborator", { exact: true })).toBeVisible();

    // Presence: both see two people.
    await expect(page.getByRole("button", { name: "Active collaborators (2)" })).toBeVisible();
    await expect(other.page.getByRole("button", { name: "Active collaborators (2)" })).toBeVisible();
    await page.getByRole("button", { name: "Active collaborators (2)" }).click();
    const popover = page.getByRole("dialog").filter({ hasText: "Active collaborators (2)" });
    await expect(popover.getByText("Cole Collab", { exact: true })).toBeVisible();
    await expect(popover.getByText("Olive Owner", { exact: true })).toBeVisible();
    await expect(popover.getByText("you", { exact: true })).toBeVisible();
    await expect(popover.getByText("owner", { exact: true })).toBeVisible();
    await screenshot(page, "presence-popover");
    await page.keyboard.press("Escape");

    // Opening the editor in one shows 'Cole Collab is writing here' in the other; editing stays open to both
    // (co-writing); the typed title shows live.
    await other.page.getByRole("button", { name: "Edit Dawn" }).click();
    const editing = other.page.getByTestId("event-card").filter({ has: other.page.getByLabel("Title") });
    await expect(page.getByText("Cole Collab is writing here")).toBeVisible();
    await editing.getByLabel("Title").fill("Dawn breaks");
    await expect(page.getByRole("button", { name: "Edit Dawn breaks" })).toBeEnabled();
    await screenshot(page, "writing-here");

    // A save appears without reload.
    await editing.getByLabel("Content").fill("The bell is silent at dawn.");
    await editing.getByRole("button", { name: "Save" }).click();
    await expect(toast(other.page, "Event updated successfully")).toBeVisible();
    await expect(cardTitles(page)).toHaveText(["Dawn breaks", "Noon", "Dusk"]);
    await expect(page.getByText("The bell is silent at dawn.")).toBeVisible();

    // An add appears without reload.
    await page.getByRole("button", { name: "Add Event" }).click();
    const add = page.getByRole("dialog", { name: "Create New Event" });
    await add.getByLabel("Title").fill("Midnight");
    await add.getByLabel("Content").fill("The tide comes in.");
    await add.getByRole("button", { name: "Create Event" }).click();
    await expect(cardTitles(other.page)).toHaveText(["Dawn breaks", "Noon", "Dusk", "Midnight"]);

    // A reorder appears without reload.
    await page.getByRole("button", { name: "Reorder Midnight" }).focus();
    await page.keyboard.press("Space");
    await page.waitForTimeout(150);
    await page.keyboard.press("ArrowUp");
    await page.waitForTimeout(150);
    await page.keyboard.press("Space");
    await expect(cardTitles(page)).toHaveText(["Dawn breaks", "Noon", "Midnight", "Dusk"]);
    await expect(cardTitles(other.page)).toHaveText(["Dawn breaks", "Noon", "Midnight", "Dusk"]);
    await screenshot(other.page, "collaborator-view");
    expect(other.errors).toEqual([]);
    await other.context.close();
  });

  test("one move, one signal: the other writer reloads once, the mover not at all", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    await addScenes(owner, timeline, ["Dawn", "Noon", "Dusk"]);
    const collab = await createUser(request, { name: "Cole Collab" });
    const other = await bothOnTimeline(request, page, browser, owner, collab, timeline.id);
    await expect(page.getByRole("button", { name: "Active collaborators (2)" })).toBeVisible();
    await expect(other.page.getByRole("button", { name: "Active collaborators (2)" })).toBeVisible();
    await page.waitForTimeout(500);

    // Every reload of the page's data is one single-fetch request for /timeline/{id}.data.
    const dataLoads = (p: Page) => {
      const urls: string[] = [];
      p.on("request", (r) => {
        if (new URL(r.url()).pathname.endsWith(".data")) urls.push(r.url());
      });
      return urls;
    };
    const moverLoads = dataLoads(page);
    const otherLoads = dataLoads(other.page);

    await page.getByRole("button", { name: "Reorder Dusk" }).focus();
    await page.keyboard.press("Space");
    await page.waitForTimeout(150);
    await page.keyboard.press("ArrowUp");
    await page.waitForTimeout(150);
    await page.keyboard.press("Space");
    await expect(cardTitles(page)).toHaveText(["Dawn", "Dusk", "Noon"]);
    await expect(cardTitles(other.page)).toHaveText(["Dawn", "Dusk", "Noon"]);
    await expect(other.page.getByText('Olive Owner moved "Dusk"')).toBeVisible();
    // Give any late second signal time to arrive before counting.
    await page.waitForTimeout(1500);
    expect(moverLoads).toEqual([]);
    expect(otherLoads).toHaveLength(1);
    // The move was saved: a fresh load shows the same order.
    await page.reload();
    await expect(cardTitles(page)).toHaveText(["Dawn", "Dusk", "Noon"]);
    expect(other.errors).toEqual([]);
    await other.context.close();
  });

  test("a viewer sees no edit controls; a removed collaborator loses access at once", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    await addScenes(owner, timeline, ["Arrival", "Storm"]);
    const viewer = await createUser(request, { name: "Vera Viewer" });
    const collab = await createUser(request, { name: "Cole Collab" });
    await shareWith(request, owner, timeline.id, viewer, "viewer");
    await shareWith(request, owner, timeline.id, collab, "collaborator");

    const v = await writerPage(browser, viewer, timeline.id);
    await expect(v.page.getByText("Viewer", { exact: true })).toBeVisible();
    await expect(cardTitles(v.page)).toHaveText(["Arrival", "Storm"]);
    for (const name of ["Add Event", "Share", "Edit Arrival", "Delete Arrival", "Reorder Arrival"]) {
      await expect(v.page.getByRole("button", { name, exact: true })).toHaveCount(0);
    }
    await expect(v.page.getByRole("link", { name: "Upgrade to Share" })).toHaveCount(0);
    await screenshot(v.page, "viewer-view");

    const c = await writerPage(browser, collab, timeline.id);
    await expect(c.page.getByRole("button", { name: "Edit Arrival" })).toBeVisible();
    await expect(c.page.getByRole("button", { name: "Delete Arrival" })).toHaveCount(0);

    // The owner removes the collaborator in the dialog: their open screen loses the timeline.
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share Timeline" });
    await dialog.getByRole("tab", { name: "Share with User" }).click();
    await dialog.getByRole("button", { name: `Remove ${collab.email}` }).click();
    await expect(toast(page, "Share Removed")).toBeVisible();
    await expect(toast(c.page, "Your access to this timeline was removed")).toBeVisible();
    await expect(c.page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    await c.page.reload();
    await expect(c.page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    const api = await c.page.request.get(`/api/timelines/${timeline.id}/events`);
    expect(api.status()).toBe(404);

    // The viewer is unaffected.
    await expect(v.page.getByText("Connected", { exact: true })).toBeVisible();
    await v.context.close();
    await c.context.close();
  });

  test("two writers in the same event write together: no lock, no conflict, both texts are kept", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    // Long (two browsers, 10 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    await addScenes(owner, timeline, ["The letter"]);
    const collab = await createUser(request, { name: "Cole Collab" });
    const c = await bothOnTimeline(request, page, browser, owner, collab, timeline.id);

    await c.page.getByRole("button", { name: "Edit The letter" }).click();
    await expect(page.getByText("Cole Collab is writing here")).toBeVisible();
    await page.getByRole("button", { name: "Edit The letter" }).click();
    const mine = page.getByLabel("Content", { exact: true });
    const theirs = c.page.getByLabel("Content", { exact: true });
    await expect(theirs).toHaveAttribute("contenteditable", "true");
    await expect(mine).toHaveAttribute("contenteditable", "true");
    await theirs.click();
    await c.page.keyboard.press("ControlOrMeta+End");
    await c.page.keyboard.type(" Cole: it is burned.");
    await expect.poll(() => docText(mine)).toBe("The letter happens. Cole: it is burned.");
    await mine.click();
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.type(" Olive: it is hidden.");
    await expect.poll(() => docText(theirs)).toBe("The letter happens. Cole: it is burned. Olive: it is hidden.");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await c.page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(c.page, "Event updated successfully")).toBeVisible();
    await expect(c.page.getByText("Someone else saved this event while you were editing.")).toHaveCount(0);
    const [event] = await apiAs<EventRow[]>(request, owner, "GET", `/api/timelines/${timeline.id}/events`);
    expect(event.content).toBe("The letter happens. Cole: it is burned. Olive: it is hidden.");
    await expect(page.getByTestId("event-card")).toContainText("Olive: it is hidden.");
    await c.context.close();
  });

  test("a dropped room connection comes back by itself and picks up what changed meanwhile", async ({
    page,
    request,
    writer: owner,
    timeline,
  }) => {
    await addScenes(owner, timeline, ["First"]);
    // Keep a handle on the page's room sockets, to drop one the way a network does (not closed by the page).
    await page.addInitScript(() => {
      const Native = window.WebSocket;
      const rooms: WebSocket[] = [];
      Object.assign(window, { __rooms: rooms });
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          if (String(url).includes("/ws/")) rooms.push(this);
        }
      };
    });
    await openTimeline(page, timeline.id);
    const rooms = () => page.evaluate(() => (window as unknown as { __rooms: WebSocket[] }).__rooms.map((w) => w.url));
    expect(await rooms()).toHaveLength(1);

    await page.evaluate(() => (window as unknown as { __rooms: WebSocket[] }).__rooms[0].close());
    await expect(page.getByText("Disconnected", { exact: true })).toBeVisible();
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "Made while away", content: "Two." });
    await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(cardTitles(page)).toHaveText(["First", "Made while away"]);
    // The same connection id (`_pk`) after the reconnect: the page's own writes stay recognisable to the room.
    const [before, after] = await rooms();
    expect(new URL(after).searchParams.get("_pk")).toBe(new URL(before).searchParams.get("_pk"));
    await expect(toast(page, "Connection Error")).toHaveCount(0);
  });
});
