import { expect, type Page, test } from "@playwright/test";
import { apiAs, cardTitles, createUser, login, makePremium, openTimeline, signIn, waitForHydration } from "./fixtures";
import { addChapter, keepOnDevice } from "./helpers/offline";

// Write anywhere (DESIGN.md §12): the app is installable and, once a timeline was opened online, its page loads
// again with no network, from the service worker's caches. Logout deletes what the device kept of the account.
// The rest of the suite blocks service workers (playwright.config.ts); this file allows them. The fixtures' `test`
// (console errors fail a test) is not used here: with no network the browser logs each failed request.
test.use({ serviceWorkers: "allow" });

const keptOnDevice = (page: Page) =>
  page.evaluate(async () => ({
    caches: (await caches.keys()).filter((name) => !name.startsWith("workbox-precache")).sort(),
    databases: (await indexedDB.databases()).map((d) => d.name ?? "").filter((name) => name.startsWith("storyweave-")),
  }));

/** What the client data layer kept on the device (its lists and queued changes), as text. */
const keptLists = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open("storyweave-outbox");
        open.onerror = () => resolve("");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("client")) return resolve("");
          const get = db.transaction("client").objectStore("client").get("cache");
          get.onsuccess = () => resolve(JSON.stringify(get.result ?? ""));
          get.onerror = () => resolve("");
        };
      }),
  );

test("the manifest names the app, starts at /timeline and brings 192 and 512 px PNG icons", async ({ request }) => {
  const res = await request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  const manifest = JSON.parse(await res.text());
  expect(manifest).toMatchObject({ name: "StoryWeave", short_name: "StoryWeave", start_url: "/timeline", display: "standalone" });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i: { sizes: string }) => i.sizes === `${size}x${size}`);
    expect(icon?.type).toBe("image/png");
    const png = await (await request.get(icon.src)).body();
    // PNG signature, then the IHDR chunk's width and height.
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  }
  const sw = await request.get("/sw.js");
  expect(sw.status()).toBe(200);
  expect(sw.headers()["content-type"]).toContain("javascript");
});

test("a timeline opened online reloads offline with its scenes and the 'Offline' badge; logout deletes the copies", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Wren Wanderer" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "On the Train" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The tunnel", content: "Dark for a minute." });

  await signIn(page, writer);
  await keepOnDevice(page, timeline.id);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);

  await page.context().setOffline(true);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "On the Train" })).toBeVisible();
  await expect(page.getByTestId("event-card").locator("h3", { hasText: "The tunnel" })).toBeVisible();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect.poll(async () => (await keptOnDevice(page)).caches).toContain("storyweave-pages");

  // Back online the badge goes; logout deletes the kept pages and data of this account.
  await page.context().setOffline(false);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect.poll(() => keptOnDevice(page)).toEqual({ caches: [], databases: [] });
});

