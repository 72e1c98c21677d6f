import type { APIRequestContext, Locator, Page } from "@playwright/test";
import {
  apiAs,
  docText,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  screenshot,
  type TestUser,
  test,
  waitForHydration,
  openTimeline,
  writerPage,
} from "./fixtures";
import { bellScene, shareWith } from "./helpers/timeline";
import { openEditor as openSceneEditor } from "./helpers/editor";

// Co-writing. Everyone with edit access writes in the same event at once (one Yjs doc per event,
// carets with names, 'Mara is writing here' on the card), offline edits merge, Cancel and Ctrl+Z undo only
// the writer's own changes, formatting is stored as Markdown.

import type { EventRow } from "./types";

const setup = (request: APIRequestContext, people: { name: string; access: "collaborator" | "viewer" }[]) =>
  bellScene(request, "The bell rang.", people);

const events = (request: APIRequestContext, user: TestUser, timelineId: number) =>
  apiAs<EventRow[]>(request, user, "GET", `/api/timelines/${timelineId}/events`);

/** Opens the card's editor and waits until the doc is synced (the editor becomes editable). */
async function openEditor(page: Page) {
  // The editor also loads the scene's Tasks (one request: the tasks and who may be assigned): settled before a test
  // cuts the network.
  const loaded = page.waitForResponse((r) => /\/api\/events\/\d+\/task-panel$/.test(new URL(r.url()).pathname));
  const content = await openSceneEditor(page, "The bell rang.");
  await loaded;
  return content;
}

const status = (page: Page) => page.getByTestId("co-editor-status");

