import type { Locator, Page } from "@playwright/test";
import {
  chooseLayout,
  layoutMenu,
  card,
  createUser,
  screenshot,
  signIn,
  test,
  type Writer,
  waitForHydration,
  writerPage,
  expect,
  expectNoSeriousA11yViolations,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

// The Map layout: events and codex entries as nodes, drag that syncs live, drawing an
// event→character edge links them, Premium ideas/labeled edges/export, the Free upgrade hint, keyboard use.

import type { Timeline } from "./types";
type MapJson = { nodes: { id: string; label: string; x: number | null; y: number | null }[]; edges: { kind: string; label?: string }[] };

// The owner: Premium (ideas, labeled edges, export; sharing), its timeline 'The Salt Road'.
test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Salt Road" });

const mapNode = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

/** The Salt Road's codex and scenes: Mara, Harbor, 'Storm' at Harbor, 'Vigil'. */
async function story(owner: Writer, timeline: Timeline) {
  const mara = await owner.api("POST", `/api/timelines/${timeline.id}/entities`, { kind: "character", name: "Mara" });
  const harbor = await owner.api("POST", `/api/timelines/${timeline.id}/entities`, { kind: "place", name: "Harbor" });
  const storm = await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Storm", content: "Storm." });
  await owner.api("PATCH", `/api/events/${storm.id}`, { entityIds: [harbor.id] });
  const vigil = await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Vigil", content: "Vigil." });
  return { timeline, mara, harbor, storm, vigil };
}

async function openMap(page: Page, timelineId: number) {
  await page.goto(`/timeline/${timelineId}`);
  await waitForHydration(page);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await chooseLayout(page, "Map");
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await page.locator(".storyweave-map").scrollIntoViewIfNeeded();
}

async function mapOf(user: Writer, timelineId: number) {
  return user.api<MapJson>("GET", `/api/timelines/${timelineId}/map`);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not visible");
  return b;
}

/** Drags from a node's lower dot onto another node's upper dot. */
async function drawEdge(page: Page, from: string, to: string) {
  const source = await box(mapNode(page, from).locator(".react-flow__handle.source"));
  const target = await box(mapNode(page, to).locator(".react-flow__handle.target"));
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
}

test("Map: nodes for events and characters, a drag shows in a collaborator's browser, an edge links a character", async ({
  page,
  request,
  browser,
  writer: owner, // Premium: sharing needs it
  timeline,
}) => {
  const collab = await createUser(request, { name: "Cora Collab" });
  const { mara, storm, vigil } = await story(owner, timeline);
  await shareWith(request, owner, timeline.id, collab, "collaborator");

  await openMap(page, timeline.id);
  await expect(page.getByRole("group", { name: "Event: Storm" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Character: Mara" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Place: Harbor" })).toBeVisible();
  await expect(page.getByLabel("Mind map overview")).toBeVisible();

  const other = await writerPage(browser, collab);
  await openMap(other.page, timeline.id);
  const before = await box(mapNode(other.page, `event-${storm.id}`));
  // A map drag reaches the collaborator as the room's `sync` with scope "map": their page data is not reloaded.
  const reloads: string[] = [];
  const countReload = (req: { url(): string }) => {
    const url = new URL(req.url());
    if (url.pathname.endsWith(".data") || /^\/api\/timelines\/\d+(\/events)?$/.test(url.pathname)) reloads.push(url.pathname);
  };
  other.page.on("request", countReload);

  // Drag Storm 160px to the right in the owner's browser.
  const node = await box(mapNode(page, `event-${storm.id}`));
  await page.mouse.move(node.x + 40, node.y + 20);
  await page.mouse.down();
  await page.mouse.move(node.x + 120, node.y + 60, { steps: 8 });
  await page.mouse.move(node.x + 200, node.y + 100, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === `event-${storm.id}`)?.x).not.toBeNull();
  // The first move also saves where the automatic layout put every other node: the layout stays put for everyone.
  expect((await mapOf(owner, timeline.id)).nodes.filter((n) => n.x === null).map((n) => n.label)).toEqual([]);
  // The collaborator sees it move without reloading.
  await expect.poll(async () => (await box(mapNode(other.page, `event-${storm.id}`))).x - before.x, { timeout: 5000 }).toBeGreaterThan(20);
  await other.page.waitForTimeout(500);
  other.page.off("request", countReload);
  expect(reloads).toEqual([]);

  // Draw Vigil → Mara: the event is linked to the character, and its card shows the chip.
  await drawEdge(page, `event-${vigil.id}`, `entity-${mara.id}`);
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Mara linked" }).first()).toBeVisible();
  await expect.poll(async () => (await mapOf(owner, timeline.id)).edges.filter((e) => e.kind === "link").length).toBe(2);
  await chooseLayout(page, "Vertical");
  await expect(card(page, "Vigil").getByRole("button", { name: "Mara" })).toBeVisible();
  // The collaborator's list shows it too (the event's change is broadcast as always).
  await chooseLayout(other.page, "Vertical");
  await expect(card(other.page, "Vigil").getByRole("button", { name: "Mara" })).toBeVisible();
  await other.context.close();
});

