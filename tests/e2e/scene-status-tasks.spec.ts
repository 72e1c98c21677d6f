import { card, createUser, expect, login, openTimeline, test } from "./fixtures";
import { shareWith } from "./helpers/timeline";

// Scene status and tasks (DESIGN §12 'Deadlines, sessions and tasks'): a status in the scene editor shown on the
// card, a task assigned to a co-writer, and that co-writer's 'My tasks' on the home page linking to the scene.

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Tide Clock" });

test("a status on the card, a task assigned to the co-writer, and the co-writer's 'My tasks'", async ({
  page,
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  const cowriter = await createUser(request, { name: "Cora Cowriter" });
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content: "The bell rang." });
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The wall", content: "The wall held." });
  await shareWith(request, owner, timeline.id, cowriter, "collaborator");

  await openTimeline(page, timeline.id);
  await page.getByRole("button", { name: "Edit The bell" }).click();
  await page.getByLabel("Status", { exact: true }).selectOption("Draft");
  await page.getByLabel("New task", { exact: true }).fill("Check the tide tables");
  await page.getByLabel("Assign the new task to").selectOption({ label: "Cora Cowriter" });
  await page.getByRole("button", { name: "Add task" }).click();
  await expect(page.getByRole("checkbox", { name: "Check the tide tables" })).not.toBeChecked();
  await expect(page.getByLabel("Assignee of Check the tide tables").locator("option:checked")).toHaveText("Cora Cowriter");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(card(page, "The bell").getByTestId("scene-status-badge")).toHaveText("Draft");
  await page.reload();
  await expect(card(page, "The bell").getByTestId("scene-status-badge")).toHaveText("Draft");
  // The timeline filters by status, and the address keeps it.
  await page.getByRole("button", { name: /^Filters/ }).click();
  await page.getByLabel("Status", { exact: true }).selectOption("Draft");
  await expect(card(page, "The wall")).toHaveCount(0);
  await expect(card(page, "The bell")).toBeVisible();
  await expect(page).toHaveURL(/status=Draft/);
  await page.getByLabel("Status", { exact: true }).selectOption("none");
  await expect(card(page, "The bell")).toHaveCount(0);
  await expect(card(page, "The wall")).toBeVisible();

  const context = await browser.newContext();
  const other = await context.newPage();
  await login(other, cowriter);
  const mine = other.getByTestId("my-tasks");
  await expect(mine).toContainText("Check the tide tables");
  await expect(mine).toContainText("The Tide Clock");
  await mine.getByRole("link", { name: /Check the tide tables/ }).click();
  await expect(other).toHaveURL(new RegExp(`/timeline/${timeline.id}`));
  // The timeline filters by assignee: 'Mine' keeps the scenes where the co-writer has an open task.
  await expect(card(other, "The wall")).toBeVisible();
  await other.getByRole("button", { name: /^Filters/ }).click();
  await other.getByLabel("Assignee", { exact: true }).selectOption({ label: "Mine" });
  await expect(other).toHaveURL(/assignee=\d+/);
  await expect(card(other, "The wall")).toHaveCount(0);
  await expect(card(other, "The bell")).toBeVisible();
  await other.reload();
  await expect(card(other, "The bell")).toBeVisible();
  await expect(card(other, "The wall")).toHaveCount(0);
  // Someone else's scenes: the owner has no task, so 'Mine' shows none of them.
  await page.getByLabel("Status", { exact: true }).selectOption("");
  await page.getByLabel("Assignee", { exact: true }).selectOption({ label: "Mine" });
  await expect(card(page, "The bell")).toHaveCount(0);
  await expect(card(page, "The wall")).toHaveCount(0);
  await context.close();
});
