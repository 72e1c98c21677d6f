import { apiAs, createUser, expect, login, makePremium, openTimeline, test, toast, waitForHydration } from "./fixtures";

test("Import stands next to New Timeline on the home page", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Calm Desk" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  await waitForHydration(page);
  const importButton = page.getByRole("button", { name: "Import" });
  const newTimeline = page.getByRole("button", { name: "New Timeline" });
  await expect(importButton).toBeVisible();
  await expect(newTimeline).toBeVisible();
  // Neighbours in the heading's actions: nothing between them.
  const adjacent = await importButton.evaluate((el) => {
    const next = el.nextElementSibling;
    return next?.textContent?.includes("New Timeline") ?? false;
  });
  expect(adjacent).toBe(true);
  await page.screenshot({ path: "test-results/shots/home-1280.png" });
});

test("the side column hides, the timeline takes the full width, and it stays hidden over a reload", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Side Panel" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Wide Desk" });
  await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title: "First scene", content: "It begins." });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  await openTimeline(page, timeline.id);
  await waitForHydration(page);
  const events = page.getByRole("region", { name: "Timeline events" });
  const narrow = (await events.boundingBox())?.width ?? 0;
  const hide = page.getByRole("button", { name: "Hide side panel" });
  await expect(hide).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: "test-results/shots/timeline-1280-side-shown.png" });
  await hide.click();
  const show = page.getByRole("button", { name: "Show side panel" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator("#timeline-side-panel")).toBeHidden();
  await expect.poll(async () => (await events.boundingBox())?.width ?? 0).toBeGreaterThan(narrow + 300);
  const top = (await page.getByTestId("event-card").first().boundingBox())?.y ?? Number.POSITIVE_INFINITY;
  // The first scene stands above the fold.
  expect(top).toBeLessThan(800);
  await page.screenshot({ path: "test-results/shots/timeline-1280-side-hidden.png" });

  // The server's own HTML (the browser's cookies, no script run) is already drawn with the column hidden.
  const html = await (await page.request.get(`/timeline/${timeline.id}`)).text();
  expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*>Show side panel<\/button>/);
  expect(html).not.toContain(">Hide side panel<");
  expect(html).toMatch(/id="timeline-side-panel" class="[^"]*\blg:hidden\b/);

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Show side panel" })).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator("#timeline-side-panel")).toBeHidden();
  await page.getByRole("button", { name: "Show side panel" }).click();
  await expect(page.locator("#timeline-side-panel")).toBeVisible();
  await expect(page.getByRole("button", { name: "Hide side panel" })).toHaveAttribute("aria-expanded", "true");
  // A phone keeps the column below the scenes and has no toggle.
  await page.getByRole("button", { name: "Hide side panel" }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("button", { name: "Show side panel" })).toBeHidden();
  await expect(page.locator("#timeline-side-panel")).toBeVisible();
  await page.screenshot({ path: "test-results/shots/timeline-390.png" });
});

