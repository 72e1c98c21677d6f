import type { APIRequestContext, Page } from "@playwright/test";
import { type Writer, createUser, expect, openTimeline, screenshot, signIn, test, waitForHydration, writerPage } from "./fixtures";
import type { Timeline } from "./types";

// Issue 48's rest (DESIGN §12 'Readers', 'Deadlines, sessions and tasks'): a viewer opening a shared book lands in
// the Manuscript with the timeline one click away; 'Active collaborators' counts only the people who can edit;
// the scene editor's Tasks open with one request and follow a co-writer's changes live; at 390 px the task input
// keeps its width.

test.use({ writerOptions: { name: "Olive Owner", premium: true } });

/** The owner's book (the writer's, the fixture's timeline) with two scenes, shared with a viewer and an editor. */
async function sharedBook(request: APIRequestContext, owner: Writer, timeline: Timeline) {
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content: "The bell rang." });
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The wall", content: "The wall held." });
  const viewer = await createUser(request, { name: "Vera Viewer" });
  const editor = await createUser(request, { name: "Cole Collab" });
  await owner.api("POST", `/api/timelines/${timeline.id}/share-with-user`, { userEmail: viewer.email, accessLevel: "viewer" });
  await owner.api("POST", `/api/timelines/${timeline.id}/share-with-user`, {
    userEmail: editor.email,
    accessLevel: "collaborator",
  });
  return { owner, timeline, viewer, editor };
}

/** The scene editor's task requests: `/api/events/{id}/tasks`, `/assignees` or `/task-panel` loads. */
const isTaskLoad = (url: string, method: string) =>
  method === "GET" && /\/api\/events\/\d+\/(tasks|assignees|task-panel)$/.test(new URL(url).pathname);

/** Opens 'The bell' in the scene editor; resolves once its Tasks have loaded. */
async function openBell(page: Page) {
  const loaded = page.waitForResponse((r) => /\/api\/events\/\d+\/task-panel$/.test(new URL(r.url()).pathname));
  await page.getByRole("button", { name: "Edit The bell" }).click();
  await loaded;
  await expect(page.getByLabel("New task", { exact: true })).toBeVisible();
}

