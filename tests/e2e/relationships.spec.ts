import { chooseLayout, createUser, expect, expectNoSeriousA11yViolations, login, openTimeline, screenshot, test, toast } from "./fixtures";

// The Relationships view (DESIGN.md §12 'A story that knows itself'): the web between codex entries, the family
// tree of the parent/child ones, both as of a scene; editors add, rename and delete, viewers only read.

import type { EventRow as Row, Entity } from "./types";

test.use({ writerOptions: { name: "Rhea Relations", premium: true }, timelineTitle: "The Salt House" });

test.describe("the Relationships view", () => {
  test("an owner relates three entries, sees the web and the family tree, and a later relationship is not there yet as of an earlier scene; a viewer only reads", async ({
    page,
    request,
    browser,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(150_000);
    const viewer = await createUser(request, { name: "Vic Viewer" });
    const base = `/api/timelines/${timeline.id}`;
    for (const title of ["The Gate", "The Duel", "The Crown"]) {
      await owner.api<Row>("POST", `${base}/events`, { title, content: `${title}.` });
    }
    for (const name of ["Mara", "Jon", "Elin"]) await owner.api<Entity>("POST", `${base}/entities`, { kind: "character", name });
    await owner.api("POST", `${base}/share-with-user`, { userEmail: viewer.email, accessLevel: "viewer" });

    await login(page, owner);
    await openTimeline(page, timeline.id);
    await chooseLayout(page, "Relationships");
    await expect(page).toHaveURL(/layout=relationships/);
    const view = page.getByTestId("relationships-view");
    await expect(view.getByText("No relationships here yet.")).toBeVisible();

    // Adding with no entries chosen gets the server's message.
    const form = view.getByRole("form", { name: "Add relationship" });
    await form.getByLabel("Label").fill("mother of");
    await form.getByRole("button", { name: "Add relationship" }).click();
    await expect(toast(page, "Choose both entries")).toBeVisible();

    const add = async (from: string, label: string, to: string, since?: string) => {
      await form.getByLabel("From").selectOption({ label: from });
      await form.getByLabel("Label").fill(label);
      await form.getByLabel("To").selectOption({ label: to });
      await form.getByLabel("Since scene").selectOption({ label: since ?? "From the start" });
      await form.getByRole("button", { name: "Add relationship" }).click();
      await expect(view.getByTestId("relationship").filter({ hasText: `${from} ${label} ${to}` })).toBeVisible();
    };
    await add("Mara", "mother of", "Jon");
    await add("Jon", "rival of", "Elin", "The Gate");
    await add("Elin", "daughter of", "Mara", "The Crown");
    await expect(view.getByTestId("relationship")).toHaveText([
      "Mara mother of Jon",
      'Jon rival of Elin (from "The Gate" on)',
      'Elin daughter of Mara (from "The Crown" on)',
    ]);

    // The web: every entry a node in its colour, every relationship a labelled line.
    const web = view.getByTestId("relationship-web");
    await expect(web.locator(".react-flow__node")).toHaveCount(3);
    await expect(web.locator(".react-flow__edge")).toHaveCount(3);
    await expect(web.locator(".react-flow__edge-text")).toHaveText(["mother of", "rival of", "daughter of"]);
    await expect(view.getByRole("button", { name: "Web" })).toHaveAttribute("aria-pressed", "true");
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "relationships-web-1280");

    // The family tree: the parent/child ones only, the parent a generation above the child.
    await view.getByRole("button", { name: "Family tree" }).click();
    const tree = view.getByTestId("family-tree");
    await expect(tree.locator(".react-flow__node")).toHaveCount(3);
    await expect(tree.locator(".react-flow__edge")).toHaveCount(2);
    const top = async (name: string) => (await tree.locator(".react-flow__node").filter({ hasText: name }).boundingBox())?.y ?? -1;
    expect(await top("Mara")).toBeLessThan(await top("Jon"));
    expect(await top("Mara")).toBeLessThan(await top("Elin"));
    await screenshot(page, "relationships-tree-1280");

    // As of The Duel: Elin is not yet Mara's daughter (that starts at The Crown), so she leaves the tree.
    await view.getByLabel("As of scene").selectOption({ label: "The Duel" });
    await expect(tree.locator(".react-flow__node")).toHaveCount(2);
    await expect(tree.locator(".react-flow__node").filter({ hasText: "Elin" })).toHaveCount(0);
    await expect(view.getByTestId("relationship")).toHaveText(["Mara mother of Jon", 'Jon rival of Elin (from "The Gate" on)']);
    await expect(view.getByTestId("relationships-later")).toHaveText("1 relationship starts after The Duel.");
    // As of The Gate the rivalry holds (it starts there); the whole story shows all three again.
    await view.getByLabel("As of scene").selectOption({ label: "The Gate" });
    await expect(view.getByTestId("relationship")).toHaveCount(2);
    await view.getByRole("button", { name: "Web" }).click();
    await expect(view.getByTestId("relationship-web").locator(".react-flow__edge")).toHaveCount(2);
    await view.getByLabel("As of scene").selectOption({ label: "The whole story" });
    await expect(view.getByTestId("relationship")).toHaveCount(3);

    // Renamed and deleted from the list.
    await view.getByRole("button", { name: 'Edit "Jon rival of Elin"' }).click();
    await view.getByTestId("relationship").getByLabel("Label").fill("sworn enemy of");
    await view.getByRole("button", { name: "Save relationship" }).click();
    await expect(toast(page, "Relationship updated")).toBeVisible();
    await expect(view.getByTestId("relationship").nth(1)).toHaveText('Jon sworn enemy of Elin (from "The Gate" on)');
    await expect(view.getByTestId("relationship-web").locator(".react-flow__edge-text")).toContainText(["sworn enemy of"]);
    await view.getByRole("button", { name: 'Delete "Elin daughter of Mara"' }).click();
    await expect(toast(page, "Relationship deleted")).toBeVisible();
    await expect(view.getByTestId("relationship")).toHaveCount(2);
    // Kept on the server: a reload reads the same.
    await page.reload();
    await expect(page.getByTestId("relationship")).toHaveText(["Mara mother of Jon", 'Jon sworn enemy of Elin (from "The Gate" on)']);

    // At 390 px the list reads in full, the graph above it.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("relationship-web")).toBeVisible();
    await expect(page.getByTestId("relationship").first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "relationships-390");

    // A viewer reads the web and the list, with no way to change them.
    const context = await browser.newContext();
    const reader = await context.newPage();
    await login(reader, viewer);
    await openTimeline(reader, `/timeline/${timeline.id}?layout=relationships`);
    const theirs = reader.getByTestId("relationships-view");
    await expect(theirs.getByTestId("relationship")).toHaveText(["Mara mother of Jon", 'Jon sworn enemy of Elin (from "The Gate" on)']);
    await expect(theirs.getByTestId("relationship-web").locator(".react-flow__node")).toHaveCount(3);
    await expect(theirs.getByRole("form", { name: "Add relationship" })).toHaveCount(0);
    await expect(theirs.getByRole("button", { name: /^(Edit|Delete) "/ })).toHaveCount(0);
    await theirs.getByRole("button", { name: "Family tree" }).click();
    await expect(theirs.getByTestId("family-tree").locator(".react-flow__node")).toHaveCount(2);
    await context.close();
  });
});
