import { expect, type Page, test } from "@playwright/test";
import * as Y from "yjs";
import { apiAs, createUser, login, makePremium, openTimeline, waitForHydration } from "./fixtures";
import { addChapter, keepOnDevice } from "./helpers/offline";
import { unshare } from "./helpers/timeline";

// Write anywhere (DESIGN.md §12), its honest edges: what a writer sees at the limits of the device copies.
// Service workers are allowed here (the rest of the suite blocks them); see offline.spec.ts.
test.use({ serviceWorkers: "allow" });

/** The scene's content as the device's copy holds it (y-indexeddb's updates, read from IndexedDB and merged here). */
async function deviceCopyText(page: Page, eventId: number): Promise<string> {
  const updates = await page.evaluate(
    (name) =>
      new Promise<number[][]>((resolve) => {
        const open = indexedDB.open(name);
        // Not there yet: nothing is created.
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("updates")) {
            db.close();
            return resolve([]);
          }
          const all = db.transaction("updates", "readonly").objectStore("updates").getAll();
          all.onsuccess = () => {
            db.close();
            resolve((all.result as Uint8Array[]).map((u) => Array.from(u)));
          };
          all.onerror = () => {
            db.close();
            resolve([]);
          };
        };
      }),
    `storyweave-doc-${eventId}`,
  );
  const doc = new Y.Doc();
  for (const update of updates) Y.applyUpdate(doc, Uint8Array.from(update));
  const text = doc.getXmlFragment("content").toString();
  doc.destroy();
  return text;
}

test("an empty timeline reloaded offline shows its empty list and the 'Offline' badge, and stays so", async ({ page, request }) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Eve Empty" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Blank Pages" });
  await login(page, writer);
  await keepOnDevice(page, timeline.id);

  await page.context().setOffline(true);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "Blank Pages" })).toBeVisible();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  // Past the empty list's second look (500 ms) and a window focus: still the timeline, not an error page.
  await page.waitForTimeout(1_500);
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await page.waitForTimeout(500);
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Blank Pages" })).toBeVisible();
  await expect(page.getByTestId("event-card")).toHaveCount(0);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await page.context().setOffline(false);
});

/** A control locked offline: disabled, titled and described 'You're offline'. */
async function expectLocked(control: ReturnType<Page["getByRole"]>) {
  await expect(control).toBeDisabled();
  await expect(control).toHaveAttribute("title", "You're offline");
  await expect(control).toHaveAccessibleDescription("You're offline");
}

test("offline, the upgrade links (a timeline's 'Upgrade to Share', the account menu's 'Upgrade') are disabled and say 'You're offline'", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Fay Free" });
  await apiAs(request, writer, "POST", "/api/timelines", { title: "Free Pages" });
  await login(page, writer);
  await page.goto("/timeline");
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toHaveAttribute("href", "/upgrade");
  // The account menu's code loads when it first opens: opened once online.
  await page.getByRole("button", { name: /Account menu/ }).click();
  await expect(page.getByRole("link", { name: "Upgrade", exact: true })).toHaveAttribute("href", "/upgrade");
  await page.keyboard.press("Escape");

  await page.context().setOffline(true);
  await expectLocked(page.getByRole("button", { name: "Upgrade to Share" }));
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toHaveCount(0);
  await page.getByRole("button", { name: /Account menu/ }).click();
  await expectLocked(page.getByRole("button", { name: "Upgrade", exact: true }));
  await expect(page.getByRole("link", { name: "Upgrade", exact: true })).toHaveCount(0);
  await page.keyboard.press("Escape");

  await page.context().setOffline(false);
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toBeVisible();
  await page.getByRole("button", { name: /Account menu/ }).click();
  await expect(page.getByRole("link", { name: "Upgrade", exact: true })).toHaveAttribute("href", "/upgrade");
});

test("offline, the open Share dialog's controls (invite by email, access level, link creation) are disabled and say 'You're offline'", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await createUser(request, { name: "Sol Sharer" });
  await makePremium(request, owner);
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "Shared Shores" });
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "The pier", content: "Gulls everywhere." });
  await login(page, owner);
  await openTimeline(page, timeline.id);
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share Timeline" });
  const createLink = dialog.getByRole("button", { name: "Create link" });
  await expect(createLink).toBeEnabled();

  await page.context().setOffline(true);
  await expectLocked(createLink);
  await expectLocked(dialog.getByRole("combobox", { name: "Link access" }));
  await dialog.getByRole("tab", { name: "Share with User" }).click();
  const email = dialog.getByRole("textbox", { name: "Email Address" });
  await expectLocked(email);
  await expectLocked(dialog.getByRole("combobox", { name: "Access Level" }));
  await expectLocked(dialog.getByRole("button", { name: "Share Timeline" }));
  await expect(dialog.getByText("You're offline", { exact: true }).first()).toBeVisible();

  await page.context().setOffline(false);
  await expect(email).toBeEnabled();
  await expect(dialog.getByRole("button", { name: "Share Timeline" })).toBeEnabled();
  await dialog.getByRole("tab", { name: "Share via Link" }).click();
  await expect(dialog.getByRole("button", { name: "Create link" })).toBeEnabled();
});