test("with no network, Share, Reader links, Export, Import, AI and billing are disabled and say 'You're offline'; they come back online", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Otto Offline" });
  await makePremium(request, writer);
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Lighthouse Log" });
  // A scene, so the page does not reload its empty list once more (useFreshData) just as the network goes.
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The lamp", content: "Lit at dusk." });
  await login(page, writer);
  const offline = page.getByText("You're offline", { exact: true });
  const locked = async (name: string | RegExp, online: () => Promise<void>) => {
    const control = page.getByRole("button", { name });
    await expect(control).toBeEnabled();
    await page.context().setOffline(true);
    await expect(control).toBeDisabled();
    await expect(control).toHaveAttribute("title", "You're offline");
    await expect(control).toHaveAccessibleDescription("You're offline");
    await page.context().setOffline(false);
    await expect(control).toBeEnabled();
    await online();
  };
  const noNote = async () => expect(offline).toHaveCount(0);

  await openTimeline(page, timeline.id);
  // 'Reader links' is an entry of the Panels menu (opened once online, so its code is here).
  const panels = page.getByRole("button", { name: "Panels", exact: true });
  const readerLinks = page.getByRole("menuitem", { name: "Reader links" });
  await panels.click();
  await expect(readerLinks).toBeEnabled();
  await page.keyboard.press("Escape");
  await page.context().setOffline(true);
  for (const name of ["Share", "Export"]) {
    const control = page.getByRole("button", { name, exact: true });
    await expect(control).toBeDisabled();
    await expect(control).toHaveAccessibleDescription("You're offline");
  }
  await panels.click();
  await expect(readerLinks).toBeDisabled();
  await expect(readerLinks).toHaveAccessibleDescription("You're offline");
  await page.keyboard.press("Escape");
  // Said in words beside them, for a touch screen that shows no title.
  await expect(offline.first()).toBeVisible();
  await page.context().setOffline(false);
  for (const name of ["Share", "Export"]) await expect(page.getByRole("button", { name, exact: true })).toBeEnabled();
  await panels.click();
  await expect(readerLinks).toBeEnabled();
  await page.keyboard.press("Escape");
  await noNote();
  // The Export menu opens again once back online.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  await expect(page.getByRole("menu")).toBeVisible();
  await page.keyboard.press("Escape");

  await page.goto("/timeline");
  await waitForHydration(page);
  await locked(/^Import$/, noNote);

  await page.goto("/writers-unblock");
  await waitForHydration(page);
  await locked("Generate Idea", noNote);

  await page.goto("/account");
  await waitForHydration(page);
  await locked("Switch to Free", noNote);
});

test("another account signing in on this browser never sees the previous account's kept pages offline", async ({ page, request }) => {
  test.setTimeout(90_000);
  const first = await createUser(request, { name: "Ann First" });
  const second = await createUser(request, { name: "Bo Second" });
  const timeline = await apiAs<{ id: number }>(request, first, "POST", "/api/timelines", { title: "Ann's Secret Book" });
  await apiAs(request, first, "POST", `/api/timelines/${timeline.id}/events`, { title: "The hidden letter", content: "Only Ann knows." });
  const isKept = () =>
    page.evaluate((path) => caches.match(new URL(path, location.href).href).then((r) => r !== undefined), `/timeline/${timeline.id}`);

  await login(page, first);
  await keepOnDevice(page, timeline.id);
  await expect.poll(isKept).toBe(true);

  // Ann's session ends without the Logout button (it expired, or she signed out on another device); Bo signs in here.
  await page.context().clearCookies();
  await login(page, second);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Ann's Secret Book" })).toHaveCount(0);
  await expect.poll(isKept).toBe(false);

  // Offline, Ann's address shows Bo nothing of hers (no kept page: the browser's own offline error).
  await page.context().setOffline(true);
  await page.goto(`/timeline/${timeline.id}`).catch(() => null);
  await expect(page.getByText("The hidden letter")).toHaveCount(0);
  await expect(page.getByText("Ann's Secret Book")).toHaveCount(0);
  await page.context().setOffline(false);
});