test.describe(() => {
  test.use({ timelineTitle: "The Tide Clock" });

  test("a viewer opening the book lands in the Manuscript and reaches the timeline in one click; an editor lands on the timeline", async ({
    page,
    browser,
    request,
    writer,
    timeline,
  }) => {
    const { owner, viewer, editor } = await sharedBook(request, writer, timeline);

    await signIn(page, viewer);
    await page.goto("/timeline");
    await waitForHydration(page);
    await page.getByRole("link", { name: "The Tide Clock" }).click();
    await expect(page).toHaveURL(new RegExp(`/timeline/${timeline.id}/manuscript$`));
    await expect(page.getByRole("heading", { level: 1, name: "The Tide Clock" })).toBeVisible();
    await expect(page.getByText("The bell rang.")).toBeVisible();
    // The planning workspace's controls are not in the reader's way.
    await expect(page.getByRole("button", { name: /^Filters/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Focus mode" })).toHaveCount(0);
    await screenshot(page, "viewer-lands-in-manuscript");
    await page.getByRole("link", { name: "Open the timeline" }).click();
    await expect(page).toHaveURL(new RegExp(`/timeline/${timeline.id}$`));
    await expect(page.getByText("Viewer", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Filters/ })).toBeVisible();

    // An editor is not sent to the Manuscript: the book opens on the timeline.
    const e = await writerPage(browser, editor);
    await e.page.getByRole("link", { name: "The Tide Clock" }).click();
    await expect(e.page).toHaveURL(new RegExp(`/timeline/${timeline.id}$`));
    await expect(e.page.getByRole("button", { name: "Add Event" })).toBeVisible();
    await e.context.close();

    // A view-only share link: joining lands in the Manuscript, and so does opening the link again.
    const link = await owner.api<{ shareCode: string }>("POST", `/api/timelines/${timeline.id}/share`, { role: "viewer" });
    const guest = await createUser(request, { name: "Gus Guest" });
    const g = await writerPage(browser, guest);
    await g.page.goto(`/timeline/shared/${link.shareCode}`);
    await waitForHydration(g.page);
    await g.page.getByRole("button", { name: "Join timeline" }).click();
    await expect(g.page).toHaveURL(new RegExp(`/timeline/${timeline.id}/manuscript$`));
    await expect(g.page.getByText("The wall held.")).toBeVisible();
    await g.page.goto(`/timeline/shared/${link.shareCode}`);
    await expect(g.page).toHaveURL(new RegExp(`/timeline/${timeline.id}/manuscript$`));
    await expect(g.page.getByRole("link", { name: "Open the timeline" })).toBeVisible();
    await g.context.close();
  });
});

test.describe(() => {
  test.use({ timelineTitle: "The Glass Orchard" });

  test("'Active collaborators' counts the owner and editors, not a viewer reading along", async ({
    page,
    browser,
    request,
    writer,
    timeline,
  }) => {
    const { viewer, editor } = await sharedBook(request, writer, timeline);
    await openTimeline(page, timeline.id);
    const v = await writerPage(browser, viewer, timeline.id);
    // The editor comes after the viewer: once the owner sees the editor, the room has told it about the viewer too.
    const e = await writerPage(browser, editor, timeline.id);
    for (const p of [page, v.page, e.page]) {
      await expect(p.getByRole("button", { name: /Active collaborators \(2\)/ })).toBeVisible();
    }
    await page.getByRole("button", { name: /Active collaborators \(2\)/ }).click();
    const list = page.getByRole("dialog", { name: "Active collaborators (2)" });
    await expect(list.getByRole("listitem")).toHaveText([/Olive Owner/, /Cole Collab/]);
    await expect(list).not.toContainText("Vera Viewer");
    await v.context.close();
    await e.context.close();
  });
});

test.describe(() => {
  test.use({ timelineTitle: "The Salt Road" });

  test("the scene editor's Tasks open with one request and follow a co-writer's changes live; at 390 px the input keeps its width", async ({
    page,
    browser,
    request,
    writer,
    timeline,
  }) => {
    const { editor } = await sharedBook(request, writer, timeline);
    await openTimeline(page, timeline.id);
    const taskLoads: string[] = [];
    page.on("request", (r) => {
      if (isTaskLoad(r.url(), r.method())) taskLoads.push(new URL(r.url()).pathname);
    });
    await openBell(page);
    const e = await writerPage(browser, editor, timeline.id);
    await openBell(e.page);
    expect(taskLoads).toHaveLength(1);

    // The owner adds a task for the editor: it shows in the editor's open scene editor without a reload.
    await page.getByLabel("New task", { exact: true }).fill("Check the tide tables");
    await page.getByLabel("Assign the new task to").selectOption({ label: "Cole Collab" });
    await page.getByRole("button", { name: "Add task" }).click();
    await expect(page.getByRole("checkbox", { name: "Check the tide tables" })).not.toBeChecked();
    const theirs = e.page.getByRole("checkbox", { name: "Check the tide tables" });
    await expect(theirs).not.toBeChecked();
    await expect(e.page.getByLabel("Assignee of Check the tide tables").locator("option:checked")).toHaveText("Cole Collab");
    // The editor ticks it: the owner's box follows.
    await theirs.check();
    await expect(page.getByRole("checkbox", { name: "Check the tide tables" })).toBeChecked();
    // The owner deletes it: gone from the editor's list too.
    await page.getByRole("button", { name: "Delete task Check the tide tables" }).click();
    await expect(theirs).toHaveCount(0);
    await e.context.close();

    // On a phone the task input is not squeezed by the assignee picker and the button.
    await page.setViewportSize({ width: 390, height: 844 });
    const input = page.getByLabel("New task", { exact: true });
    await input.scrollIntoViewIfNeeded();
    const tasks = page.getByTestId("scene-tasks");
    await tasks.screenshot({ path: "test-results/screens/scene-tasks-390.png" });
    const box = await input.boundingBox();
    const panel = await tasks.boundingBox();
    expect(box && panel).toBeTruthy();
    // At least 12rem (192 px), and inside the panel.
    expect(box!.width).toBeGreaterThanOrEqual(190);
    expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 1);
  });
});