test("a collaborator removed meanwhile: the timeline's copy leaves the device, the text typed offline is kept under 'Changes not saved'", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const owner = await createUser(request, { name: "Olga Owner" });
  const collaborator = await createUser(request, { name: "Cy Removed" });
  await makePremium(request, owner);
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Walled Garden" });
  const scene = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
    title: "Roses",
    content: "Roses under the wall.",
  });
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/share-with-user`, {
    userEmail: collaborator.email,
    accessLevel: "collaborator",
  });
  const kept = (on: Page = page) =>
    on.evaluate(
      async ({ id, eventId }) => {
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          if (name.startsWith("workbox-precache")) continue;
          const cache = await caches.open(name);
          for (const r of await cache.keys()) urls.push(new URL(r.url).pathname);
        }
        const databases = (await indexedDB.databases()).map((d) => d.name ?? "");
        return {
          pages: urls.filter((p) => p === `/timeline/${id}` || p.startsWith(`/timeline/${id}/`) || p.startsWith(`/timeline/${id}.`)),
          doc: databases.includes(`storyweave-doc-${eventId}`),
        };
      },
      { id: timeline.id, eventId: scene.id },
    );

  await login(page, collaborator);
  await keepOnDevice(page, timeline.id);
  const loaded = page.waitForResponse((r) => /\/api\/events\/\d+\/task-panel$/.test(new URL(r.url()).pathname));
  await page.getByRole("button", { name: "Edit Roses" }).click();
  await loaded;
  const content = page.getByLabel("Content", { exact: true });
  await expect(content).toContainText("Roses under the wall.");
  await expect(page.getByTestId("co-editor-status")).toHaveText("All changes saved");
  await page.context().setOffline(true);
  await content.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Typed on the plane.");
  await expect(page.getByText("1 change waiting")).toBeVisible();
  expect(await kept()).toEqual({ pages: [`/timeline/${timeline.id}`], doc: true });
  // The device's copy holds the last keystroke before the page is left.
  await expect.poll(() => deviceCopyText(page, scene.id)).toContain("Roses under the wall. Typed on the plane.");
  // The tab closes while offline. (Navigated away instead, the unloading page can be told 'online' by Chromium's
  // emulated offline and really reach the server: see docs/client-data.md.)
  const context = page.context();
  await page.close();

  // The owner removes the collaborator; back online, the timeline's address answers 'Timeline not found'.
  await unshare(request, owner, timeline.id, collaborator);
  const next = await context.newPage();
  await context.setOffline(false);
  await next.goto(`/timeline/${timeline.id}`);
  await waitForHydration(next);
  await expect(next.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
  const refused = next.getByRole("region", { name: "Changes not saved" });
  await expect(refused.locator("output")).toContainText("Roses under the wall. Typed on the plane.");
  await expect(refused.getByRole("button", { name: "Copy" })).toBeVisible();
  await expect.poll(() => kept(next)).toEqual({ pages: [], doc: false });

  // Offline, its address shows nothing of the book.
  await context.setOffline(true);
  await next.reload().catch(() => null);
  await expect(next.getByText("Roses under the wall")).toHaveCount(0);
  await expect(next.getByText("The Walled Garden")).toHaveCount(0);
  await context.setOffline(false);
});

/** The changes this page keeps on the device (the outbox in IndexedDB): their kinds, in order. */
async function keptChanges(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open("storyweave-outbox");
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction("client", "readonly").objectStore("client").get("cache");
          get.onsuccess = () => {
            db.close();
            const mutations = (get.result?.clientState?.mutations ?? []) as { state: { variables: { kind: string } } }[];
            resolve(mutations.map((m) => m.state.variables.kind));
          };
          get.onerror = () => {
            db.close();
            resolve([]);
          };
        };
      }),
  );
}

test("a chapter on its way when the tab closed (made on the server, its answer lost) is sent again by the next page and held once", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser(request, { name: "Tab Closer" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Closed Tabs" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The pier", content: "Gulls." });
  const serverChapters = async () =>
    (await apiAs<{ title: string }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/chapters`)).map((c) => c.title);
  await login(page, writer);
  await openTimeline(page, timeline.id);

  // The create reaches the server, but its answer never reaches the page.
  let reached = 0;
  await page.route(`**/api/timelines/${timeline.id}/chapters*`, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    reached++;
    await route.fetch().catch(() => undefined);
  });
  await addChapter(page, "Lighthouse");
  await expect.poll(serverChapters).toEqual(["Lighthouse"]);
  // Kept on the device while on its way (it used to be kept only when paused offline).
  await expect.poll(() => keptChanges(page)).toEqual(["chapter.create"]);
  expect(reached).toBe(1);
  await page.close();

  // The next page, network there: the kept create is sent again with its Idempotency-Key, answered with the first.
  const next = await page.context().newPage();
  const replayed: string[] = [];
  next.on("response", (res) => {
    if (res.request().method() === "POST" && new URL(res.url()).pathname === `/api/timelines/${timeline.id}/chapters`)
      replayed.push(`${res.status()} ${res.headers()["idempotent-replayed"] ?? ""}`);
  });
  await openTimeline(next, timeline.id);
  await expect.poll(() => replayed).toEqual(["201 true"]);
  await expect(next.getByRole("heading", { level: 3, name: "Lighthouse", exact: true })).toHaveCount(1);
  await expect.poll(() => keptChanges(next)).toEqual([]);
  expect(await serverChapters()).toEqual(["Lighthouse"]);
  await expect(next.getByRole("region", { name: "Changes not saved" })).toHaveCount(0);
});

