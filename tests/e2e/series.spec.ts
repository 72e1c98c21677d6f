import { apiAs, card, createUser, expect, expectNoSeriousA11yViolations, signIn, openTimeline, test, waitForHydration } from "./fixtures";

import type { Timeline } from "./types";

test.describe("series", () => {
  test("a series of two books: a character created in book 1 is in book 2's codex and on its card", async ({ page, request }) => {
    test.setTimeout(120_000);
    const owner = await createUser(request, { name: "Sia Series" });
    const one = await apiAs<Timeline>(request, owner, "POST", "/api/timelines", { title: "The First" });
    const two = await apiAs<Timeline>(request, owner, "POST", "/api/timelines", { title: "The Second" });
    await apiAs(request, owner, "POST", `/api/timelines/${one.id}/events`, { title: "Arrival", content: "She lands at dawn." });
    const scene = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${two.id}/events`, {
      title: "Return",
      content: "Back.",
    });

    // From the home page: choose the books in order.
    await signIn(page, owner);
    await page.goto("/timeline");
    await waitForHydration(page);
    await page.getByRole("button", { name: "New Series" }).click();
    const dialog = page.getByRole("dialog", { name: "New Series" });
    await dialog.getByLabel("Title").fill("The Saga");
    await dialog.getByRole("checkbox", { name: /The First/ }).check();
    await dialog.getByRole("checkbox", { name: /The Second/ }).check();
    await dialog.getByRole("button", { name: "Create Series" }).click();

    await expect(page).toHaveURL(/\/series\/\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: "The Saga" })).toBeVisible();
    const books = page.getByRole("region", { name: "Books" }).getByRole("link");
    await expect(books).toHaveText(["Book 1: The First", "Book 2: The Second"]);
    await expect(page.getByText("4 words", { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A character created in book 1 ...
    const mara = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${one.id}/entities`, {
      kind: "character",
      name: "Mara",
    });
    await apiAs(request, owner, "PATCH", `/api/events/${scene.id}`, { entityIds: [mara.id] });

    // ... is in book 2: the header names the series, the codex lists her and the card carries her chip.
    await openTimeline(page, two.id);
    await expect(page.getByText("Book 2 of")).toBeVisible();
    await expect(page.getByRole("link", { name: "The Saga" })).toHaveAttribute("href", /\/series\/\d+$/);
    await expect(page.getByRole("region", { name: "Codex" }).getByTestId("codex-entry")).toContainText(["Mara"]);
    await expect(card(page, "Return").getByTestId("entity-chip")).toHaveText(["Mara"]);
    await expectNoSeriousA11yViolations(page);
  });
});

test("the owner renames a series, reorders its books and takes one out, which keeps its characters", async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, { name: "Rae Reorder" });
  const books: Timeline[] = [];
  for (const title of ["Dawn", "Noon", "Dusk"]) books.push(await apiAs<Timeline>(request, owner, "POST", "/api/timelines", { title }));
  const series = await apiAs<{ id: number }>(request, owner, "POST", "/api/series", { title: "Day", timelineIds: books.map((b) => b.id) });
  const ivo = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${books[1].id}/entities`, {
    kind: "character",
    name: "Ivo",
  });
  await apiAs(request, owner, "POST", `/api/timelines/${books[1].id}/events`, {
    title: "Midday",
    content: "The sun stands still.",
    entityIds: [ivo.id],
  });

  await signIn(page, owner);
  await page.goto(`/series/${series.id}`);
  await waitForHydration(page);
  await page.getByLabel("Series title").fill("A Long Day");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "A Long Day" })).toBeVisible();

  const links = page.getByRole("region", { name: "Books" }).getByRole("link");
  await page.getByRole("button", { name: 'Move "Dusk" up' }).click();
  await expect(links).toHaveText(["Book 1: Dawn", "Book 2: Dusk", "Book 3: Noon"]);
  await expect(page.getByRole("button", { name: 'Move "Dawn" up' })).toBeDisabled();

  await page.getByRole("listitem").filter({ hasText: "Noon" }).getByRole("button", { name: "Remove from series" }).click();
  const confirm = page.getByRole("alertdialog", { name: 'Remove "Noon" from this series?' });
  await confirm.getByRole("button", { name: "Remove from series" }).click();
  await expect(links).toHaveText(["Book 1: Dawn", "Book 2: Dusk"]);
  await expectNoSeriousA11yViolations(page);

  // The book is on its own now, and its scene still carries Ivo.
  await openTimeline(page, books[1].id);
  await expect(card(page, "Midday").getByTestId("entity-chip")).toHaveText(["Ivo"]);
  await expect(page.getByText("Book 2 of")).toHaveCount(0);
});
