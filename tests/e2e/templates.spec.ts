import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import {
  adminApiToken,
  card,
  expect,
  expectNoSeriousA11yViolations,
  openHome,
  openTimeline,
  test,
  toast,
  waitForHydration,
} from "./fixtures";

import type { Timeline, EventRow } from "./types";

test.describe("beat-sheet templates", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Sage Plotter", premium: false } });
    test("a writer starts a book from Save the Cat", async ({ page, writer }) => {
      await openHome(page);
      await waitForHydration(page);
      await page.getByRole("button", { name: "New Timeline" }).click();
      const dialog = page.getByRole("dialog", { name: "Create New Timeline" });
      await dialog.getByLabel("Title").fill("The Cat Book");
      const structure = dialog.getByLabel("Start from a structure");
      await expect(structure).toHaveValue("");
      await expect(structure.locator("option", { hasText: "Save the Cat" })).toHaveCount(1);
      await structure.selectOption("save-the-cat");
      await expect(dialog.getByText(/Blake Snyder's fifteen beats.*Creates 15 placeholder scenes/)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await dialog.getByRole("button", { name: "Create Timeline" }).click();
      await expect(toast(page, "Timeline created successfully")).toBeVisible();

      const mine = await writer.api<Timeline[]>("GET", "/api/timelines");
      const book = mine.find((t) => t.title === "The Cat Book")!;
      const events = await writer.api<EventRow[]>("GET", `/api/timelines/${book.id}/events`);
      expect(events).toHaveLength(15);
      expect(events.map((e) => e.title).slice(0, 3)).toEqual(["Opening Image", "Theme Stated", "Set-Up"]);
      await openTimeline(page, book.id);
      await expect(card(page, "Opening Image")).toBeVisible();
      await expect(card(page, "Opening Image")).toContainText("A snapshot of the hero's world");
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Mira Drafter", premium: true }, timelineTitle: "Salt Roads" });
    test("Structure overlays a beat sheet on another book: beat markers, a late midpoint warned; Save as template", async ({
      page,
      writer,
      timeline,
    }) => {
      const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
      // 100 + 600 + 100 + 200 words: half the story falls in 'Crossing', and the scene called 'Midpoint' starts at 70%.
      for (const [title, n] of [
        ["Harbor", 100],
        ["Crossing", 600],
        ["Midpoint", 100],
        ["Home", 200],
      ] as const) {
        await writer.api("POST", `/api/timelines/${timeline.id}/events`, { title, content: words(n) });
      }
      await openTimeline(page, timeline.id);
      await expect(page.getByTestId("beat-marker")).toHaveCount(0);
      await page.getByRole("button", { name: "Structure", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Structure" });
      await dialog.getByLabel("Beat sheet").selectOption("three-act");
      await expect(dialog.getByText("Placed by word count")).toBeVisible();
      await dialog.getByRole("button", { name: "Close" }).click();

      const crossing = page.locator("li").filter({ has: card(page, "Crossing") });
      const midpoint = crossing.getByTestId("beat-marker").filter({ hasText: "Beat: Midpoint" });
      await expect(midpoint).toBeVisible();
      await expect(midpoint).toHaveAttribute("data-warning", "true");
      await expect(midpoint).toContainText("lands at 70%, expected 50%");
      await expect(
        page
          .locator("li")
          .filter({ has: card(page, "Harbor") })
          .getByTestId("beat-marker")
          .first(),
      ).toHaveText(/Beat: Setup/);
      await expectNoSeriousA11yViolations(page);
      expect((await writer.api<{ structureTemplateId: string }>("GET", `/api/timelines/${timeline.id}`)).structureTemplateId).toBe(
        "three-act",
      );

      // Still there after a reload; None clears it.
      await openTimeline(page, timeline.id);
      await expect(page.getByTestId("beat-marker").filter({ hasText: "Beat: Midpoint" })).toBeVisible();
      await page.getByRole("button", { name: "Structure", exact: true }).click();
      await dialog.getByLabel("Beat sheet").selectOption("");
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(page.getByTestId("beat-marker")).toHaveCount(0);

      await page.getByRole("button", { name: "Save as template" }).click();
      const save = page.getByRole("dialog", { name: "Save as template" });
      await save.getByLabel("Template name").fill("Salt shape");
      await save.getByRole("button", { name: "Save template" }).click();
      await expect(toast(page, "Template saved")).toBeVisible();
      const templates = await writer.api<{ name: string; builtIn: boolean; beats: { title: string }[] }[]>("GET", "/api/templates");
      expect(templates.filter((t) => !t.builtIn).map((t) => [t.name, t.beats.map((b) => b.title)])).toEqual([
        ["Salt shape", ["Harbor", "Crossing", "Midpoint", "Home"]],
      ]);
    });
  });

  test.describe(() => {
    // The book starts from a template (templateId), which the `timeline` fixture does not make: it is created here.
    test.use({ writerOptions: { name: "Bo Beats", premium: true } });
    test("'Suggest a scene for this beat' writes the AI's scene into the beat's empty scene", async ({ page, request, writer }) => {
      const admin = await adminApiToken(request);
      const key = await request.post("/api/config/openai-key", {
        headers: { Authorization: `Bearer ${admin}` },
        data: { apiKey: FAKE_OPENAI_KEY },
      });
      expect(key.status(), await key.text()).toBe(200);
      const book = await writer.api<Timeline>("POST", "/api/timelines", { title: "Bell Book", templateId: "three-act" });
      const structure = await writer.api<{ beats: { title: string; eventId: number }[] }>("PUT", `/api/timelines/${book.id}/structure`, {
        templateId: "three-act",
      });
      expect(structure.beats.map((b) => b.title)).toContain("Midpoint");
      const before = await writer.api<EventRow[]>("GET", `/api/timelines/${book.id}/events`);
      // The book's placeholder scene for the beat is named like it.
      const midpointScene = before.find((e) => e.title === "Midpoint")!.id;

      await openTimeline(page, book.id);
      const marker = page.getByTestId("beat-marker").filter({ hasText: "Beat: Midpoint" });
      await marker.getByRole("button", { name: "Suggest a scene for this beat: Midpoint" }).click();
      const dialog = page.getByRole("dialog", { name: "Suggest a scene: Midpoint" });
      await expect(dialog).toContainText("It should fall at 50% of the story");
      await dialog.getByLabel("What should happen? (optional)").fill("The bell rings for the first time");
      await dialog.getByRole("button", { name: "Suggest", exact: true }).click();
      const suggested = dialog.getByRole("region", { name: "Suggested scene" });
      await expect(suggested).toContainText("A Bell Beneath the Tide");
      await expectNoSeriousA11yViolations(page);
      await dialog.getByRole("button", { name: "Write it into 'Midpoint'" }).click();
      await expect(toast(page, "Scene added")).toBeVisible();
      const after = await writer.api<EventRow[]>("GET", `/api/timelines/${book.id}/events`);
      expect(after).toHaveLength(before.length);
      expect(after.find((e) => e.id === midpointScene)!.title).toBe("A Bell Beneath the Tide");
      await expect(card(page, "A Bell Beneath the Tide")).toBeVisible();
    });
  });
});
