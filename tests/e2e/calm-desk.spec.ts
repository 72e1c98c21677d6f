import type { Page } from "@playwright/test";
import {
  apiAs,
  chooseLayout,
  createUser,
  expect,
  layoutMenu,
  openHome,
  openPanel,
  openTimeline,
  test,
  toast,
  waitForHydration,
} from "./fixtures";

test.describe(() => {
  test.use({ writerOptions: { name: "Calm Desk", premium: false } });
  test("Import stands next to New Timeline on the home page", async ({ page, writer: _ }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHome(page);
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
});

test.describe(() => {
  test.use({ writerOptions: { name: "Side Panel", premium: false }, timelineTitle: "Wide Desk" });
  test("the side column hides, the timeline takes the full width, and it stays hidden over a reload", async ({
    page,
    writer,
    timeline,
  }) => {
    await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "First scene", content: "It begins." });
    await page.setViewportSize({ width: 1280, height: 800 });
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
});

test.describe(() => {
  test.use({ writerOptions: { name: "Old Choice", premium: false }, timelineTitle: "Old Desk" });
  test("a side column hidden before the cookie (kept in this browser's storage) is moved over once", async ({ page, timeline }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHome(page);
    await page.evaluate(() => window.localStorage.setItem("storyweave:side-panel", "hidden"));
    await openTimeline(page, timeline.id);
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "Show side panel" })).toHaveAttribute("aria-expanded", "false");
    expect(await page.evaluate(() => window.localStorage.getItem("storyweave:side-panel"))).toBeNull();
    const html = await (await page.request.get(`/timeline/${timeline.id}`)).text();
    expect(html).toContain(">Show side panel<");
  });
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

test.describe(() => {
  test.use({ writerOptions: { name: "Many Books", premium: true } });
  test("a new timeline is selected and its events brought into view, with SPEC's toast", async ({ page, writer }) => {
    for (let i = 1; i <= 12; i++) await writer.api("POST", "/api/timelines", { title: `Older Book ${i}`, description: "An older book." });
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHome(page);
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
});

/** The first scene card's top edge, in the viewport. */
const firstCardTop = async (page: Page) => (await page.getByTestId("event-card").first().boundingBox())?.y ?? Number.POSITIVE_INFINITY;

/** Every visible control above the first scene card that overlaps another one (as 'A × B'). */
const overlappingControls = (page: Page) =>
  page.evaluate(() => {
    const first = document.querySelector('[data-testid="event-card"]')?.getBoundingClientRect().top ?? Number.POSITIVE_INFINITY;
    const controls = Array.from(document.querySelectorAll("main button, main a, main select, main input"))
      .map((el) => ({ name: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30), box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0 && box.bottom <= first);
    const found: string[] = [];
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i].box;
        const b = controls[j].box;
        const apart = a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
        if (!apart) found.push(`${controls[i].name} × ${controls[j].name}`);
      }
    }
    return found;
  });

/** How many rows the header's actions (Manuscript, Export, Share, Add Event…) take. */
const actionRows = (page: Page) =>
  page.getByTestId("timeline-actions").evaluate((el) => {
    const tops = new Set<number>();
    for (const child of Array.from(el.querySelectorAll("button, a"))) {
      const box = child.getBoundingClientRect();
      if (box.width > 0) tops.add(Math.round(box.top));
    }
    return tops.size;
  });

test.describe(() => {
  test.use({ writerOptions: { name: "Calm Owner", premium: true }, timelineTitle: "A Calm Desk" });
  test("one layout menu and one Panels menu: the first scene stands above the fold at 1280 and 390 px", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    for (const title of ["Opening", "Middle", "Ending"]) {
      await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: `${title} text.` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHome(page);
    await page.evaluate(() => window.localStorage.removeItem("storyweave:side-panel"));
    await openTimeline(page, timeline.id);

    // The six layout buttons are one menu naming the current layout; the panels one 'Panels' menu.
    await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Vertical");
    for (const name of ["Grid", "Lanes", "Map", "Ruler", "Horizontal", "Comments", "Activity", "Reader links", "Calendar"]) {
      await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
    }
    await layoutMenu(page).click();
    await expect(page.getByRole("menuitemradio")).toHaveText(["Vertical", "Horizontal", "Lanes", "Grid", "Ruler", "Map", "Relationships"]);
    await expect(page.getByRole("menuitemradio", { name: "Vertical" })).toHaveAttribute("aria-checked", "true");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toBeHidden();
    await page.getByRole("button", { name: "Panels", exact: true }).click();
    await expect(page.getByRole("menuitem")).toHaveText(["Comments", "Activity", "Plotlines", "Calendar", "Reader links"]);
    await page.keyboard.press("Escape");

    // Side column open: the bar is one row and the first scene is above the fold.
    await expect(page.locator("#timeline-side-panel")).toBeVisible();
    await expect.poll(() => firstCardTop(page)).toBeLessThan(800);
    expect(await overlappingControls(page)).toEqual([]);
    await page.screenshot({ path: "test-results/shots/desk-1280-side-shown.png" });
    await page.getByRole("button", { name: "Hide side panel" }).click();
    await expect(page.locator("#timeline-side-panel")).toBeHidden();
    await expect.poll(() => firstCardTop(page)).toBeLessThan(800);
    expect(await overlappingControls(page)).toEqual([]);
    await page.screenshot({ path: "test-results/shots/desk-1280-side-hidden.png" });

    // By keyboard: the menu opens on Enter, arrows move through the layouts, Enter picks; the address keeps it.
    await layoutMenu(page).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitemradio", { name: "Vertical" })).toBeFocused();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitemradio", { name: "Grid" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/layout=grid/);
    await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Grid");
    await chooseLayout(page, "Vertical");
    await expect(page).not.toHaveURL(/layout=/);
    // A layout stays reachable by its address.
    await page.goto(`/timeline/${timeline.id}?layout=lanes`);
    await waitForHydration(page);
    await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Lanes");
    await expect(page.getByRole("button", { name: "By character" })).toHaveAttribute("aria-pressed", "true");

    // A panel opens from the menu as its button did.
    await openPanel(page, "Activity");
    await expect(page.getByRole("dialog", { name: "Activity" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();

    // A phone: the header's actions take two rows at most and the first scene's top is above the fold.
    await page.setViewportSize({ width: 390, height: 844 });
    await openTimeline(page, timeline.id);
    await expect.poll(() => actionRows(page)).toBeLessThanOrEqual(2);
    await expect.poll(() => firstCardTop(page)).toBeLessThan(844);
    expect(await overlappingControls(page)).toEqual([]);
    await page.screenshot({ path: "test-results/shots/desk-390.png" });
  });
});

test("a menu whose code is still on its way takes the key that opens it: Enter opens the layouts on the first one", async ({
  page,
  writer,
  timeline,
}) => {
  await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The tide", content: "It turns." });
  // The menus' code (radix's DropdownMenu) arrives only when the test lets it, as on a slow phone.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/desk-menus-radix-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await openTimeline(page, timeline.id);

  // From the keyboard: focusing the button asks for the code; Enter lands before it; then the code arrives.
  const asked = page.waitForRequest(/\/assets\/desk-menus-radix-/);
  await layoutMenu(page).focus();
  await asked;
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu")).toHaveCount(0);
  release();
  // The menu opens as from the keyboard: its first item (the current layout) focused, arrows move, Enter picks.
  await expect(page.getByRole("menuitemradio", { name: "Vertical" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitemradio", { name: "Horizontal" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/layout=horizontal/);
  await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Horizontal");

  // The Panels menu (the same code, here now) opens on a click; its entries open their dialogs.
  await openPanel(page, "Activity");
  await expect(page.getByRole("dialog", { name: "Activity" })).toBeVisible();
});

// Measured before the side column's toggle joined the Events row (it stood in a row of its own above the scenes):
// the first scene card's top at 1280 × 800, side column shown, was 482 px.
const FIRST_CARD_TOP_BEFORE = 482;

test.describe(() => {
  test.use({ writerOptions: { name: "Docked Help", premium: false }, timelineTitle: "Docked Help" });
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${size.width} px a toast and the help button leave the toolbars, 'Jump to event' and the side column clear`, async ({
      page,
      writer,
      timeline,
    }) => {
      const long = Array.from({ length: 8 }, (_, i) => `Line ${i + 1} of a scene long enough to fill the card.`).join("\n\n");
      for (const title of ["Opening", "Middle", "Ending"]) {
        await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: long });
      }
      await page.setViewportSize(size);
      await openHome(page);
      await page.evaluate(() => window.localStorage.removeItem("storyweave:side-panel"));
      await openTimeline(page, timeline.id);
      await waitForHydration(page);
      const wide = size.width >= 1024;

      if (wide) {
        // The side column's toggle shares the Events row (order, layout, panels): no row of its own above the scenes.
        const toggle = page.getByRole("button", { name: "Hide side panel" });
        await expect(toggle).toBeVisible();
        const toggleBox = (await toggle.boundingBox()) as Box;
        const layoutBox = (await layoutMenu(page).boundingBox()) as Box;
        expect(Math.abs(toggleBox.y + toggleBox.height / 2 - (layoutBox.y + layoutBox.height / 2))).toBeLessThan(4);
        await expect(page.getByTestId("events-bar").getByRole("button", { name: "Hide side panel" })).toBeVisible();
        await expect(page.locator("#timeline-side-panel")).toBeVisible();
        await expect.poll(() => firstCardTop(page)).toBeLessThan(FIRST_CARD_TOP_BEFORE);
        expect(await overlappingControls(page)).toEqual([]);
      }

      // A toast: an event created through the dialog.
      await page.getByRole("button", { name: "Add Event" }).click();
      const add = page.getByRole("dialog", { name: "Create New Event" });
      await add.getByLabel("Title").fill("Added scene");
      await add.getByLabel("Content").fill("A scene added through the dialog.");
      await add.getByRole("button", { name: "Create Event" }).click();
      await expect(add).toBeHidden();
      const shown = toast(page, "Event created successfully");
      await expect(shown).toBeVisible();
      let previous = Number.NaN;
      await expect
        .poll(async () => {
          const y = (await shown.boundingBox())?.y ?? Number.NaN;
          const still = y === previous;
          previous = y;
          return still;
        })
        .toBe(true);
      const toastBox = (await shown.boundingBox()) as Box;
      const help = page.getByRole("button", { name: "Open help assistant" });
      await expect(help).toBeVisible();
      const helpBox = (await help.boundingBox()) as Box;
      expect(overlaps(helpBox, toastBox), "the toast stands clear of the help button").toBe(false);

      // What must stay clear: the toolbars' controls (the book's actions, the Events row, the filters' row with
      // 'Jump to event') and, on a wide screen, the side column (Codex, Story Assistant), with every control in it.
      const guarded = () =>
        page.evaluate(() => {
          const found: { name: string; box: { x: number; y: number; width: number; height: number } }[] = [];
          const add = (el: Element, name?: string) => {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight) return;
            found.push({
              name: name ?? el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? el.tagName,
              box: r.toJSON(),
            });
          };
          const bars = ["[data-testid='timeline-actions']", "[data-testid='events-bar']", "form[aria-label='Jump to event']"];
          for (const bar of Array.from(document.querySelectorAll(bars.join(", ")))) {
            for (const el of Array.from(bar.querySelectorAll("button, a, input, select"))) add(el);
          }
          const jump = document.querySelector("form[aria-label='Jump to event']");
          if (jump) add(jump, "Jump to event");
          const side = document.querySelector("#timeline-side-panel");
          if (side) {
            add(side, "side column");
            for (const el of Array.from(side.querySelectorAll("button, a, input, select, textarea"))) add(el);
          }
          return found;
        });
      const first = await guarded();
      const names = first.map((c) => c.name);
      expect(names).toContain("Jump to event");
      expect(names).toContain("Add Event");
      expect(names.some((n) => n.startsWith("Layout: "))).toBe(true);
      if (wide) expect(names).toContain("side column");
      expect(
        first.filter((c) => overlaps(c.box, toastBox)).map((c) => c.name),
        "under the toast",
      ).toEqual([]);
      expect(
        first.filter((c) => overlaps(c.box, helpBox)).map((c) => c.name),
        "under the help button",
      ).toEqual([]);
      if (wide) {
        // On a wide screen the toast covers nothing of the page at all: no control, heading or line of text.
        const underToast = await page.evaluate((t) => {
          const hit: string[] = [];
          const all = "main button, main a, main input, main select, main textarea, main h1, main h2, main h3, main p, nav a, nav button";
          for (const el of Array.from(document.querySelectorAll(all))) {
            if (el.closest("[data-sonner-toaster]")) continue;
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) continue;
            if (r.left < t.x + t.width && t.x < r.right && r.top < t.y + t.height && t.y < r.bottom)
              hit.push(el.textContent?.trim().slice(0, 30) ?? el.tagName);
          }
          return hit;
        }, toastBox);
        expect(underToast, "anything under the toast").toEqual([]);
      }
      await page.screenshot({ path: `test-results/shots/toast-event-${size.width}.png` });

      // A window just tall enough for 'Jump to event': the control at its foot, where the floating help button stood.
      const jumpForm = page.getByRole("form", { name: "Jump to event" });
      const jumpBottom = await jumpForm.evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.setViewportSize({ width: size.width, height: Math.ceil(jumpBottom) + 8 });
      const jumpBox = (await jumpForm.boundingBox()) as Box;
      expect(jumpBox.y + jumpBox.height).toBeGreaterThan(Math.ceil(jumpBottom) - 60);
      const helpNow = (await help.boundingBox()) as Box;
      expect(overlaps(helpNow, jumpBox), "the help button over 'Jump to event'").toBe(false);
      await page.screenshot({ path: `test-results/shots/jump-at-foot-${size.width}.png` });
    });
  }
});
