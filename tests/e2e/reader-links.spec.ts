import { apiAs, createUser, expect, test, waitForHydration } from "./fixtures";

// A beta reader opens a reader link on a phone without an account, reads, comments on a selected sentence after
// giving a name, and the owner sees the comment as 'Reader: {name}' and where the reader stopped.

test.use({ viewport: { width: 390, height: 844 } });

test("a reader reads on a phone without an account and comments on selected text", async ({ page, request }) => {
  const owner = await createUser(request, { name: "Olive Owner" });
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Lantern" });
  const scene = await apiAs<{ id: number }>(request, owner, "POST", `/api/timelines/${timeline.id}/events`, {
    title: "Dawn",
    content: "The lantern was lit at dawn.\n\nNobody saw who lit it.",
  });
  const link = await apiAs<{ id: number; code: string }>(request, owner, "POST", `/api/timelines/${timeline.id}/reader-links`, {
    label: "Book club",
  });

  await page.goto(`/read/${link.code}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "The Lantern" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Contents" })).toBeVisible();
  const para = page.getByText("Nobody saw who lit it.");
  await expect(para).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A page for reading: no app navigation, and no help button floating over the text.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Open help assistant" })).toBeHidden();

  // Select the sentence and comment on it, giving a name the first time.
  await para.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    el.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
  });
  const form = page.getByRole("form", { name: "Comment" });
  await form.getByLabel("Your name").fill("Ann");
  await form.getByLabel("Comment").fill("Who did, then?");
  await form.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("status")).toHaveText("Comment sent to the author");
  await expect(page.getByText("Your comment: Who did, then?")).toBeVisible();

  // Back later: the reader is remembered and sees their comment again.
  await page.reload();
  await expect(page.getByText("Your comment: Who did, then?")).toBeVisible();

  const comments = await apiAs<{ authorName: string; body: string }[]>(request, owner, "GET", `/api/events/${scene.id}/comments`);
  expect(comments.map((c) => [c.authorName, c.body])).toContainEqual(["Reader: Ann", "Who did, then?"]);
  await expect
    .poll(async () => {
      const links = await apiAs<{ id: number; readers: { name: string; eventId: number | null }[] }[]>(
        request,
        owner,
        "GET",
        `/api/timelines/${timeline.id}/reader-links`,
      );
      return links.find((l) => l.id === link.id)?.readers;
    })
    .toEqual([expect.objectContaining({ name: "Ann", eventId: scene.id })]);
});