test("offline, the badge counts the scenes waiting and says when they last synced; back online 'All changes synced'", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Sam Syncer" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Night Ferry" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content: "The bell rang." });
  await login(page, writer);
  await openTimeline(page, timeline.id);
  // The editor also loads the scene's Tasks (one request: the tasks and who may be assigned): settled before the
  // network goes.
  const loaded = page.waitForResponse((r) => /\/api\/events\/\d+\/task-panel$/.test(new URL(r.url()).pathname));
  await page.getByRole("button", { name: "Edit The bell" }).click();
  await loaded;
  const content = page.getByLabel("Content", { exact: true });
  await expect(content).toHaveAttribute("contenteditable", "true");
  await expect(content).toContainText("The bell rang.");
  await expect(page.getByTestId("co-editor-status")).toHaveText("All changes saved");

  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByText("All changes synced")).toBeVisible();
  await content.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Sent later.");
  await expect(page.getByText("1 change waiting")).toBeVisible();
  await expect(page.getByText(/Last synced \S/)).toBeVisible();

  await page.context().setOffline(false);
  await expect(page.getByText("All changes synced")).toBeVisible();
  await expect(page.getByText("1 change waiting")).toHaveCount(0);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (await apiAs<{ title: string; content: string }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/events`))[0].content,
    )
    .toBe("The bell rang. Sent later.");
});

test("offline, a chapter added and renamed shows at once, is kept across a reload, and is sent in order once back online", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser(request, { name: "Cora Chapters" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Island Hopping" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The ferry", content: "It left at six." });
  const chapterHeading = (title: string) => page.getByRole("heading", { level: 3, name: title, exact: true });
  const serverChapters = async () =>
    (await apiAs<{ title: string }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/chapters`)).map((c) => c.title);

  await login(page, writer);
  await keepOnDevice(page, timeline.id);

  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await addChapter(page, "Leaving Port");
  await expect(chapterHeading("Leaving Port")).toBeVisible();
  await expect(page.getByText("1 change waiting")).toBeVisible();
  await page.getByRole("button", { name: "Leaving Port settings" }).click();
  const section = page.getByRole("region", { name: "Leaving Port", exact: true });
  await section.getByLabel("Chapter title").fill("The Crossing");
  await section.getByRole("button", { name: "Save chapter" }).click();
  await expect(chapterHeading("The Crossing")).toBeVisible();
  await expect(page.getByText("2 changes waiting")).toBeVisible();
  expect(await serverChapters()).toEqual([]);

  // Reloaded with no network: the chapter and the queue are still there (kept on the device).
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(chapterHeading("The Crossing")).toBeVisible();
  await expect(page.getByText("2 changes waiting")).toBeVisible();

  // Back online: sent in order (created, then renamed), and the writer is told.
  await page.context().setOffline(false);
  await expect(page.getByText("All changes synced")).toBeVisible();
  await expect.poll(serverChapters).toEqual(["The Crossing"]);
  await expect(chapterHeading("The Crossing")).toBeVisible();
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
});