test.describe(() => {
  test.use({ writerOptions: { name: "Fern Free", premium: false } });
  test("Map on Free: the advanced controls show an upgrade hint; keyboard-only focus, move and open", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    const { vigil } = await story(owner, timeline);
    await openMap(page, timeline.id);

    await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/upgrade");
    await expect(page.getByRole("button", { name: "Add idea" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Export PNG" })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);

    // Keyboard only: focus the node, Enter selects it, arrows move it (saved), Enter again opens the event.
    const vigilNode = page.getByRole("group", { name: "Event: Vigil" });
    await vigilNode.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("region", { name: "Selected node" })).toContainText("Vigil");
    const start = await box(mapNode(page, `event-${vigil.id}`));
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await box(mapNode(page, `event-${vigil.id}`))).x).toBeGreaterThan(start.x + 10);
    await expect
      .poll(async () => (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === `event-${vigil.id}`)?.x ?? null)
      .not.toBeNull();
    await page.keyboard.press("Enter");
    await expect(layoutMenu(page)).toHaveAccessibleName("Layout: Vertical");
    await expect(card(page, "Vigil")).toBeInViewport();
  });
});

test("arrow keys pressed while the map reloads: the node stays where the keys put it, on screen and on the server", async ({
  page,
  writer: owner,
  timeline,
}) => {
  const { vigil } = await story(owner, timeline);
  await openMap(page, timeline.id);
  const id = `event-${vigil.id}`;
  await page.getByRole("group", { name: "Event: Vigil" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Selected node" })).toContainText("Vigil");
  // The map's own loads answer late (a slow network): the reload the first keys' save asks for lands mid-keys.
  await page.route(new RegExp(`/api/timelines/${timeline.id}/map(\\?.*)?$`), async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.fulfill({ response });
  });
  const start = await box(mapNode(page, id));
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === id)?.x ?? null).not.toBeNull();
  const saved = (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === id)?.x as number;
  const step = ((await box(mapNode(page, id))).x - start.x) / 2;
  expect(step).toBeGreaterThan(0);
  for (let i = 0; i < 4; i++) {
    await page.waitForTimeout(200);
    await page.keyboard.press("ArrowRight");
  }
  // Six steps in all, on the server and on screen, and it stays there once every reload has answered.
  await expect.poll(async () => (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === id)?.x).toBe(saved + 4 * 5);
  await expect.poll(async () => Math.round((await box(mapNode(page, id))).x - start.x)).toBe(Math.round(6 * step));
  await page.waitForTimeout(1_500);
  expect(Math.round((await box(mapNode(page, id))).x - start.x)).toBe(Math.round(6 * step));
});

