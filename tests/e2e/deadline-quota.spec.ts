import { apiAs, createUser, expect, login, openTimeline, test } from "./fixtures";

// Deadlines (DESIGN §12): the Progress panel shows today's words against the daily quota, with thousands separators.

test("the progress panel shows today's words against the deadline's daily quota", async ({ page, request }) => {
  const owner = await createUser(request, { name: "Olive Owner" });
  const timeline = await apiAs<{ id: number }>(request, owner, "POST", "/api/timelines", { title: "The Lantern" });
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "Dawn", content: "one two three four five" });
  // 12,500 words still to write over the 10 days from today to the deadline, every day a writing day.
  const deadline = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
  await apiAs(request, owner, "PATCH", `/api/timelines/${timeline.id}`, { deadline, targetWords: 12_505 });
  await login(page, owner);
  await openTimeline(page, timeline.id);
  await page.getByRole("button", { name: "Progress", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "Progress" });
  await expect(panel.getByTestId("daily-quota")).toContainText(/^Today: \d[\d,]* of 1,250 words/);
  await expect(panel.getByTestId("daily-quota")).toContainText(`(deadline ${deadline})`);
});