test("a chapter renamed offline that a co-writer deleted meanwhile is shown with its text to copy, not dropped", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser(request, { name: "Rita Refused" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Lost Chapters" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The storm", content: "Rain all night." });
  const chapter = await apiAs<{ id: number }>(request, writer, "POST", `/api/timelines/${timeline.id}/chapters`, { title: "Harbour" });

  await login(page, writer);
  await keepOnDevice(page, timeline.id);
  await expect(page.getByRole("heading", { level: 3, name: "Harbour", exact: true })).toBeVisible();
  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Harbour settings" }).click();
  const section = page.getByRole("region", { name: "Harbour", exact: true });
  await section.getByLabel("Chapter title").fill("Harbour at Dawn");
  await section.getByRole("button", { name: "Save chapter" }).click();
  await expect(page.getByRole("heading", { level: 3, name: "Harbour at Dawn", exact: true })).toBeVisible();
  await expect(page.getByText("1 change waiting")).toBeVisible();

  // Meanwhile the chapter is deleted on the server; back online the rename is refused and kept on screen.
  await apiAs(request, writer, "DELETE", `/api/chapters/${chapter.id}`);
  await page.context().setOffline(false);
  const refused = page.getByRole("region", { name: "Changes not saved" });
  await expect(refused).toContainText('Rename chapter to "Harbour at Dawn"');
  await expect(refused.locator("output")).toHaveText("Harbour at Dawn");
  await expect(refused.getByRole("button", { name: "Copy" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Harbour at Dawn", exact: true })).toHaveCount(0);
  await refused.getByRole("button", { name: "Dismiss" }).click();
  await expect(refused).toHaveCount(0);
});

test("offline, a scene added, renamed and moved and another deleted show at once, survive a reload, and reach the server once each", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const writer = await createUser(request, { name: "Nell Nightrain" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Night Train" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "Boarding", content: "Platform nine." });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The dining car", content: "Soup again." });
  const serverScenes = async () =>
    (await apiAs<{ title: string; content: string; position: number }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/events`))
      .sort((a, b) => a.position - b.position)
      .map((e) => `${e.title}: ${e.content}`);

  await login(page, writer);
  await keepOnDevice(page, timeline.id);
  await expect(cardTitles(page)).toHaveText(["Boarding", "The dining car"]);

  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  // Added: shown at once, with a temporary id until the server gives it one.
  await page.getByRole("button", { name: "Add Event" }).click();
  const add = page.getByRole("dialog", { name: "Create New Event" });
  await add.getByLabel("Title").fill("The border");
  await add.getByLabel("Content").fill("Passports out.");
  await add.getByRole("button", { name: "Create Event" }).click();
  await expect(add).toHaveCount(0);
  await expect(cardTitles(page)).toHaveText(["Boarding", "The dining car", "The border"]);
  await expect(page.getByText("1 change waiting")).toBeVisible();
  // Renamed (the scene is not on the server yet: its title and text go with the queued change).
  await page.getByRole("button", { name: "Edit The border" }).click();
  const draft = page.getByTestId("event-card").filter({ has: page.getByRole("button", { name: "Save Changes" }) });
  await draft.getByLabel("Title").fill("The frontier");
  await draft.getByRole("button", { name: "Save Changes" }).click();
  await expect(cardTitles(page)).toHaveText(["Boarding", "The dining car", "The frontier"]);
  await expect(page.getByText("2 changes waiting")).toBeVisible();
  // Moved up one place (the keyboard drag).
  await page.getByRole("button", { name: "Reorder The frontier" }).focus();
  await page.keyboard.press("Space");
  await page.waitForTimeout(150);
  await page.keyboard.press("ArrowUp");
  await page.waitForTimeout(150);
  await page.keyboard.press("Space");
  await expect(cardTitles(page)).toHaveText(["Boarding", "The frontier", "The dining car"]);
  await expect(page.getByText("3 changes waiting")).toBeVisible();
  // Another deleted.
  await page.getByRole("button", { name: "Delete The dining car" }).click();
  await page.getByRole("button", { name: "Delete Event" }).click();
  await expect(cardTitles(page)).toHaveText(["Boarding", "The frontier"]);
  await expect(page.getByText("4 changes waiting")).toBeVisible();
  expect(await serverScenes()).toEqual(["Boarding: Platform nine.", "The dining car: Soup again."]);

  // Reloaded with no network: the changes are kept on the device and still shown.
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(cardTitles(page)).toHaveText(["Boarding", "The frontier"]);
  await expect(page.getByText("4 changes waiting")).toBeVisible();

  // Back online: sent in order, each once (one scene made, renamed with its real id, moved; the other deleted).
  await page.context().setOffline(false);
  await expect(page.getByText("All changes synced")).toBeVisible();
  await expect.poll(serverScenes).toEqual(["Boarding: Platform nine.", "The frontier: Passports out."]);
  await expect(cardTitles(page)).toHaveText(["Boarding", "The frontier"]);
  await expect(page.getByRole("region", { name: "Changes not saved" })).toHaveCount(0);
  // The deleted one is in Trash, once; the added one was made once (nothing of it in Trash either).
  const trash = await apiAs<{ kind: string; title: string }[]>(request, writer, "GET", "/api/trash");
  expect(trash.filter((t) => t.kind === "event").map((t) => t.title)).toEqual(["The dining car"]);
});

test("offline, chapters added in a row are kept across a reload and sent back online in one request, in order, each once", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser(request, { name: "Rowan Runs" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Three Harbours" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The quay", content: "Ropes and tar." });
  const titles = ["Setting Sail", "Open Water", "Landfall"];
  const serverChapters = async () =>
    (await apiAs<{ title: string }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/chapters`)).map((c) => c.title);

  await login(page, writer);
  await keepOnDevice(page, timeline.id);

  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  for (const title of titles) {
    await addChapter(page, title);
    await expect(page.getByRole("heading", { level: 3, name: title, exact: true })).toBeVisible();
  }
  await expect(page.getByText("3 changes waiting")).toBeVisible();
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByText("3 changes waiting")).toBeVisible();

  const creates: string[] = [];
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (req.method() === "POST" && path.startsWith(`/api/timelines/${timeline.id}/chapters`)) creates.push(path);
  });
  await page.context().setOffline(false);
  await expect(page.getByText("All changes synced")).toBeVisible();
  await expect.poll(serverChapters).toEqual(titles);
  expect(creates).toEqual([`/api/timelines/${timeline.id}/chapters/batch`]);
  for (const title of titles) await expect(page.getByRole("heading", { level: 3, name: title, exact: true })).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Changes not saved" })).toHaveCount(0);
});