test("a side column hidden before the cookie (kept in this browser's storage) is moved over once", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Old Choice" });
  const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Old Desk" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  await page.evaluate(() => window.localStorage.setItem("storyweave:side-panel", "hidden"));
  await openTimeline(page, timeline.id);
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Show side panel" })).toHaveAttribute("aria-expanded", "false");
  expect(await page.evaluate(() => window.localStorage.getItem("storyweave:side-panel"))).toBeNull();
  const html = await (await page.request.get(`/timeline/${timeline.id}`)).text();
  expect(html).toContain(">Show side panel<");
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${size.width} px toasts and the help button cover neither the toolbars nor the manuscript's last line`, async ({
    page,
    request,
  }) => {
    const writer = await createUser(request, { name: "Clear Desk" });
    const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "Clear Desk" });
    const long = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i + 1} of the scene, long enough to wrap over a line or two on a phone.`,
    ).join("\n\n");
    for (const title of ["Opening", "Middle", "Ending"]) {
      await apiAs(request, writer, "POST", `/api/timelines/${timeline.id}/events`, { title, content: long });
    }
    await page.setViewportSize(size);
    // Signed in through the form, landing on the timeline: 'Welcome back!' shows there.
    await page.goto(`/auth/login?redirectTo=/timeline/${timeline.id}`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(writer.email);
    await page.getByLabel("Password").fill(writer.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(new RegExp(`/timeline/${timeline.id}$`));
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Welcome back!" });
    await expect(toast).toBeVisible();
    await expect(page.getByTestId("event-card").first()).toBeVisible();
    // Let the toast's entrance finish before measuring it.
    let previous = Number.NaN;
    await expect
      .poll(async () => {
        const y = (await toast.boundingBox())?.y ?? Number.NaN;
        const still = y === previous;
        previous = y;
        return still;
      })
      .toBe(true);
    const toastBox = (await toast.boundingBox()) as Box;
    // Every control and heading of the page's top (navigation, title row, toolbars), outside the scenes.
    const controls = await page.evaluate(() => {
      const found: { name: string; box: { x: number; y: number; width: number; height: number } }[] = [];
      for (const el of Array.from(
        document.querySelectorAll<HTMLElement>("nav a, nav button, h1, main button, main a, main input, main select"),
      )) {
        if (el.closest("[data-sonner-toaster], [data-testid='event-card'], #timeline-side-panel")) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        found.push({ name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName, box: r.toJSON() });
      }
      return found;
    });
    // A phone's first screen is the title row and toolbars down to its foot: there the toast (at the foot, above the
    // help button) must leave the navigation, the title row and the book's actions above the events clear.
    const eventsTop = ((await page.getByRole("region", { name: "Timeline events" }).boundingBox()) as Box).y;
    const top = size.width < 640 ? controls.filter((c) => c.box.y < eventsTop) : controls;
    expect(top.length).toBeGreaterThan(3);
    expect(top.map((c) => c.name)).toContain("Clear Desk");
    const covered = top.filter((c) => overlaps(c.box, toastBox)).map((c) => c.name);
    expect(covered, "controls under the toast").toEqual([]);
    const help = page.getByRole("button", { name: "Open help assistant" });
    const helpBox = (await help.boundingBox()) as Box;
    expect(overlaps(helpBox, toastBox), "the toast stands clear of the help button").toBe(false);
    await page.screenshot({ path: `test-results/shots/toast-${size.width}.png` });

    // The manuscript scrolled to its end: its last line is clear of the help button and of the status line's words.
    await page.goto(`/timeline/${timeline.id}/manuscript`);
    await waitForHydration(page);
    const last = page.getByTestId("manuscript-scene").last().locator("p").last();
    await expect(last).toHaveText("Paragraph 12 of the scene, long enough to wrap over a line or two on a phone.");
    // Measured in one go, again until settled: a scene's editor takes the place of its text as it nears the screen.
    const measure = () =>
      page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        const scenes = document.querySelectorAll("[data-testid='manuscript-scene']");
        const paragraphs = scenes[scenes.length - 1]?.querySelectorAll("p");
        const lastLine = paragraphs?.[paragraphs.length - 1]?.getBoundingClientRect();
        const help = document.querySelector("[aria-label='Open help assistant']")?.getBoundingClientRect();
        if (!lastLine || !help) return null;
        const status = Array.from(document.querySelectorAll("[data-testid='manuscript-status'] span"), (s) => s.getBoundingClientRect());
        return {
          lastText: paragraphs?.[paragraphs.length - 1]?.textContent,
          lastOnScreen: lastLine.height > 0 && lastLine.bottom <= window.innerHeight,
          helpOverLastLine: hit(lastLine, help),
          statusWords: status.length > 0,
          helpOverStatus: status.some((box) => hit(box, help)),
        };
      });
    await expect.poll(measure).toEqual({
      lastText: "Paragraph 12 of the scene, long enough to wrap over a line or two on a phone.",
      lastOnScreen: true,
      helpOverLastLine: false,
      statusWords: true,
      helpOverStatus: false,
    });
    await page.screenshot({ path: `test-results/shots/manuscript-end-${size.width}.png` });
  });
}

test("a new timeline is selected and its events brought into view, with SPEC's toast", async ({ page, request }) => {
  const writer = await createUser(request, { name: "Many Books" });
  await makePremium(request, writer);
  for (let i = 1; i <= 12; i++)
    await apiAs(request, writer, "POST", "/api/timelines", { title: `Older Book ${i}`, description: "An older book." });
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, writer);
  const heading = page.locator("#events-heading");
  await expect(heading).toBeAttached();
  // Twelve cards push the selected timeline's events below the fold.
  await expect(heading).not.toBeInViewport();
  await page.getByRole("button", { name: "New Timeline" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Timeline" });
  await dialog.getByLabel("Title").fill("The Newest Book");
  await dialog.getByRole("button", { name: "Create Timeline" }).click();
  await expect(toast(page, "Timeline created successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/timeline\?timeline=\d+$/);
  await expect(page.getByRole("combobox", { name: "Select timeline" })).toContainText("The Newest Book");
  await expect(heading).toContainText("The Newest Book");
  await expect(heading).toBeInViewport();
  await expect(heading).toBeFocused();
  await expect(page.getByText("No events yet. Create your first event!")).toBeInViewport();
  await page.screenshot({ path: "test-results/shots/home-new-book-1280.png" });
});
