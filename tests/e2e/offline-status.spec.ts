import { type Locator, type Page, expect, test } from "@playwright/test";
import { apiAs, chooseLayout, createUser, makePremium, openPanel, openTimeline, signIn, waitForHydration } from "./fixtures";
import { underServiceWorker } from "./helpers/offline";

// Write anywhere (DESIGN.md §12), as the writer sees it: the sync status sits in the page's flow (the timeline's
// title row, beside the connection badge) so it covers nothing on a phone; the connection badge says 'Offline' as
// soon as the network goes; 'You're offline' is written once on the screen while each locked control keeps its title
// and description. SHOTS_DIR=<dir> keeps screenshots of each state for a look.

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** No shown sync status (in the header or the app's strip) overlaps `target`, as they are on the screen now. */
async function expectNothingOver(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  // The bottom of the window, where a bar fixed there would sit.
  await target.evaluate((el) => el.scrollIntoView({ block: "end" }));
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  const statuses = page.getByTestId("sync-status").filter({ visible: true });
  const offlineBadge = page.getByText("Offline", { exact: true }).filter({ visible: true });
  for (const status of [...(await statuses.all()), ...(await offlineBadge.all())]) {
    const other = await status.boundingBox();
    if (other && box) expect(intersects(other, box), `${await status.textContent()} covers the Story Assistant's button`).toBe(false);
  }
}

const shot = async (page: Page, name: string) => {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: false });
};

/** 'You're offline' as drawn on the screen (the locked controls' own notes only describe them). */
const drawnOfflineNotes = (page: Page) => page.getByText("You're offline", { exact: true }).filter({ visible: true });

