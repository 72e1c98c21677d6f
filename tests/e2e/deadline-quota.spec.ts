import { expect, openTimeline, test, waitForHydration } from "./fixtures";

// Deadlines (DESIGN §12): the Progress panel shows today's words against the daily quota, with thousands separators.

test.use({ writerOptions: { name: "Olive Owner", premium: false } });

test.describe(() => {
  test.use({ timelineTitle: "The Lantern" });
  test("the progress panel shows today's words against the deadline's daily quota", async ({ page, writer: owner, timeline }) => {
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Dawn", content: "one two three four five" });
    // 12,500 words still to write over the 10 days from today to the deadline, every day a writing day.
    const deadline = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    await owner.api("PATCH", `/api/timelines/${timeline.id}`, { deadline, targetWords: 12_505 });
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Progress", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "Progress" });
    await expect(panel.getByTestId("daily-quota")).toContainText(/^Today: \d[\d,]* of 1,250 words/);
    await expect(panel.getByTestId("daily-quota")).toContainText(`(deadline ${deadline})`);
  });
});

test.describe(() => {
  test.use({ timelineTitle: "The Tide" });
  test("the owner sets the deadline and writing days in the Progress panel; the quota follows", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Dawn", content: "one two three four five" });
    await owner.api("PATCH", `/api/timelines/${timeline.id}`, { targetWords: 10_005 });
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Progress", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "Progress" });
    await expect(panel.getByTestId("daily-quota")).toHaveCount(0);
    // Ten days from today, every day a writing day: 10,000 words still to write, 1,000 a day.
    const deadline = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const form = panel.getByRole("form", { name: "Deadline" });
    await form.getByLabel("Deadline").fill(deadline);
    await form.getByRole("button", { name: "Save deadline" }).click();
    await expect(panel.getByTestId("daily-quota")).toContainText(/^Today: \d[\d,]* of 1,000 words/);
    const saved = await owner.api<{ deadline: string; writingDays: number[] }>("GET", `/api/timelines/${timeline.id}`);
    expect(saved).toMatchObject({ deadline, writingDays: [1, 2, 3, 4, 5, 6, 7] });
    // No writing day at all is refused with the server's words; nothing changes.
    for (const day of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) await form.getByLabel(day).uncheck();
    await form.getByRole("button", { name: "Save deadline" }).click();
    await expect(form.getByRole("alert")).toContainText("Writing days must be");
    expect((await owner.api<{ writingDays: number[] }>("GET", `/api/timelines/${timeline.id}`)).writingDays).toHaveLength(7);
  });
});

test.describe(() => {
  test.use({ timelineTitle: "The Sprint" });
  test("focus mode's session target: words written since it opened against a target the writer sets and keeps", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Dawn", content: "The sun rose." });
    await page.goto(`/timeline/${timeline.id}/manuscript`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Focus mode" }).click();
    const session = page.getByTestId("session-target");
    await expect(session.getByRole("button", { name: "Session: 500 words" })).toBeVisible();
    await session.getByRole("button", { name: "Session: 500 words" }).click();
    await session.getByLabel("Session target").fill("4");
    await session.getByLabel("Session target").press("Enter");
    await expect(session.getByRole("button", { name: "Session: 4 words" })).toBeVisible();
    const editor = page.getByRole("textbox", { name: "Text of Dawn" });
    await expect(editor).toHaveAttribute("contenteditable", "true");
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Gulls cried over the harbour.", { delay: 50 });
    await expect(session).toContainText("5 written");
    await expect(session.getByRole("progressbar", { name: "Session progress" })).toHaveAttribute("value", "4");
    // The target stays for the next session; the count starts again.
    await page.reload();
    await waitForHydration(page);
    await page.getByRole("button", { name: "Focus mode" }).click();
    await expect(session.getByRole("button", { name: "Session: 4 words" })).toBeVisible();
    await expect(session).toContainText("0 written");
  });
});