test("what one timeline kept on the device outlives opening another timeline: its newest chapters stay in the device's copy", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser(request, { name: "Kit Keeper" });
  const harbour = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Harbour Lights" });
  await apiAs(request, writer, "POST", `/api/timelines/${harbour.id}/events`, { title: "The lamp", content: "Lit at dusk." });
  const inland = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Inland Roads" });
  await apiAs(request, writer, "POST", `/api/timelines/${inland.id}/events`, { title: "The fork", content: "Left or right." });

  await login(page, writer);
  await keepOnDevice(page, harbour.id);
  // Added online after the page was kept: the device's lists have it once the server confirmed it, the kept page not.
  await addChapter(page, "Low Tide");
  await expect(page.getByRole("heading", { level: 3, name: "Low Tide", exact: true })).toBeVisible();
  await expect.poll(() => keptLists(page), { timeout: 15_000 }).toContain("Low Tide");

  // Another timeline's page restores what the device kept, this timeline's lists among them, and keeps them: a
  // chapter added there makes the page save the device's copy again, and the first timeline's list is still in it.
  // (When the lists' lifetime overflowed a timer, the restored lists were dropped at once and this save lost them.)
  await keepOnDevice(page, inland.id);
  await addChapter(page, "Crossroads");
  await expect(page.getByRole("heading", { level: 3, name: "Crossroads", exact: true })).toBeVisible();
  await expect.poll(() => keptLists(page), { timeout: 15_000 }).toContain("Crossroads");
  expect(await keptLists(page)).toContain("Low Tide");

  // With no network, the first timeline's page is the service worker's copy (kept before 'Low Tide' was added) and
  // the device's lists are newer: the screen shows them, whatever the browser says of the network (here it says
  // online: the page comes from the service worker, and the server's probe answers only later).
  await page.context().setOffline(true);
  await page.goto(`/timeline/${harbour.id}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "Harbour Lights" })).toBeVisible();
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Low Tide", exact: true })).toBeVisible();
});

test("online, a page the server just made shows its lists over older ones kept on the device", async ({ page, request }) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Rue Renamer" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Salt Roads" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The quay", content: "Wet stones." });

  await login(page, writer);
  await keepOnDevice(page, timeline.id);
  await addChapter(page, "Low Tide");
  await expect.poll(() => keptLists(page), { timeout: 15_000 }).toContain("Low Tide");

  // Renamed elsewhere while the timeline is not open here: the device's copy still says 'Low Tide'; the page the
  // server makes next says the new name.
  await page.goto("/timeline");
  await waitForHydration(page);
  const [chapter] = await apiAs<{ id: number }[]>(request, writer, "GET", `/api/timelines/${timeline.id}/chapters`);
  await apiAs(request, writer, "PATCH", `/api/chapters/${chapter.id}`, { title: "High Water" });
  expect(await keptLists(page)).toContain("Low Tide");
  // What the device remembers of the pages it showed, written by something else: an entry that is not two times (a
  // page 'made' in the far future, as text) is left out, so it cannot hold the device's copy over the fresh page.
  await page.evaluate(([key, id]) => localStorage.setItem(key, JSON.stringify({ [id]: { madeAt: "9999999999999", seenAt: 0 } })), [
    "storyweave-pages-seen",
    timeline.id,
  ] as const);
  await page.goto(`/timeline/${timeline.id}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 3, name: "High Water", exact: true })).toBeVisible();
  // Still so once the device's copy was restored (it is, after the page mounts) and saved again.
  await expect.poll(() => keptLists(page), { timeout: 15_000 }).toContain("High Water");
  await expect(page.getByRole("heading", { level: 3, name: "Low Tide", exact: true })).toHaveCount(0);
});
