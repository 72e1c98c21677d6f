import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import {
  type Writer,
  card,
  cardTitles,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  openHome,
  signIn,
  openTimeline,
  screenshot,
  test,
  waitForHydration,
  toast,
} from "./fixtures";

import type { Timeline } from "./types";

/**
 * The writer's timeline (the fixture's, described "Caravans and salt.") given a codex entry, a linked POV event with
 * story time, and a dragged story order.
 */
async function storyTimeline(owner: Writer, timeline: Timeline) {
  const mara = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, {
    kind: "character",
    name: "Mara",
  });
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, {
    title: "Departure",
    content: "They leave at dawn.",
    entityIds: [mara.id],
    povEntityId: mara.id,
    storyStart: "1203-04-01",
    storyLabel: "First light",
  });
  await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The Ambush", content: "Arrows from the dunes." });
  const prologue = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/events`, {
    title: "Prologue",
    content: "Long before.",
  });
  await owner.api("PATCH", `/api/events/${prologue.id}`, { position: 0 });
}

test.use({ writerOptions: { name: "Olive Owner", premium: false }, timelineDescription: "Caravans and salt." });

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const FILE_LABEL = "File (.json, .md, .csv, .tsv, .xlsx, .ods, .docx, .odt, .pltr, .yw7 or a Scrivener/novelWriter .zip)";

async function chooseFile(page: Page, name: string, mimeType: string, text: string | Buffer) {
  await page.getByLabel(FILE_LABEL).setInputFiles({ name, mimeType, buffer: typeof text === "string" ? Buffer.from(text) : text });
}

test.describe("export and import", () => {
  test.describe(() => {
    test.use({ timelineTitle: "The Salt Road" });

    test("print view, Word and JSON downloads from the Export menu, then the JSON imported as a new timeline", async ({
      page,
      request,
      writer: owner,
      timeline,
    }) => {
      test.setTimeout(120_000);
      await storyTimeline(owner, timeline);

      // The print view: the story in story order, story time and codex under each heading.
      await page.goto(`/timeline/${timeline.id}/print`);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1, name: "The Salt Road" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2 })).toHaveText(["Prologue", "Departure", "The Ambush"]);
      const departure = page.getByRole("article", { name: "Departure" });
      await expect(departure).toContainText("Story time:1 April 1203 · First light");
      await expect(departure).toContainText("Characters:Mara (POV)");
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "transfer-print-screen");

      // On paper: no navigation, no toolbar; the story stays.
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      await expect(page.getByRole("button", { name: "Print / Save as PDF" })).toBeHidden();
      await expect(page.getByRole("heading", { level: 1, name: "The Salt Road" })).toBeVisible();
      await screenshot(page, "transfer-print-paper");
      await page.emulateMedia({ media: "screen" });

      // Word from the menu: a zip named after the timeline.
      await page.getByRole("button", { name: "Export" }).click();
      const [word] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Word (.docx)" }).click()]);
      expect(word.suggestedFilename()).toBe("the-salt-road.docx");
      const docx = await readFile(await word.path());
      expect(docx.subarray(0, 2).toString()).toBe("PK");
      expect(docx.length).toBeGreaterThan(2000);

      // JSON from the menu: the whole story.
      await page.getByRole("button", { name: "Export" }).click();
      const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "JSON (.json)" }).click()]);
      expect(json.suggestedFilename()).toBe("the-salt-road.json");
      const exported = JSON.parse(await readFile(await json.path(), "utf8"));
      expect(exported.format).toBe("storyweave-timeline");
      expect(exported.events.map((e: { title: string }) => e.title)).toEqual(["Prologue", "Departure", "The Ambush"]);

      // Import it back from the home screen: preview first, then a new timeline.
      await page.goto("/timeline");
      await waitForHydration(page);
      await page.getByRole("button", { name: "Import" }).click();
      const dialog = page.getByRole("dialog", { name: "Import a timeline" });
      await expect(dialog.getByRole("button", { name: "Import Timeline" })).toBeDisabled();
      await chooseFile(page, "the-salt-road.json", "application/json", JSON.stringify(exported));
      const preview = dialog.getByRole("region", { name: "Import preview" });
      await expect(preview).toContainText("The Salt Road");
      await expect(preview).toContainText("3 events · 1 codex entry");
      await expect(preview.getByRole("listitem")).toHaveText(["Prologue", "Departure · 1203-04-01 · First light", "The Ambush"]);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "transfer-import-preview");
      await dialog.getByRole("button", { name: "Import Timeline" }).click();
      await expect(toast(page, 'Imported "The Salt Road"')).toBeVisible();
      await expect(page).toHaveURL(/\/timeline\/\d+$/);
      const newId = Number(new URL(page.url()).pathname.split("/").pop());
      expect(newId).not.toBe(timeline.id);

      // The copy round-trips: its export is the same document.
      const copy = await request.get(`/api/timelines/${newId}/export?format=json`, { headers: { Authorization: `Bearer ${owner.token}` } });
      expect(await copy.json()).toEqual(exported);
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Free Writer", premium: false } });

    test("the dialog names the line of a malformed file, and the free plan's limit stops an import", async ({ page, writer }) => {
      for (const title of ["One", "Two", "Three"]) await writer.api("POST", "/api/timelines", { title });
      await openHome(page);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Import" }).click();
      const dialog = page.getByRole("dialog", { name: "Import a timeline" });

      await chooseFile(page, "plot.csv", "text/csv", 'title,content\n"Opening","Two\nlines"\n,orphan text\n');
      await expect(dialog.getByRole("alert")).toHaveText("Line 4: title is required");
      await expect(dialog.getByRole("button", { name: "Import Timeline" })).toBeDisabled();

      await chooseFile(page, "notes.md", "text/markdown", "Some notes\n## Scene");
      await expect(dialog.getByRole("alert")).toHaveText("Line 1: the outline must start with a '# Title' line");

      await chooseFile(page, "map.png", "image/png", "png");
      await expect(dialog.getByRole("alert")).toHaveText(
        "Choose a StoryWeave JSON (.json), Markdown outline (.md), CSV (.csv, .tsv) or spreadsheet (.xlsx, .ods) file",
      );

      await chooseFile(page, "plot.csv", "text/csv", "title,content,date,characters\nOpening,It begins.,2024-03,Ada (POV)\nMiddle,,,\n");
      await expect(dialog.getByRole("region", { name: "Import preview" })).toContainText("plot");
      await expect(dialog.getByRole("region", { name: "Import preview" })).toContainText("2 events · 1 codex entry");
      await dialog.getByRole("button", { name: "Import Timeline" }).click();
      await expect(dialog.getByRole("alert")).toContainText(
        "Free plan is limited to 3 timelines. Upgrade to Premium for unlimited timelines.",
      );
      await expect(dialog.getByRole("link", { name: "Upgrade to Premium" })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, "transfer-import-limit");
    });
  });

  test.describe(() => {
    test.use({ timelineTitle: "Night Trains" });

    test("a Windows-1252 CSV from Excel added to the open timeline: accents exact, day/month order chosen, codex merged", async ({
      page,
      writer: owner,
      timeline,
    }) => {
      await storyTimeline(owner, timeline);
      await owner.api("POST", `/api/timelines/${timeline.id}/entities`, { kind: "character", name: "ÉLODIE" });
      await openTimeline(page, timeline.id);

      await page.getByRole("button", { name: "Export" }).click();
      await page.getByRole("menuitem", { name: "Import a file…" }).click();
      const dialog = page.getByRole("dialog", { name: "Import a file" });
      await expect(dialog.getByRole("radio", { name: "Add to “Night Trains”" })).toBeChecked();

      // Dates that could be either way round: the writer is asked, month first by default.
      await chooseFile(page, "dates.csv", "text/csv", await readFile("tests/fixtures/spreadsheets/ambiguous-day-month.csv"));
      const preview = dialog.getByRole("region", { name: "Import preview" });
      await expect(dialog.getByRole("radio", { name: "Month/day (March 4)" })).toBeChecked();
      await expect(preview).toContainText("Arrivée · 2024-04-03");
      await dialog.getByRole("radio", { name: "Day/month (3 April)" }).check();
      await expect(preview).toContainText("Arrivée · 2024-03-04");

      // Excel's Windows CSV: every accent and curly quote as written, no order question (3/15/2024 shows it).
      await chooseFile(page, "scenes.csv", "text/csv", await readFile("tests/fixtures/spreadsheets/excel-windows-1252.csv"));
      await expect(preview).toContainText("3 events · 3 codex entries");
      await expect(preview).toContainText("Señora Núñez’s “offer” · 2024-04-01T14:30");
      await expect(dialog.getByRole("radio", { name: "Day/month (3 April)" })).toHaveCount(0);
      await expect(dialog.getByLabel("Title")).toHaveCount(0);
      await screenshot(page, "transfer-import-into-timeline");
      await dialog.getByRole("button", { name: "Add Events" }).click();
      await expect(toast(page, 'Added 3 events to "Night Trains"')).toBeVisible();
      await expect(dialog).toBeHidden();

      await expect(cardTitles(page)).toHaveText([
        "Prologue",
        "Departure",
        "The Ambush",
        "Arrivée à Zürich",
        "Señora Núñez’s “offer”",
        "Crème brûlée",
      ]);
      await expect(card(page, "Crème brûlée")).toContainText("Dessert, with a line break:");
      const codex = await owner.api<Array<{ name: string }>>("GET", `/api/timelines/${timeline.id}/entities`);
      expect(codex.map((e) => e.name).sort()).toEqual(["Jürgen", "Mara", "Señora Núñez", "ÉLODIE"]);

      // 'New timeline' asks for its title, prefilled from the file's name.
      await page.getByRole("button", { name: "Export" }).click();
      await page.getByRole("menuitem", { name: "Import a file…" }).click();
      await dialog.getByRole("radio", { name: "New timeline" }).check();
      await chooseFile(page, "Paris notes.csv", "text/csv", await readFile("tests/fixtures/spreadsheets/semicolon-dots.csv"));
      await expect(dialog.getByLabel("Title")).toHaveValue("Paris notes");
      await dialog.getByLabel("Title").fill("Paris, again");
      await expect(preview).toContainText("Paris, again");
      await expectNoSeriousA11yViolations(page);

      // An Excel workbook is read in the browser too (its parser loads now): date cells by their value.
      await chooseFile(page, "scenes.xlsx", XLSX, await readFile("tests/fixtures/spreadsheets/scenes.xlsx"));
      await expect(dialog.getByLabel("Title")).toHaveValue("scenes");
      await expect(preview).toContainText("Señora Núñez’s “offer” · 2024-04-01T14:30");
      await dialog.getByRole("button", { name: "Import Timeline" }).click();
      await expect(toast(page, 'Imported "scenes"')).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: "scenes" })).toBeVisible();
      await expect(cardTitles(page)).toHaveText(["Arrivée à Zürich", "Señora Núñez’s “offer”", "Crème brûlée"]);
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "Shared Road" });

    test("a viewer's share link prints and exports; a stranger sees 'Timeline not found'", async ({
      page,
      request,
      browser,
      writer: owner,
      timeline,
    }) => {
      await storyTimeline(owner, timeline);
      const link = await owner.api<{ shareCode: string }>("POST", `/api/timelines/${timeline.id}/share`, { role: "viewer" });
      const guest = await createUser(request, { name: "Gus Guest" });
      await signIn(page, guest);
      await page.goto(`/timeline/${timeline.id}/print?share=${link.shareCode}`);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 2 })).toHaveText(["Prologue", "Departure", "The Ambush"]);
      await page.getByRole("button", { name: "Export" }).click();
      const [md] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown (.md)" }).click()]);
      expect(md.suggestedFilename()).toBe("shared-road.md");
      expect(await readFile(await md.path(), "utf8")).toContain("# Shared Road\n\nCaravans and salt.\n\n## Prologue");

      const strangerContext = await browser.newContext();
      const stranger = await strangerContext.newPage();
      await signIn(stranger, await createUser(request));
      await stranger.goto(`/timeline/${timeline.id}/print`);
      await expect(stranger.getByRole("heading", { name: "Timeline not found" })).toBeVisible();
      await strangerContext.close();
    });
  });
});