test("a chapter queued offline by a collaborator removed meanwhile, sent from the timelines page: the timeline's copy leaves the device there, the chapter is kept under 'Changes not saved'", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const owner = await createUser(request, { name: "Orla Owner" });
  const collaborator = await createUser(request, { name: "Cal Queued" });
  await makePremium(request, owner);
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Salt Road" });
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "Caravan", content: "Dust at dawn." });
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/share-with-user`, {
    userEmail: collaborator.email,
    accessLevel: "collaborator",
  });
  const keptPages = (on: Page = page) =>
    on.evaluate(async (id) => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        if (name.startsWith("workbox-precache")) continue;
        const cache = await caches.open(name);
        for (const r of await cache.keys()) urls.push(new URL(r.url).pathname);
      }
      return urls.filter((p) => p === `/timeline/${id}` || p.startsWith(`/timeline/${id}/`) || p.startsWith(`/timeline/${id}.`));
    }, timeline.id);

  await login(page, collaborator);
  await keepOnDevice(page, timeline.id);
  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await addChapter(page, "Stolen Hours");
  await expect(page.getByText("1 change waiting")).toBeVisible();
  expect(await keptPages()).toContain(`/timeline/${timeline.id}`);
  // The tab closes while offline. (Navigated away instead, the unloading page was told 'online' by Chromium's emulated
  // offline and really reached the server: its probe answered, it sent the chapter before the removal below.)
  const context = page.context();
  await page.close();

  // The owner removes the collaborator; back online, the queue is sent from the list of timelines (no room, no 404).
  await unshare(request, owner, timeline.id, collaborator);
  // The chapter refused, the timeline is asked whether access ended; its first ask gets no answer (the network just
  // back): it is asked again, not given up.
  const asked: string[] = [];
  const next = await context.newPage();
  await next.route(`**/api/timelines/${timeline.id}`, async (route) => {
    asked.push(route.request().method());
    if (asked.length === 1) return route.abort("internetdisconnected");
    return route.continue();
  });
  await context.setOffline(false);
  await next.goto("/timeline");
  await waitForHydration(next);
  await expect.poll(() => keptPages(next), { timeout: 20_000 }).toEqual([]);
  expect(asked.slice(0, 2)).toEqual(["GET", "GET"]);
  await next.unroute(`**/api/timelines/${timeline.id}`);
  const chapters = await apiAs<{ title: string }[]>(request, owner, "GET", `/api/timelines/${timeline.id}/chapters`);
  expect(chapters.map((c) => c.title)).toEqual([]);

  // The chapter was not dropped: its text is there to copy.
  await next.goto(`/timeline/${timeline.id}`);
  await waitForHydration(next);
  await expect(next.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
  const refused = next.getByRole("region", { name: "Changes not saved" });
  await expect(refused).toContainText("Stolen Hours");
  await expect(refused.getByRole("button", { name: "Copy" }).first()).toBeVisible();
});