test("Map on Premium: an idea node, a labeled edge and a PNG export; screenshots at 1280 and 390", async ({
  page,
  writer: owner,
  timeline,
}) => {
  // Many steps (screenshots, axe, an export): about 25 s on an idle machine, over a minute on a loaded one.
  test.setTimeout(120_000);
  const { storm } = await story(owner, timeline);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openMap(page, timeline.id);
  await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toHaveCount(0);

  await page.getByLabel("Idea text").fill("The storm is a memory");
  await page.getByRole("button", { name: "Add idea" }).click();
  const idea = page.getByRole("group", { name: "Idea: The storm is a memory" });
  await expect(idea).toBeVisible();
  await expect(idea).toBeInViewport({ ratio: 1 });
  await page.waitForTimeout(300); // the view's fit animation
  const ideaId = await idea.getAttribute("data-id");

  await page.getByLabel("Edge label").fill("foreshadows");
  await drawEdge(page, ideaId as string, `event-${storm.id}`);
  await expect(page.locator(".react-flow__edge-text", { hasText: "foreshadows" })).toBeVisible();
  await expect
    .poll(async () => (await mapOf(owner, timeline.id)).edges.filter((e) => e.kind === "custom").map((e) => e.label))
    .toEqual(["foreshadows"]);

  // A group: the idea dropped inside it belongs to it, and moving the group carries the idea along.
  await page.getByRole("button", { name: "Add group" }).click();
  const group = page.getByRole("group", { name: "Group: New group" });
  await expect(group).toBeInViewport({ ratio: 0.95 });
  await page.waitForTimeout(300);
  const groupId = (await group.getAttribute("data-id")) as string;
  const from = await box(idea);
  const into = await box(group);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(into.x + into.width / 2, into.y + into.height / 2, { steps: 12 });
  await page.mouse.up();
  const ideaOf = async () =>
    (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === ideaId) as MapJson["nodes"][0] & { parentId: string | null };
  await expect.poll(async () => (await ideaOf()).parentId).toBe(groupId);
  await expect(page.getByRole("region", { name: "Selected node" })).toContainText("In group: New group");
  const ideaX = (await ideaOf()).x as number;
  const g = await box(group);
  await page.mouse.move(g.x + 20, g.y + 8);
  await page.mouse.down();
  await page.mouse.move(g.x + 80, g.y + 8, { steps: 6 });
  await page.mouse.move(g.x + 140, g.y + 8, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => ((await ideaOf()).x as number) - ideaX).toBeGreaterThan(50);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export PNG" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("mind-map.png");
  const path = await file.path();
  const { statSync } = await import("node:fs");
  expect(statSync(path).size).toBeGreaterThan(1000);

  await expectNoSeriousA11yViolations(page);
  await expect(page.getByLabel("Mind map overview")).toBeVisible();
  await screenshot(page, "mind-map-1280");
  // A phone: no overview covering the map, and the view refits to the narrower map (nothing panned yet).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await expect(page.getByLabel("Mind map overview")).toBeHidden();
  const frame = await box(page.locator(".storyweave-map"));
  await expect
    .poll(async () => {
      const n = await box(mapNode(page, `event-${storm.id}`));
      return n.x >= frame.x - 1 && n.x + n.width <= frame.x + frame.width + 1;
    })
    .toBe(true);
  const tools = await box(page.getByRole("region", { name: "Map tools" }));
  expect(tools.x + tools.width).toBeLessThanOrEqual(390);
  await screenshot(page, "mind-map-390");
});