/** Puts the caret in the content's first paragraph: at its start, its end, or after `after`. */
async function caretAt(content: Locator, where: "start" | "end" | { after: string }) {
  await content.evaluate((el, where) => {
    // The paragraph's text nodes, without the other writers' caret labels.
    const walker = document.createTreeWalker(el.querySelector("p") as HTMLElement, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n.parentElement?.closest(".collaboration-carets__caret") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    const nodes: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
    let node = nodes[0];
    let offset = 0;
    if (where === "end") {
      node = nodes[nodes.length - 1];
      offset = node.length;
    } else if (where !== "start") {
      let at =
        nodes
          .map((n) => n.data)
          .join("")
          .indexOf(where.after) + where.after.length;
      for (const n of nodes) {
        node = n;
        if (at <= n.length) break;
        at -= n.length;
      }
      offset = at;
    }
    (el as HTMLElement).focus();
    const range = document.createRange();
    range.setStart(node, offset);
    range.collapse(true);
    const selection = window.getSelection() as Selection;
    selection.removeAllRanges();
    selection.addRange(range);
  }, where);
}

test.describe("co-writing", () => {
  test("three writers type in the same paragraph at once: carets with names, 'X is writing here', everything merges, a viewer sees it live, Save keeps it", async ({
    page,
    browser,
    request,
  }) => {
    // Four browsers sign in and open the timeline.
    test.setTimeout(180_000);
    const { owner, timeline, users } = await setup(request, [
      { name: "Cole Collab", access: "collaborator" },
      { name: "Tess Third", access: "collaborator" },
      { name: "Vera Viewer", access: "viewer" },
    ]);
    const [cole, tess, vera] = users;
    await signIn(page, owner);
    await openTimeline(page, timeline.id);
    const c = await writerPage(browser, cole, timeline.id);
    const t = await writerPage(browser, tess, timeline.id);
    const v = await writerPage(browser, vera, timeline.id);

    // Cole opens the editor: the others' card says so, and editing stays open to them.
    const coleContent = await openEditor(c.page);
    await expect(page.getByText("Cole Collab is writing here")).toBeVisible();
    await expect(v.page.getByText("Cole Collab is writing here")).toBeVisible();
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeEnabled();
    const ownerContent = await openEditor(page);
    await expect(t.page.getByText("Olive Owner and Cole Collab are writing here")).toBeVisible();
    const tessContent = await openEditor(t.page);
    await expect(
      v.page.getByText(/^(Olive Owner|Cole Collab|Tess Third), (Olive Owner|Cole Collab|Tess Third) and 1 more are writing here$/),
    ).toBeVisible();
    // Each editor names the others in it.
    await expect(page.getByTestId("co-editor-writers")).toContainText("Cole Collab");
    await expect(page.getByTestId("co-editor-writers")).toContainText("Tess Third");

    // All three type in the same paragraph at the same time.
    await caretAt(ownerContent, "start");
    await caretAt(coleContent, "end");
    await caretAt(tessContent, { after: "The bell" });
    await Promise.all([
      page.keyboard.type("Olive-one ", { delay: 40 }),
      c.page.keyboard.type(" Cole-two", { delay: 40 }),
      t.page.keyboard.type(" Tess-three", { delay: 40 }),
    ]);
    const expected = "Olive-one The bell Tess-three rang. Cole-two";
    for (const content of [ownerContent, coleContent, tessContent]) await expect.poll(() => docText(content)).toBe(expected);
    // Everyone sees the others' carets with their names.
    await expect(page.locator(".collaboration-carets__label").filter({ hasText: "Cole Collab" })).toBeVisible();
    await expect(page.locator(".collaboration-carets__label").filter({ hasText: "Tess Third" })).toBeVisible();
    await expect(c.page.locator(".collaboration-carets__label").filter({ hasText: "Olive Owner" })).toBeVisible();
    await expect(t.page.locator(".collaboration-carets__label").filter({ hasText: "Cole Collab" })).toBeVisible();
    await screenshot(page, "co-writing-three-carets");
    // The viewer's card shows the text live, before anyone saves.
    await expect(v.page.getByTestId("event-card")).toContainText(expected);
    for (const p of [page, c.page, t.page]) await expect(status(p)).toHaveText("All changes saved");
    await expectNoSeriousA11yViolations(page);

    // Save: a version with the text, and the editor closes; a reload shows it.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();
    await expect(page.getByTestId("event-card")).toContainText(expected);
    const [saved] = await events(request, owner, timeline.id);
    expect(saved.content).toBe(expected);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByTestId("event-card")).toContainText(expected);
    await expect(page.getByText(/^(Cole Collab and Tess Third|Tess Third and Cole Collab) are writing here$/)).toBeVisible();
    for (const x of [c, t, v]) await x.context.close();
  });

  test("offline typing says so and merges on reconnect; Cancel and Ctrl+Z undo only my own changes", async ({ page, browser, request }) => {
    test.setTimeout(120_000);
    const { owner, timeline, users } = await setup(request, [{ name: "Cole Collab", access: "collaborator" }]);
    await signIn(page, owner);
    await openTimeline(page, timeline.id);
    const c = await writerPage(browser, users[0], timeline.id);
    const ownerContent = await openEditor(page);
    const coleContent = await openEditor(c.page);

    // Cole goes offline and keeps writing; the owner writes meanwhile.
    await c.context.setOffline(true);
    await expect(status(c.page)).toHaveText("Offline — changes will sync");
    await caretAt(coleContent, "end");
    await c.page.keyboard.type(" Written offline.");
    await caretAt(ownerContent, "start");
    await page.keyboard.type("Online. ");
    await expect.poll(() => docText(ownerContent)).toBe("Online. The bell rang.");
    await c.context.setOffline(false);
    await expect(status(c.page)).toHaveText("All changes saved");
    await expect.poll(() => docText(ownerContent)).toBe("Online. The bell rang. Written offline.");
    await expect.poll(() => docText(coleContent)).toBe("Online. The bell rang. Written offline.");

    // Ctrl+Z undoes only my own typing, not Cole's.
    await caretAt(coleContent, "end");
    await c.page.keyboard.type(" Cole stays.");
    await expect.poll(() => docText(ownerContent)).toContain("Cole stays.");
    await caretAt(ownerContent, { after: "The bell" });
    // One input (as a word typed in one go): one undo step.
    await page.keyboard.insertText(" tolled");
    await expect.poll(() => docText(coleContent)).toContain("The bell tolled rang.");
    await page.keyboard.press("ControlOrMeta+z");
    await expect.poll(() => docText(ownerContent)).toBe("Online. The bell rang. Written offline. Cole stays.");
    await expect.poll(() => docText(coleContent)).toBe("Online. The bell rang. Written offline. Cole stays.");

    // Cancel undoes everything I did since opening (my 'Online. '), and keeps Cole's.
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();
    await expect.poll(() => docText(coleContent)).toBe("The bell rang. Written offline. Cole stays.");
    await expect(page.getByTestId("event-card")).toContainText("The bell rang. Written offline. Cole stays.");
    await expect(status(c.page)).toHaveText("All changes saved");

    // Cole's reload keeps what the page said was saved.
    await c.page.reload();
    await waitForHydration(c.page);
    await expect(c.page.getByTestId("event-card")).toContainText("The bell rang. Written offline. Cole stays.");
    await c.context.close();
  });

  test("edits typed offline in an editor whose page was then closed are sent when the timeline opens online again", async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const { owner, timeline } = await setup(request, []);
    await signIn(page, owner);
    await openTimeline(page, timeline.id);
    const content = await openEditor(page);
    await page.context().setOffline(true);
    await expect(status(page)).toHaveText("Offline — changes will sync");
    await caretAt(content, "end");
    await page.keyboard.type(" Kept in the browser.");
    await expect.poll(() => docText(content)).toBe("The bell rang. Kept in the browser.");
    // The browser's copy is written (IndexedDB) before the page goes away with the editor still open.
    await page.waitForTimeout(500);
    await page.goto("about:blank");
    await page.context().setOffline(false);
    expect((await events(request, owner, timeline.id))[0].content).toBe("The bell rang.");

    // Back online: the timeline sends the kept edits without the editor being opened, and the card shows them.
    await openTimeline(page, timeline.id);
    await expect(page.getByTestId("event-card")).toContainText("The bell rang. Kept in the browser.");
    await expect.poll(async () => (await events(request, owner, timeline.id))[0].content).toBe("The bell rang. Kept in the browser.");
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();
  });

  test("Bold, a heading and a scene break are stored as Markdown; the open editor passes axe", async ({ page, request }) => {
    const { owner, timeline } = await setup(request, []);
    await signIn(page, owner);
    await openTimeline(page, timeline.id);
    const content = await openEditor(page);
    await caretAt(content, "end");
    const bold = page.getByRole("button", { name: "Bold" });
    await expect(bold).toHaveAttribute("aria-pressed", "false");
    await page.keyboard.type(" ");
    await bold.click();
    await expect(bold).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.type("It tolled twice.");
    await page.keyboard.press("Enter");
    await bold.click();
    await page.getByRole("button", { name: "Scene break" }).click();
    await page.getByRole("button", { name: "Heading" }).click();
    await page.keyboard.type("Later");
    await expect(content.locator("strong")).toHaveText("It tolled twice.");
    await expect(content.locator("hr")).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "co-writing-formatting");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();
    const [event] = await events(request, owner, timeline.id);
    expect(event.content).toContain("The bell rang. **It tolled twice.**");
    expect(event.content).toContain("---");
    expect(event.content).toContain("## Later");

    // A title D1 cannot take: the line says why instead of 'All changes saved', Save says it too, nothing is lost.
    await openEditor(page);
    const title = page.getByLabel("Title", { exact: true });
    await title.fill("");
    await expect(status(page)).toHaveText("Not saved: Please fill in both title and content");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Please fill in both title and content" }).first()).toBeVisible();
    await title.fill("The bell again");
    await expect(status(page)).toHaveText("All changes saved");
    expect((await events(request, owner, timeline.id))[0].title).toBe("The bell again");
  });

  test("the owner removes a collaborator while they type: they are told why and their text is there to copy", async ({
    page,
    browser,
    request,
  }) => {
    // Long (two browsers typing, 13 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    const {
      owner,
      timeline,
      users: [mara],
    } = await setup(request, [{ name: "Mara", access: "collaborator" }]);
    const m = await writerPage(browser, mara, timeline.id);
    await m.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const content = await openEditor(m.page);
    await signIn(page, owner);
    await openTimeline(page, timeline.id);
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share Timeline" });
    await dialog.getByRole("tab", { name: "Share with User" }).click();

    // Mara is mid-sentence when the owner removes her.
    await caretAt(content, "end");
    await m.page.keyboard.type(" The tide turned and she");
    await dialog.getByRole("button", { name: `Remove ${mara.email}` }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Share Removed" }).first()).toBeVisible();

    const editor = m.page.getByTestId("co-editor-ended");
    await expect(editor.getByRole("alert")).toHaveText("Your access to this timeline was removed");
    const box = editor.getByLabel("Your text");
    await expect(box).toHaveValue("The bell\n\nThe bell rang. The tide turned and she");
    await expect(box).toHaveAttribute("readonly", "");
    await expect(m.page.getByRole("alert").filter({ hasText: "Copy your text from the editor below" })).toBeVisible();
    await expect(m.page.getByRole("heading", { name: "Timeline not found" })).toHaveCount(0);
    await editor.getByRole("button", { name: "Copy" }).click();
    await expect(m.page.locator("[data-sonner-toast]").filter({ hasText: "Copied to clipboard!" }).first()).toBeVisible();
    expect(await m.page.evaluate(() => navigator.clipboard.readText())).toBe("The bell\n\nThe bell rang. The tide turned and she");
    // The box takes focus (keyboard users can select and copy it themselves).
    await box.focus();
    await expect(box).toBeFocused();
    await expectNoSeriousA11yViolations(m.page);
    await screenshot(m.page, "co-writing-access-removed");

    // Nothing she could still send reaches the timeline; a reload shows she has no access.
    await m.page.keyboard.type(" more");
    await m.page.reload();
    await expect(m.page.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
    expect((await events(request, owner, timeline.id))[0].content).not.toContain("more");
    await m.context.close();
  });

  test("the owner makes a writing collaborator a viewer: the editor says so and keeps their text, the page turns read-only", async ({
    browser,
    request,
  }) => {
    const {
      owner,
      timeline,
      users: [mara],
    } = await setup(request, [{ name: "Mara", access: "collaborator" }]);
    const m = await writerPage(browser, mara, timeline.id);
    const content = await openEditor(m.page);
    await caretAt(content, "end");
    await m.page.keyboard.type(" Half a thought");
    await shareWith(request, owner, timeline.id, mara, "viewer");

    const editor = m.page.getByTestId("co-editor-ended");
    await expect(editor.getByRole("alert")).toHaveText("Your access to this timeline was changed to view-only");
    await expect(editor.getByLabel("Your text")).toHaveValue("The bell\n\nThe bell rang. Half a thought");
    await expect(m.page.getByRole("status").filter({ hasText: "Your access to this timeline was changed to view-only" })).toBeVisible();
    await expect(m.page.getByText("Viewer", { exact: true })).toBeVisible();
    await expect(m.page.getByRole("button", { name: "Add Event" })).toHaveCount(0);
    await editor.getByRole("button", { name: "Close" }).click();
    await expect(m.page.getByRole("button", { name: "Edit The bell" })).toHaveCount(0);
    await expect(m.page.getByText("Connected", { exact: true })).toBeVisible();
    await m.context.close();
  });
});
