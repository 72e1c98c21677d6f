import { expect, type Locator, type Page, test } from "@playwright/test";
import { apiAs, signIn, toast, waitForHydration } from "./fixtures";
import { keepOnDevice } from "./helpers/offline";
import { premiumOwnerWithTimeline } from "./helpers/timeline";

// Write anywhere (DESIGN.md §12), the plotline grid and the codex with no network: the grid reloads offline from what
// the device kept, a card moved there is queued in the outbox (shown at once, kept across a reload, sent once back
// online), and the codex lists its entries while its write controls say 'You're offline'.
// Service workers are allowed here, as in offline.spec.ts (the rest of the suite blocks them); the fixtures' `test`
// (console errors fail a test) is not used: with no network the browser logs each failed request.
test.use({ serviceWorkers: "allow" });

const cell = (page: Page, name: string) => page.getByRole("cell", { name, exact: true });
const cardIn = (where: Locator, title: string) => where.getByTestId("grid-card").filter({ hasText: title });

type Scene = { id: number; title: string; chapterId: number | null; plotlineIds: number[] };

test("offline, the grid reloads from the device, a card moved there is queued and reaches the server once; the codex says 'You're offline'", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const { owner, timeline } = await premiumOwnerWithTimeline(request, "Offline Grid", "Gina Gridwalker");
  const base = `/api/timelines/${timeline.id}`;
  const one = await apiAs<{ id: number }>(request, owner, "POST", `${base}/chapters`, { title: "Chapter 1" });
  const two = await apiAs<{ id: number }>(request, owner, "POST", `${base}/chapters`, { title: "Chapter 2" });
  const main = await apiAs<{ id: number }>(request, owner, "POST", `${base}/plotlines`, { title: "Main plot" });
  const romance = await apiAs<{ id: number }>(request, owner, "POST", `${base}/plotlines`, { title: "Romance" });
  const storm = await apiAs<Scene>(request, owner, "POST", `${base}/events`, { title: "Storm", content: "Rain.", chapterId: one.id });
  await apiAs(request, owner, "PATCH", `/api/events/${storm.id}`, { plotlineIds: [main.id] });
  await apiAs(request, owner, "POST", `${base}/entities`, { kind: "character", name: "Mara" });
  const serverStorm = async () => (await apiAs<Scene[]>(request, owner, "GET", `${base}/events`)).find((e) => e.id === storm.id);
  // The page's requests that changed Storm on the server (answered; one tried with no network never got there).
  const patches: string[] = [];
  page.on("requestfinished", (r) => {
    if (r.method() === "PATCH" && new URL(r.url()).pathname === `/api/events/${storm.id}`) patches.push(r.postData() ?? "");
  });

  await page.setViewportSize({ width: 1280, height: 1000 });
  await signIn(page, owner);
  const address = `/timeline/${timeline.id}?layout=grid`;
  await keepOnDevice(page, address);
  await expect(cardIn(cell(page, "Main plot, Chapter 1"), "Storm")).toBeVisible();

  // Reloaded with no network: the grid is there, its rows the plotlines kept on the device.
  await page.context().setOffline(true);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: /Romance/ })).toBeVisible();
  await expect(cardIn(cell(page, "Main plot, Chapter 1"), "Storm")).toBeVisible();

  // Moved by keyboard to Romance, Chapter 2: shown at once, one change waiting.
  await cardIn(cell(page, "Main plot, Chapter 1"), "Storm").focus();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("grid-announcement")).toContainText("Picked up Storm in Main plot, Chapter 1");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("grid-announcement")).toHaveText("Main plot, Chapter 2");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("grid-announcement")).toHaveText("Romance, Chapter 2");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("grid-announcement")).toHaveText("Moved to Romance, Chapter 2");
  await expect(cardIn(cell(page, "Romance, Chapter 2"), "Storm")).toBeVisible();
  await expect(cardIn(cell(page, "Main plot, Chapter 1"), "Storm")).toHaveCount(0);
  await expect(page.getByText("1 change waiting")).toBeVisible();
  expect(await serverStorm()).toMatchObject({ chapterId: one.id, plotlineIds: [main.id] });

  // The codex lists its entries; adding, editing, deleting and linking say 'You're offline'.
  const codex = page.getByRole("region", { name: "Codex" });
  await expect(codex.getByTestId("codex-entry")).toContainText("Mara");
  for (const name of ["New entry", "Edit Mara", "Delete Mara", /Link all mentions/]) {
    const control = codex.getByRole("button", { name });
    await expect(control).toBeDisabled();
    await expect(control).toHaveAttribute("title", "You're offline");
    await expect(control).toHaveAccessibleDescription("You're offline");
  }
  // Said once on the screen, in the header beside Export and Share; the codex's own note only describes its controls.
  await expect(page.getByTestId("timeline-actions").getByText("You're offline", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(codex.getByText("You're offline", { exact: true })).toBeHidden();

  // Reloaded again with no network: still moved, still waiting.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByText("Offline", { exact: true })).toBeVisible();
  await expect(cardIn(cell(page, "Romance, Chapter 2"), "Storm")).toBeVisible();
  await expect(cardIn(cell(page, "Main plot, Chapter 1"), "Storm")).toHaveCount(0);
  await expect(page.getByText("1 change waiting")).toBeVisible();
  await expect(codex.getByTestId("codex-entry")).toContainText("Mara");

  // Back online: the move reaches the server once (one request answered), and the codex can be written again.
  expect(patches).toEqual([]);
  await page.context().setOffline(false);
  await expect(page.getByText("All changes synced")).toBeVisible();
  await expect.poll(serverStorm).toMatchObject({ chapterId: two.id, plotlineIds: [romance.id] });
  await page.waitForTimeout(1_000);
  expect(patches.map((body) => JSON.parse(body))).toEqual([{ chapterId: two.id, plotlineIds: [romance.id] }]);
  await expect(cardIn(cell(page, "Romance, Chapter 2"), "Storm")).toBeVisible();
  await expect(page.getByRole("region", { name: "Changes not saved" })).toHaveCount(0);
  await expect(codex.getByRole("button", { name: "New entry" })).toBeEnabled();
  await expect(codex.getByText("You're offline", { exact: true })).toHaveCount(0);

  // A delete confirmed after the network dropped under its open dialog says 'You're offline', and the entry stays.
  await codex.getByRole("button", { name: "Delete Mara" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this codex entry?" });
  await expect(confirm).toBeVisible();
  await page.context().setOffline(true);
  await confirm.getByRole("button", { name: "Delete Entry" }).click();
  await expect(toast(page, "You're offline")).toBeVisible();
  await expect(toast(page, "Failed to delete codex entry")).toHaveCount(0);
  // The dialog stays for a try once back online; the writer cancels it.
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await page.context().setOffline(false);
  await expect(codex.getByTestId("codex-entry")).toContainText("Mara");
  expect((await apiAs<{ name: string }[]>(request, owner, "GET", `${base}/entities`)).map((e) => e.name)).toEqual(["Mara"]);
});