test("Map on Premium: edit an idea's text inline, relabel a connection, delete it with the Delete key", async ({
  page,
  writer: owner,
  timeline,
}) => {
  // Many steps (inline edits, a relabel, axe, a delete): about 20 s on an idle machine, over a minute on a loaded one.
  test.setTimeout(120_000);
  const { storm } = await story(owner, timeline);
  const idea = await owner.api<{ id: string }>("POST", `/api/timelines/${timeline.id}/map/nodes`, {
    kind: "idea",
    text: "The storm is a memory",
    x: 0,
    y: 300,
  });
  await owner.api("POST", `/api/timelines/${timeline.id}/map/edges`, {
    source: idea.id,
    target: `event-${storm.id}`,
    label: "foreshadows",
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await openMap(page, timeline.id);

  // Double-click edits the text; Escape cancels, Enter saves (an empty text is refused with the API's message).
  await page.getByRole("group", { name: "Idea: The storm is a memory" }).dblclick();
  const editor = page.getByRole("textbox", { name: "Idea text (Enter saves, Escape cancels)" });
  await editor.fill("Nothing");
  await editor.press("Escape");
  await expect(editor).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Idea: The storm is a memory" })).toBeVisible();
  await page.getByRole("group", { name: "Idea: The storm is a memory" }).dblclick();
  await editor.fill("   ");
  await editor.press("Enter");
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Text is required" }).first()).toBeVisible();
  await editor.fill("The storm was a dream");
  await editor.press("Enter");
  await expect(page.getByRole("group", { name: "Idea: The storm was a dream" })).toBeVisible();
  await expect.poll(async () => (await mapOf(owner, timeline.id)).nodes.find((n) => n.id === idea.id)?.label).toBe("The storm was a dream");
  // F2 on the focused idea edits it too.
  await page.getByRole("group", { name: "Idea: The storm was a dream" }).focus();
  await page.keyboard.press("F2");
  await expect(editor).toBeFocused();
  await editor.press("Escape");

  // Selecting the connection shows its panel: a new label saves.
  await page.getByLabel("Edge: foreshadows").click();
  const panel = page.getByRole("region", { name: "Selected connection" });
  await panel.getByLabel("Connection label").fill("echoes");
  await panel.getByRole("button", { name: "Save connection" }).click();
  await expect(page.locator(".react-flow__edge-text", { hasText: "echoes" })).toBeVisible();
  await expect
    .poll(async () => (await mapOf(owner, timeline.id)).edges.filter((e) => e.kind === "custom").map((e) => e.label))
    .toEqual(["echoes"]);
  await expectNoSeriousA11yViolations(page);

  // The Delete key removes the selected connection.
  // (the keyboard way: Tab to the connection, Enter selects it)
  await page.getByLabel("Edge: echoes").focus();
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await page.keyboard.press("Delete");
  await expect(panel).toHaveCount(0);
  await expect.poll(async () => (await mapOf(owner, timeline.id)).edges.filter((e) => e.kind === "custom").length).toBe(0);
  await expect(page.locator(".react-flow__edge-text", { hasText: "echoes" })).toHaveCount(0);
});

test("Map for a viewer: pan and zoom only, nothing moves", async ({ page, request, writer: owner, timeline }) => {
  const viewer = await createUser(request, { name: "Vic Viewer" });
  const { storm } = await story(owner, timeline);
  await shareWith(request, owner, timeline.id, viewer, "viewer");
  await signIn(page, viewer);
  await openMap(page, timeline.id);
  await expect(page.getByRole("region", { name: "Map tools" })).toHaveCount(0);
  const node = await box(mapNode(page, `event-${storm.id}`));
  await page.mouse.move(node.x + 40, node.y + 20);
  await page.mouse.down();
  await page.mouse.move(node.x + 200, node.y + 100, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(500);
  expect((await mapOf(owner, timeline.id)).nodes.every((n) => n.x === null)).toBe(true);
  await expect(mapNode(page, `event-${storm.id}`).locator(".react-flow__handle.connectable")).toHaveCount(0);
});

test.describe(() => {
  test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineTitle: "The Crowded Map" });
  test("Map: scenes and entries added to an arranged map go into free space, never on a node; new scenes follow story order", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    const post = (path: string, data: unknown) => owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/${path}`, data);
    const events = [];
    for (let i = 1; i <= 6; i++) events.push(await post("events", { title: `Scene ${i}`, content: `Scene ${i}.` }));
    const entities = [
      await post("entities", { kind: "character", name: "Mara" }),
      await post("entities", { kind: "place", name: "Harbor" }),
    ];
    await owner.api("PATCH", `/api/events/${events[0].id}`, { entityIds: [entities[0].id] });
    // A writer's arrangement: the scenes spread down one column, the entries beside them.
    await owner.api("PUT", `/api/timelines/${timeline.id}/map/positions`, {
      positions: [
        ...events.map((e, i) => ({ node: `event-${e.id}`, x: 0, y: i * 160 })),
        ...entities.map((e, i) => ({ node: `entity-${e.id}`, x: 270, y: i * 160 })),
      ],
    });
    // Then more scenes and a character linked to one of them, nobody has placed yet.
    const added = [];
    for (let i = 7; i <= 11; i++) added.push(await post("events", { title: `Scene ${i}`, content: `Scene ${i}.` }));
    const wren = await post("entities", { kind: "character", name: "Wren" });
    await owner.api("PATCH", `/api/events/${added[1].id}`, { entityIds: [wren.id] });

    await page.setViewportSize({ width: 1280, height: 1200 });
    await openMap(page, timeline.id);
    // The new nodes show once placed (the saved ones at once).
    await expect(page.getByRole("group", { name: "Event: Scene 7" })).toBeAttached();
    // On screen: no two drawn nodes overlap.
    const drawn = await page.locator(".react-flow__node").evaluateAll((nodes) =>
      nodes.map((n) => {
        const r = n.getBoundingClientRect();
        return { id: n.getAttribute("data-id"), x: r.x, y: r.y, w: r.width, h: r.height };
      }),
    );
    const hit = (a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) =>
      a.x < b.x + b.w - 1 && b.x < a.x + a.w - 1 && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1;
    const overlapping = (list: { id: string | null; x: number; y: number; w: number; h: number }[]) =>
      list.flatMap((a, i) =>
        list
          .slice(i + 1)
          .filter((b) => hit(a, b))
          .map((b) => `${a.id} × ${b.id}`),
      );
    expect(drawn.length).toBeGreaterThanOrEqual(8);
    expect(overlapping(drawn)).toEqual([]);

    // A move saves where the new nodes were put: every node has a place, none on another, new scenes in story order.
    const harbor = await box(mapNode(page, `entity-${entities[1].id}`));
    await page.mouse.move(harbor.x + 40, harbor.y + 20);
    await page.mouse.down();
    await page.mouse.move(harbor.x + 160, harbor.y + 20, { steps: 8 });
    await page.mouse.move(harbor.x + 240, harbor.y + 20, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await mapOf(owner, timeline.id)).nodes.filter((n) => n.x === null).length).toBe(0);
    const saved = (await mapOf(owner, timeline.id)).nodes.map((n) => ({ id: n.id, x: n.x ?? 0, y: n.y ?? 0, w: 180, h: 52 }));
    expect(overlapping(saved)).toEqual([]);
    const ys = added.map((e) => saved.find((n) => n.id === `event-${e.id}`)?.y ?? 0);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
  });
});
