import type { APIRequestContext } from "@playwright/test";
// Runs after ai.spec.ts (file order): that spec starts from a product with no AI key, and this one saves one.
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import { adminApiToken, expect, expectNoSeriousA11yViolations, test, waitForHydration, toast } from "./fixtures";

// Streamed AI answers, 'Stop generating', 'Continue this scene', Describe on a selection, the usage chart.

async function configureKey(request: APIRequestContext) {
  const token = await adminApiToken(request);
  const res = await request.post("/api/config/openai-key", {
    headers: { Authorization: `Bearer ${token}` },
    data: { apiKey: FAKE_OPENAI_KEY },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe("streaming AI", () => {
  test.use({ timelineTitle: "Saltmarsh" });
  test.beforeEach(async ({ request }) => {
    await configureKey(request);
  });

  test("Writer's Unblock shows the text as it arrives; 'Stop generating' stops, and what arrived counts", async ({ page, writer: _ }) => {
    await page.goto("/writers-unblock");
    await waitForHydration(page);
    await expect(page.getByText("0/3 Free Uses")).toBeVisible();

    const result = page.getByTestId("ideas-result");
    await page.getByLabel("Writing prompt").fill("[[slowstream]] a drowned bell");
    await page.getByRole("button", { name: "Generate Idea" }).click();
    // At least two different partial states before the whole answer.
    const partials = new Set<string>();
    await expect
      .poll(
        async () => {
          const text = await result.innerText();
          if (text.includes("Here is an idea") && !text.includes("tide turning")) partials.add(text);
          return partials.size;
        },
        { intervals: [50], timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(2);
    await expect(toast(page, "Writing idea generated!")).toBeVisible();
    await expect(result).toContainText("End on the tide turning.");
    await expect(page.getByText("1/3 Free Uses")).toBeVisible();

    await page.getByLabel("Writing prompt").fill("[[slowstream]] stop me early");
    await page.getByRole("button", { name: "Generate Idea" }).click();
    await expect(result).toContainText("Here is");
    await page.getByRole("button", { name: "Stop generating" }).click();
    // Text had reached the writer, so the stopped answer counts (a stop cannot farm the free uses).
    await expect(page.getByText("Stopped. What arrived is kept and counts as one use.")).toBeVisible();
    await expect(page.getByText("2/3 Free Uses")).toBeVisible();
    await expect(page.getByRole("button", { name: "Stop generating" })).toHaveCount(0);
    // What arrived stays; the answer never finished.
    await expect(result).toContainText("Here is");
    await expect(result).not.toContainText("tide turning");
    await expectNoSeriousA11yViolations(page);

    // The server kept the use: after a reload the count is still 2.
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByText("2/3 Free Uses")).toBeVisible();
  });

  test("'Continue this scene' streams into the editor, Accept appends it and Save keeps it; Describe replaces a selection; /account charts the uses", async ({
    page,
    writer: user,
    timeline,
  }) => {
    await user.api("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The bell",
      content: "The bell rang once at low tide.",
    });
    await page.goto(`/timeline/${timeline.id}`);
    await waitForHydration(page);

    await page.getByRole("button", { name: "Edit The bell" }).click();
    const content = page.getByLabel("Content", { exact: true });
    // The co-writing editor is editable once its doc has synced.
    await expect(content).toHaveAttribute("contenteditable", "true");
    await page.getByRole("button", { name: "Continue this scene" }).click();
    const panel = page.getByRole("region", { name: "Continuation" });
    await expect(panel.getByRole("button", { name: "Accept" })).toBeVisible();
    const continuation = (await panel.getByTestId("scene-assist-text").innerText()).trim();
    expect(continuation).toContain("Here is an idea");
    await expectNoSeriousA11yViolations(page);
    await panel.getByRole("button", { name: "Accept" }).click();
    await expect(panel).toHaveCount(0);
    // The continuation's Markdown (a list here) arrives as formatted text after the scene.
    await expect(content.locator("p").first()).toHaveText("The bell rang once at low tide.");
    await expect(content).toContainText(continuation.split("\n").at(-1) as string);

    // Describe on a selection: 'low tide' becomes the suggestion.
    await content.evaluate((el) => {
      const text = (el.querySelector("p") as HTMLElement).firstChild as Text;
      const start = text.data.indexOf("low tide");
      (el as HTMLElement).focus();
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + "low tide".length);
      const selection = window.getSelection() as Selection;
      selection.removeAllRanges();
      selection.addRange(range);
    });
    await page.getByRole("button", { name: "Describe" }).click();
    const describe = page.getByRole("region", { name: "Describe suggestion" });
    await expect(describe.getByRole("button", { name: "Replace selection" })).toBeVisible();
    await expect(describe.getByRole("button", { name: "Insert below" })).toBeVisible();
    const described = (await describe.getByTestId("scene-assist-text").innerText()).trim();
    await describe.getByRole("button", { name: "Replace selection" }).click();
    // The suggestion is Markdown with blocks: it goes in as formatted text where 'low tide' was.
    await expect(content).not.toContainText("low tide");
    await expect(content).toContainText(`${described.split("\n").at(-1)}.`);

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Edit The bell" })).toBeVisible();
    const saved = await user.api("GET", `/api/timelines/${timeline.id}/events`);
    const event = (Array.isArray(saved) ? saved : saved.events)[0];
    // Stored as Markdown: the scene, the described passage (its list as a list), the continuation at the end.
    expect(event.content.startsWith("The bell rang once at")).toBe(true);
    expect(event.content).not.toContain("low tide");
    expect(event.content).toContain("1. Open with a sound nobody else hears.\n2. Let the stranger lie once.");
    expect(event.content.endsWith(continuation.split("\n").at(-1) as string)).toBe(true);

    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "AI uses this month" })).toBeVisible();
    const chart = page.getByTestId("ai-usage-chart");
    await expect(chart).toContainText("Completed AI requests this month: 2");
    await expect(chart.getByRole("table")).toContainText("2");
    await expectNoSeriousA11yViolations(page);
  });
});
