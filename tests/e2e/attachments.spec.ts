import {
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  screenshot,
  test,
  cardWithHeading,
  openTimeline,
  toast,
  writerPage,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

// A 1×1 PNG.
const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

test.describe("attachments on events", () => {
  test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Map Room" });
  test("drop an image on a card, attach a file with the button, open full size, remove; a viewer only sees and downloads", async ({
    page,
    browser,
    request,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    const viewer = await createUser(request, { name: "Vera Viewer" });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The Chart", content: "An old sea chart." });
    await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "The Letter", content: "Sealed with wax." });
    await shareWith(request, owner, timeline.id, viewer, "viewer");

    await openTimeline(page, timeline.id);
    const chart = cardWithHeading(page, "The Chart");

    // Drag-and-drop: the card lights up while files are over it, and the dropped image becomes a thumbnail.
    const dataTransfer = await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], "chart.png", { type: "image/png" }));
      return dt;
    }, PNG_B64);
    await chart.dispatchEvent("dragenter", { dataTransfer });
    await chart.dispatchEvent("dragover", { dataTransfer });
    await expect(chart).toHaveAttribute("data-drop-active", "true");
    await expect(chart.getByText("Drop to attach")).toBeVisible();
    await screenshot(page, "attachments-drop-highlight");
    await chart.dispatchEvent("drop", { dataTransfer });
    await expect(chart).not.toHaveAttribute("data-drop-active", "true");
    const thumbnail = chart.getByRole("img", { name: "chart.png" });
    await expect(thumbnail).toBeVisible();
    await expect(thumbnail).toHaveAttribute("loading", "lazy");
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

    // The button: a file chooser; the upload shows a labelled progress bar while it is on its way.
    const letter = cardWithHeading(page, "The Letter");
    await page.route("**/api/events/*/attachments", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    const chooser = page.waitForEvent("filechooser");
    await letter.getByRole("button", { name: "Attach file" }).click();
    await (await chooser).setFiles({ name: "letter.txt", mimeType: "text/plain", buffer: Buffer.from("My dearest Mara") });
    await expect(letter.getByRole("progressbar", { name: "Uploading letter.txt" })).toBeVisible();
    const link = letter.getByRole("link", { name: "letter.txt" });
    await expect(link).toBeVisible();
    await expect(letter).toContainText("(15 bytes)");
    await expect(letter.getByRole("progressbar")).toHaveCount(0);
    await page.unroute("**/api/events/*/attachments");

    // The server's refusal is shown as it is.
    await letter.getByLabel("Attach a file to The Letter").setInputFiles({
      name: "logo.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    await expect(toast(page, "This file type is not supported")).toBeVisible();

    // Full size in a new tab.
    const popup = page.waitForEvent("popup");
    await chart.getByRole("link", { name: "Open chart.png full size" }).click();
    const full = await popup;
    await expect(full).toHaveURL(/\/api\/attachments\/\d+$/);
    await full.close();

    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "attachments-owner");

    // A viewer sees the thumbnail and the download link, and nothing to change them with.
    const v = await writerPage(browser, viewer, timeline.id);
    const viewerChart = cardWithHeading(v.page, "The Chart");
    await expect(viewerChart.getByRole("img", { name: "chart.png" })).toBeVisible();
    await expect(cardWithHeading(v.page, "The Letter").getByRole("link", { name: "letter.txt" })).toHaveAttribute(
      "href",
      /\/api\/attachments\/\d+$/,
    );
    await expect(v.page.getByRole("button", { name: "Attach file" })).toHaveCount(0);
    await expect(v.page.getByRole("button", { name: /^Remove / })).toHaveCount(0);
    const download = v.page.waitForEvent("download");
    await cardWithHeading(v.page, "The Letter").getByRole("link", { name: "letter.txt" }).click();
    expect((await download).suggestedFilename()).toBe("letter.txt");
    await expectNoSeriousA11yViolations(v.page);
    await screenshot(v.page, "attachments-viewer");

    // Remove: gone from the card, and after a reload.
    await chart.getByRole("button", { name: "Remove chart.png" }).click();
    await expect(chart.getByRole("img", { name: "chart.png" })).toHaveCount(0);
    // The viewer's card follows live (the room's sync).
    await expect(viewerChart.getByRole("img", { name: "chart.png" })).toHaveCount(0);
    await openTimeline(page, timeline.id);
    await expect(cardWithHeading(page, "The Chart").getByRole("img")).toHaveCount(0);
    await expect(cardWithHeading(page, "The Letter").getByRole("link", { name: "letter.txt" })).toBeVisible();
    await v.context.close();
  });
});