async function writerOnTimeline(page: Page, request: Parameters<typeof createUser>[0], name: string) {
  const writer = await createUser(request, { name });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Harbour Lights" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The quay", content: "Rain on the stones." });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/entities`, { kind: "character", name: "Mara" });
  await signIn(page, writer);
  await openTimeline(page, timeline.id);
  return timeline;
}

test("at 390 px the sync status covers nothing (online and offline); the badge says 'Offline' at once and 'Connected' again once back", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await writerOnTimeline(page, request, "Pip Phone");
  const suggest = page.getByRole("button", { name: "Suggest Plot Idea" });
  await expect(suggest).toBeVisible();
  await expectNothingOver(page, suggest);
  await shot(page, "390-online");

  await page.context().setOffline(true);
  const header = page.getByRole("main");
  await expect(header.getByText("Connected", { exact: true })).toHaveCount(0);
  await expect(header.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByTestId("sync-status").filter({ visible: true })).toHaveText(/All changes synced/);
  await expectNothingOver(page, suggest);
  await shot(page, "390-offline-bottom");
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "390-offline-top");
  await expect(drawnOfflineNotes(page)).toHaveCount(1);
  // The locked Story Assistant button keeps its title and description.
  await expect(suggest).toHaveAttribute("title", "You're offline");
  await expect(suggest).toHaveAccessibleDescription("You're offline");

  await page.context().setOffline(false);
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await expectNothingOver(page, suggest);
  await expect(drawnOfflineNotes(page)).toHaveCount(0);
});

test("at 1280 px offline, 'You're offline' is written once; Export, 'Upgrade to Share', Reader links and the codex keep their titles", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await writerOnTimeline(page, request, "Dee Desk");
  await shot(page, "1280-online");

  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByText("Connected", { exact: true })).toHaveCount(0);
  const codex = page.getByRole("region", { name: "Codex" });
  const locked = [
    page.getByRole("button", { name: "Export", exact: true }),
    page.getByRole("button", { name: "Upgrade to Share" }),
    codex.getByRole("button", { name: "New entry" }),
    page.getByRole("button", { name: "Suggest Plot Idea" }),
  ];
  for (const control of locked) {
    await expect(control).toBeDisabled();
    await expect(control).toHaveAttribute("title", "You're offline");
    await expect(control).toHaveAccessibleDescription("You're offline");
  }
  await expect(drawnOfflineNotes(page)).toHaveCount(1);
  // Said in the header, beside the controls it is about.
  await expect(page.getByTestId("timeline-actions").getByText("You're offline", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(codex.getByText("You're offline", { exact: true })).toBeHidden();
  await shot(page, "1280-offline");

  await page.context().setOffline(false);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await expect(page.getByText("You're offline", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toBeVisible();
});

test("on /timeline offline, 'You're offline' is written once and what cannot be queued is locked: New Timeline, Add Event, New Series, Import, a card's Edit, Delete and 'Upgrade to Share'", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const writer = await createUser(request, { name: "Hal Home" });
  for (const title of ["Harbour Lights", "Salt Roads"]) {
    const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title });
    await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "The quay", content: "Rain on the stones." });
  }
  await signIn(page, writer);
  await page.goto("/timeline");
  await waitForHydration(page);
  const locked = [
    page.getByRole("button", { name: "New Timeline" }),
    page.getByRole("button", { name: "Add Event" }),
    page.getByRole("button", { name: "New Series" }),
    page.getByRole("button", { name: "Import", exact: true }),
    page.getByRole("button", { name: "Edit Harbour Lights" }),
    page.getByRole("button", { name: "Delete Salt Roads" }),
    page.getByRole("link", { name: "Upgrade to Share" }).first(),
  ];
  for (const control of locked) await expect(control).toBeEnabled();
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toHaveCount(2);

  await page.context().setOffline(true);
  locked[6] = page.getByRole("button", { name: "Upgrade to Share" }).first();
  for (const control of locked) {
    await expect(control).toBeDisabled();
    await expect(control).toHaveAttribute("title", "You're offline");
    await expect(control).toHaveAccessibleDescription("You're offline");
  }
  await expect(page.getByRole("button", { name: "Upgrade to Share" })).toHaveCount(2);
  // Once, in the actions row beside New Timeline; not again on each card.
  await expect(drawnOfflineNotes(page)).toHaveCount(1);
  await expect(page.getByTestId("timeline-card").getByText("You're offline", { exact: true }).filter({ visible: true })).toHaveCount(0);
  const note = await drawnOfflineNotes(page).boundingBox();
  const create = await locked[0].boundingBox();
  expect(note && create && Math.abs(note.y + note.height / 2 - (create.y + create.height / 2))).toBeLessThan(20);
  await shot(page, "home-offline");

  await page.context().setOffline(false);
  await expect(page.getByText("You're offline", { exact: true })).toHaveCount(0);
  for (const control of locked.slice(0, 6)) await expect(control).toBeEnabled();
  await expect(page.getByRole("link", { name: "Upgrade to Share" })).toHaveCount(2);
  await page.getByRole("button", { name: "New Timeline" }).click();
  await expect(page.getByRole("dialog", { name: "Create New Timeline" })).toBeVisible();
});

/** A dialog's action button as it is with no network: disabled, saying why (its title and its description). */
async function expectLockedOffline(button: Locator) {
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute("title", "You're offline");
  await expect(button).toHaveAccessibleDescription("You're offline");
}

test("on /timeline, dialogs opened online lock their action when the network drops (typed text kept) and send it once back: New Timeline, Edit Timeline, New Series, Add Event, Delete", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser(request, { name: "Dora Dialogs" });
  for (const title of ["Harbour Lights", "Salt Roads"]) await apiAs(request, writer, "POST", "/api/timelines", { title });
  await signIn(page, writer);
  await page.goto("/timeline");
  await waitForHydration(page);
  const network = page.context();

  /**
   * Opens a dialog online and types `text` into its `field`, then cuts the network: its `action` is locked saying
   * why, Enter sends nothing, the text stays; back online the action is enabled again.
   */
  const lockedWhileOffline = async (opener: string, name: string, field: string, text: string, action: string) => {
    await page.getByRole("button", { name: opener }).click();
    const dialog = page.getByRole("dialog", { name });
    const input = dialog.getByLabel(field, { exact: true });
    await input.fill(text);
    const button = dialog.getByRole("button", { name: action });
    await expect(button).toBeEnabled();
    await network.setOffline(true);
    await expectLockedOffline(button);
    await input.press("Enter");
    await expect(dialog).toBeVisible();
    await expect(input).toHaveValue(text);
    await network.setOffline(false);
    await expect(button).toBeEnabled();
    await expect(button).not.toHaveAttribute("title", "You're offline");
    await expect(input).toHaveValue(text);
    return { dialog, button };
  };
  const titles = async () => (await apiAs<{ title: string }[]>(request, writer, "GET", "/api/timelines")).map((t) => t.title).sort();

  // New Timeline: locked offline, then sent once back.
  const created = await lockedWhileOffline("New Timeline", "Create New Timeline", "Title", "The Drowned Bell", "Create Timeline");
  await created.button.click();
  await expect(created.dialog).toBeHidden();
  await expect.poll(titles).toEqual(["Harbour Lights", "Salt Roads", "The Drowned Bell"]);

  // Edit Timeline (a card's Edit), New Series, and Add Event (from this page it is not queued: no timeline screen).
  for (const [opener, name, field, text, action] of [
    ["Edit Harbour Lights", "Edit Timeline", "Title", "Harbour Lamps", "Save Changes"],
    ["New Series", "New Series", "Title", "Sea Cycle", "Create Series"],
    ["Add Event", "Create New Event", "Title", "Fog horn", "Create Event"],
  ]) {
    const { dialog } = await lockedWhileOffline(opener, name, field, text, action);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }

  // The delete confirmation.
  await page.getByRole("button", { name: "Delete Salt Roads" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure?" });
  const remove = confirm.getByRole("button", { name: "Delete Timeline" });
  await expect(remove).toBeEnabled();
  await network.setOffline(true);
  await expectLockedOffline(remove);
  await network.setOffline(false);
  await expect(remove).toBeEnabled();
  await remove.click();
  await expect(confirm).toBeHidden();
  await expect.poll(titles).toEqual(["Harbour Lights", "The Drowned Bell"]);
});

test("the New Timeline dialog's structures, not read as the network went, are read by themselves once it is back", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await createUser(request, { name: "Stella Structures" });
  await signIn(page, writer);
  await page.goto("/timeline");
  await waitForHydration(page);
  const network = page.context();
  // The list is asked for as the dialog opens, just as the network goes: it gets no answer.
  await page.route(
    "**/api/templates",
    async (route) => {
      await network.setOffline(true);
      await route.abort("internetdisconnected");
    },
    { times: 1 },
  );
  await page.getByRole("button", { name: "New Timeline" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Timeline" });
  const structure = dialog.getByLabel("Start from a structure");
  await expect(dialog.getByText("You're offline: the structures load when you are back online.")).toBeVisible();
  await expect(structure).toBeDisabled();
  await dialog.getByLabel("Title", { exact: true }).fill("The Long Tide");
  await network.setOffline(false);
  // Nothing touched: the list comes by itself, and the title typed meanwhile stays.
  await expect(structure).toBeEnabled();
  await expect(dialog.getByText("You're offline", { exact: false })).toHaveCount(0);
  await structure.selectOption("save-the-cat");
  await expect(dialog.getByLabel("Title", { exact: true })).toHaveValue("The Long Tide");
  await dialog.getByRole("button", { name: "Create Timeline" }).click();
  await expect(dialog).toBeHidden();
  const timelines = await apiAs<{ id: number; title: string }[]>(request, writer, "GET", "/api/timelines");
  const made = timelines.find((t) => t.title === "The Long Tide");
  expect(made).toBeDefined();
  const events = await apiAs<unknown[]>(request, writer, "GET", `/api/timelines/${made?.id}/events`);
  expect(events).toHaveLength(15);
});

test("the Relationships and Map layouts and the /series page lock what changes the server while offline (typed values kept) and send it once back", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const writer = await createUser(request, { name: "Lorna Locks" });
  await makePremium(request, writer);
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "The Glass Coast" });
  const base = `/api/timelines/${timeline.id}`;
  for (const name of ["Mara", "Jon"]) await apiAs(request, writer, "POST", `${base}/entities`, { kind: "character", name });
  const series = await apiAs<{ id: number }>(request, writer, "POST", "/api/series", { title: "Coast Cycle", timelineIds: [timeline.id] });
  await signIn(page, writer);
  await openTimeline(page, timeline.id);
  const network = page.context();
  const relationships = async () => (await apiAs<{ label: string }[]>(request, writer, "GET", `${base}/relationships`)).map((r) => r.label);

  // Relationships: 'Add relationship', then a relationship's 'Save relationship' (Enter too) and its Delete.
  await chooseLayout(page, "Relationships");
  const view = page.getByTestId("relationships-view");
  const form = view.getByRole("form", { name: "Add relationship" });
  await form.getByLabel("From").selectOption({ label: "Mara" });
  await form.getByLabel("Label").fill("sister of");
  await form.getByLabel("To").selectOption({ label: "Jon" });
  const add = form.getByRole("button", { name: "Add relationship" });
  await network.setOffline(true);
  await expectLockedOffline(add);
  await form.getByLabel("Label").press("Enter");
  await expect(form.getByLabel("Label")).toHaveValue("sister of");
  await network.setOffline(false);
  await expect(add).toBeEnabled();
  await add.click();
  await expect.poll(relationships).toEqual(["sister of"]);

  await view.getByRole("button", { name: 'Edit "Mara sister of Jon"' }).click();
  const label = view.getByTestId("relationship").getByLabel("Label");
  await label.fill("twin of");
  const save = view.getByRole("button", { name: "Save relationship" });
  await network.setOffline(true);
  await expectLockedOffline(save);
  await label.press("Enter");
  await expect(label).toHaveValue("twin of");
  expect(await relationships()).toEqual(["sister of"]);
  await network.setOffline(false);
  await expect(save).toBeEnabled();
  await save.click();
  await expect.poll(relationships).toEqual(["twin of"]);
  const remove = view.getByRole("button", { name: 'Delete "Mara twin of Jon"' });
  await network.setOffline(true);
  await expectLockedOffline(remove);
  await network.setOffline(false);
  await remove.click();
  await expect.poll(relationships).toEqual([]);

  // The Map: 'Add idea' (Enter too) and 'Add group'.
  await chooseLayout(page, "Map");
  const ideas = async () =>
    (await apiAs<{ nodes: { kind?: string; label: string }[] }>(request, writer, "GET", `${base}/map`)).nodes.map((n) => n.label);
  await page.getByLabel("Idea text").fill("The glass remembers");
  const addIdea = page.getByRole("button", { name: "Add idea" });
  const addGroup = page.getByRole("button", { name: "Add group" });
  // At the map, a line says why it is locked (the header's badge may be scrolled away); its hint then promises no
  // moving nor editing, and both come back online.
  const mapStatus = page.getByTestId("map-offline");
  const mapHint = page.getByTestId("map-help");
  await expect(mapHint).toContainText("arrow keys to move");
  await expect(mapStatus).toHaveText("");
  await network.setOffline(true);
  await expect(mapStatus).toHaveRole("status");
  await expect(mapStatus).toHaveText("You're offline");
  await expect(mapStatus).toBeVisible();
  await expect(mapHint).toHaveText("Pan and zoom to explore. Tab to a node and press Enter to select it, Enter again to open it.");
  await expectLockedOffline(addIdea);
  await expectLockedOffline(addGroup);
  await page.getByLabel("Idea text").press("Enter");
  await expect(page.getByLabel("Idea text")).toHaveValue("The glass remembers");
  expect(await ideas()).not.toContain("The glass remembers");
  await network.setOffline(false);
  await expect(mapStatus).toHaveText("");
  await expect(mapStatus).toBeHidden();
  await expect(mapHint).toContainText("arrow keys to move");
  await expect(mapHint).toContainText("Delete removes the selected idea, group or connection.");
  await expect(addIdea).toBeEnabled();
  await addIdea.click();
  await expect.poll(ideas).toContain("The glass remembers");
  // Offline, the idea is neither edited in place (F2), moved (arrows) nor removed (Delete); back online, Delete removes it.
  const idea = page.getByRole("group", { name: "Idea: The glass remembers" });
  await expect(idea).toBeVisible();
  await idea.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Selected node" })).toContainText("The glass remembers");
  const at = await idea.boundingBox();
  await network.setOffline(true);
  await expect(mapStatus).toHaveText("You're offline");
  await expectLockedOffline(page.getByRole("region", { name: "Selected node" }).getByRole("button", { name: "Edit text" }));
  await page.keyboard.press("F2");
  await expect(page.getByLabel("Idea text (Enter saves, Escape cancels)")).toHaveCount(0);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Delete");
  await page.waitForTimeout(500);
  expect((await idea.boundingBox())?.x).toBe(at?.x);
  await expect(idea).toBeVisible();
  expect(await ideas()).toContain("The glass remembers");
  await network.setOffline(false);
  await idea.focus();
  await page.keyboard.press("Delete");
  await expect.poll(ideas).not.toContain("The glass remembers");

  // The series page: 'Rename' and the 'Remove from series' confirmation.
  const seriesOf = () => apiAs<{ title: string; timelines: unknown[] }>(request, writer, "GET", `/api/series/${series.id}`);
  await page.goto(`/series/${series.id}`);
  await waitForHydration(page);
  await page.getByLabel("Series title").fill("Coast Saga");
  const rename = page.getByRole("button", { name: "Rename" });
  await network.setOffline(true);
  await expectLockedOffline(rename);
  await page.getByLabel("Series title").press("Enter");
  await expect(page.getByLabel("Series title")).toHaveValue("Coast Saga");
  await network.setOffline(false);
  await expect(rename).toBeEnabled();
  await rename.click();
  await expect.poll(async () => (await seriesOf()).title).toBe("Coast Saga");
  await page.getByRole("button", { name: "Remove from series" }).click();
  const confirm = page.getByRole("alertdialog", { name: 'Remove "The Glass Coast" from this series?' });
  const confirmRemove = confirm.getByRole("button", { name: "Remove from series" });
  await network.setOffline(true);
  await expectLockedOffline(confirmRemove);
  await network.setOffline(false);
  await expect(confirmRemove).toBeEnabled();
  await confirmRemove.click();
  await expect.poll(async () => (await seriesOf()).timelines).toEqual([]);
});

test("on /timeline/{id}, the Calendar dialog opened online locks 'Save Calendar' offline; 'Create New Event' (queued by the outbox) stays enabled", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await writerOnTimeline(page, request, "Cal Endar");
  await openPanel(page, "Calendar");
  const calendar = page.getByRole("dialog", { name: "Calendar" });
  await calendar.getByLabel("Start from a preset").selectOption({ label: "13 × 28 days" });
  await calendar.getByLabel("Era 2 name").fill("Age of Lamps");
  const save = calendar.getByRole("button", { name: "Save Calendar" });
  await page.context().setOffline(true);
  await expectLockedOffline(save);
  await expect(calendar.getByLabel("Era 2 name")).toHaveValue("Age of Lamps");
  await page.context().setOffline(false);
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Calendar saved" })).toBeVisible();
  await expect(calendar).toBeHidden();

  // Adding a scene is queued offline: its dialog's button stays enabled (not locked).
  await page.getByRole("button", { name: "Add Event" }).click();
  const add = page.getByRole("dialog", { name: "Create New Event" });
  await add.getByLabel("Title").fill("Lamp lighter");
  await add.getByLabel("Content").fill("Dusk on the quay.");
  await page.context().setOffline(true);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  const create = add.getByRole("button", { name: "Create Event" });
  await expect(create).toBeEnabled();
  await expect(create).not.toHaveAttribute("title", "You're offline");
});

test.describe("with the service worker", () => {
  // The rest of this file keeps the suite's blocked service worker; a page read from the device needs it.
  test.use({ serviceWorkers: "allow" });

  test("/timeline reloaded offline says 'My tasks' wait for the network (no error), and lists them once back online", async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const writer = await createUser(request, { name: "Tess Tasks" });
    const me = await apiAs<{ id: number }>(request, writer, "GET", "/api/auth/me");
    const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Harbour Lights" });
    const scene = await apiAs<{ id: number }>(request, writer, "POST", `/api/timelines/${timeline.id}/events`, {
      title: "The quay",
      content: "Rain on the stones.",
    });
    await apiAs(request, writer, "POST", `/api/events/${scene.id}/tasks`, { text: "Check the tide tables", assigneeId: me.id });
    await signIn(page, writer);
    await page.goto("/timeline");
    await waitForHydration(page);
    const tasks = page.getByTestId("my-tasks");
    await expect(tasks.getByRole("link", { name: "Check the tide tables" })).toBeVisible();
    // The service worker takes this page over, then the page is loaded once through it (so it is kept).
    await underServiceWorker(page);
    await page.reload();
    await waitForHydration(page);
    await expect(tasks.getByRole("link", { name: "Check the tide tables" })).toBeVisible();

    await page.context().setOffline(true);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Timeline", level: 1 })).toBeVisible();
    await expect(tasks).toContainText("You're offline: your tasks show when you are back online.");
    await expect(tasks.getByText("Could not load your tasks.")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "New Timeline" })).toBeDisabled();
    await shot(page, "home-offline-tasks");

    await page.context().setOffline(false);
    await expect(tasks.getByRole("link", { name: "Check the tide tables" })).toBeVisible();
    await expect(tasks).not.toContainText("You're offline");
  });
});
