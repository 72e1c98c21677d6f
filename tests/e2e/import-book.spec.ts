import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, openHome, test, toast, waitForHydration } from "./fixtures";

const FILE_LABEL = "File (.json, .md, .csv, .tsv, .xlsx, .ods, .docx, .odt, .pltr, .yw7 or a Scrivener/novelWriter .zip)";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** The writer (on Premium when asked, with `writerOptions`) on their timelines, the import dialog open with `file` chosen in it. */
async function importInDialog(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await openHome(page);
  await page.getByRole("button", { name: "Import" }).click();
  const dialog = page.getByRole("dialog", { name: "Import a timeline" });
  await page.getByLabel(FILE_LABEL).setInputFiles(file);
  return { dialog };
}

test.describe(() => {
  test.use({ writerOptions: { name: "Novelist", premium: true } });
  test("a Word manuscript: the dialog shows the dry run's summary, nothing is written until Import Book", async ({ page, writer }) => {
    const { dialog } = await importInDialog(page, {
      name: "novel.docx",
      mimeType: DOCX,
      buffer: await readFile("tests/fixtures/import/novel.docx"),
    });
    const preview = dialog.getByRole("region", { name: "Import preview" });
    await expect(preview).toContainText("The Lighthouse Keeper");
    await expect(preview).toContainText("Will create 2 chapters · 4 scenes ·");
    await expect(preview).toContainText("0 codex entries · 0 plotlines");
    await expect(preview.getByRole("listitem")).toHaveText(["1 paragraph before the first chapter (front matter)"]);
    await expectNoSeriousA11yViolations(page);
    // The dry run wrote nothing.
    expect(await writer.api<unknown[]>("GET", "/api/timelines")).toEqual([]);

    await dialog.getByRole("button", { name: "Import Book" }).click();
    await expect(toast(page, 'Imported "The Lighthouse Keeper"')).toBeVisible();
    await expect(page).toHaveURL(/\/timeline\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    const doc = await writer.api<{ chapters: { title: string }[] }>("GET", `/api/timelines/${id}/export?format=json`);
    expect(doc.chapters.map((c) => c.title)).toEqual(["The Storm", "The Visitor"]);
  });
});

test.describe(() => {
  test.use({ writerOptions: { name: "Slow Link", premium: false } });
  test("a big book on a slow connection: the dialog shows how much of the file is sent, then reads it", async ({ page, writer: _ }) => {
    test.setTimeout(90_000);
    await openHome(page);
    await waitForHydration(page);
    // The real Word file with 3 MB of noise packed beside its text (a picture it does not show): 3 MB to send.
    const { unzipSync, zipSync } = await import("fflate");
    const parts = unzipSync(new Uint8Array(await readFile("tests/fixtures/import/novel.docx")));
    const noise = new Uint8Array(3 * 1024 * 1024);
    for (let i = 0; i < noise.length; i += 65_536) crypto.getRandomValues(noise.subarray(i, i + 65_536));
    const big = zipSync({ ...parts, "word/media/noise.bin": [noise, { level: 0 }] });
    // An upload of 400 KB a second: about eight seconds for the file.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    await page.getByRole("button", { name: "Import" }).click();
    const dialog = page.getByRole("dialog", { name: "Import a timeline" });
    await page.getByLabel(FILE_LABEL).setInputFiles({ name: "big-novel.docx", mimeType: DOCX, buffer: Buffer.from(big) });
    const sending = dialog.getByRole("progressbar", { name: "Sending the file" });
    await expect(sending).toBeVisible();
    await expect(dialog.getByText(/Sending the file… (?:[1-9]\d?)%/)).toBeVisible();
    await expect(dialog.getByRole("region", { name: "Import preview" })).toContainText("Will create 2 chapters · 4 scenes ·", {
      timeout: 30_000,
    });
    await expect(sending).toBeHidden();
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  });
});

test.describe(() => {
  test.use({ writerOptions: { name: "Unlucky", premium: false } });
  test("a damaged Word file names the problem in the dialog", async ({ page, writer: _ }) => {
    const { dialog } = await importInDialog(page, {
      name: "broken.docx",
      mimeType: DOCX,
      buffer: Buffer.from("not a zip at all"),
    });
    await expect(dialog.getByRole("alert")).toContainText("This Word document could not be read:");
    await expect(dialog.getByRole("button", { name: "Import Timeline" })).toBeDisabled();
  });
});

test.describe(() => {
  test.use({ writerOptions: { name: "Reviewed Author", premium: true } });
  test("a Word comment and its reply come in as one thread, highlighted on the words Word anchored it to", async ({ page, writer }) => {
    test.setTimeout(90_000);
    // A real Word 365 file (tests/fixtures/import/README.md): a comment on "dolor sit amet" with one reply.
    const { dialog } = await importInDialog(page, {
      name: "comment-thread.docx",
      mimeType: DOCX,
      buffer: await readFile("tests/fixtures/import/comment-thread.docx"),
    });
    await expect(dialog.getByRole("region", { name: "Import preview" })).toContainText("1 scene");
    await dialog.getByRole("button", { name: "Import Book" }).click();
    await expect(page).toHaveURL(/\/timeline\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    const [scene] = await writer.api<{ title: string }[]>("GET", `/api/timelines/${id}/events`);
    const chapters = await writer.api<{ title: string }[]>("GET", `/api/timelines/${id}/chapters`);
    // The list in chapters replaces the plain list once its code has loaded: a press before that swap is lost.
    if (chapters.length > 0) await expect(page.getByRole("region", { name: chapters[0].title, exact: true })).toBeVisible();

    await page.getByRole("button", { name: `Edit ${scene.title}` }).click();
    const content = page.getByLabel("Content", { exact: true });
    await expect(content).toHaveAttribute("contenteditable", "true");
    // The highlight is on the words Word's comment covered, as soon as the editor opens.
    await expect(page.locator(".co-editor-content .comment-highlight")).toHaveText("dolor sit amet");
    const thread = page.getByTestId("comments-panel").getByTestId("comment-thread");
    await expect(thread).toHaveCount(1);
    await expect(thread.getByTestId("comment-quote")).toHaveText("“dolor sit amet”");
    await expect(thread.getByTestId("comment")).toHaveCount(2);
    await expect(thread).toContainText("A comment.");
    await expect(thread).toContainText("A reply comment.");
  });
});
