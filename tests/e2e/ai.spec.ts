import type { Page } from "@playwright/test";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import {
  ADMIN,
  adminApiToken,
  apiAs,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  makePremium,
  screenshot,
  test,
  waitForHydration,
  toast,
} from "./fixtures";
import { shareWith } from "./helpers/timeline";

// One database for the whole run: the first test sees no key, the second has the admin save it.
test.describe.configure({ mode: "serial" });

async function openUnblock(page: Page) {
  await page.goto("/writers-unblock");
  await waitForHydration(page);
}

test.describe("Writer's Unblock and the Story Assistant", () => {
  // The writers' timeline, where there is one.
  test.use({ timelineTitle: "Harbour Saga" });

  // `writer`: the page is signed in as a fresh writer.
  test("without a key every AI surface says what is missing", async ({ writer: { page } }, testInfo) => {
    // A retry reruns the whole serial group, after the first run's second test saved the key (no call removes it).
    test.skip(testInfo.retry > 0, "the key was saved by this group's first run");
    await openUnblock(page);
    await expect(page.getByText("The AI assistant isn't set up yet.")).toBeVisible();
    await page.getByLabel("Writing prompt").fill("a lighthouse");
    await page.getByRole("button", { name: "Generate Idea" }).click();
    await expect(toast(page, "Idea generation failed")).toBeVisible();
    await expect(toast(page, /API request failed: 503/)).toBeVisible();
    await expect(page.getByText("0/3 Free Uses")).toBeVisible();
    // The connection test spends the key uncounted: a writer is told it is for admins.
    await page.goto("/api-test");
    await waitForHydration(page);
    await expect(page.getByRole("status").filter({ hasText: "Only admins can test the AI connection." })).toBeVisible();
    await expect(page.getByRole("button", { name: "Test OpenAI API" })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test("an admin saves the OpenAI key; the status turns configured and the API test page shows the answer", async ({
    page,
    request,
  }, testInfo) => {
    await adminApiToken(request);
    await signIn(page, ADMIN);
    await page.goto("/admin/config");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "OpenAI Configuration" })).toBeVisible();
    if (testInfo.retry === 0) await expect(page.getByText("Not configured")).toBeVisible();
    await page.getByRole("button", { name: "Save API Key" }).click();
    await expect(toast(page, "Please enter an API key")).toBeVisible();
    await page.getByLabel("OpenAI API Key").fill(FAKE_OPENAI_KEY);
    await page.getByRole("button", { name: "Save API Key" }).click();
    await expect(toast(page, "OpenAI API key configured successfully")).toBeVisible();
    await expect(page.getByText("Configured", { exact: true })).toBeVisible();
    await expect(page.getByLabel("OpenAI API Key")).toHaveValue("");
    await expect(page.locator("body")).not.toContainText(FAKE_OPENAI_KEY);
    await screenshot(page, "admin-openai-config");

    await page.goto("/api-test");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Test OpenAI API" }).click();
    const result = page.getByTestId("api-test-result");
    await expect(result).toContainText('"success": true');
    await expect(result).toContainText('"configured": true');
    await expect(result).not.toContainText(FAKE_OPENAI_KEY);
  });

  test("each tab works end to end; the free limit shows its banner after three uses", async ({ writer: { page } }) => {
    await openUnblock(page);
    await expect(page.getByText("0/3 Free Uses")).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Story Ideas: validation, then a result with copy and clear.
    await page.getByRole("button", { name: "Generate Idea" }).click();
    await expect(toast(page, "Please enter a writing prompt")).toBeVisible();
    await page.getByLabel("Writing prompt").fill("  a drowned bell  ");
    await page.getByRole("button", { name: "Generate Idea" }).click();
    await expect(toast(page, "Writing idea generated!")).toBeVisible();
    await expect(page.getByTestId("ideas-result")).toContainText('Here is an idea for "a drowned bell"');
    await expect(page.getByTestId("ideas-result").locator("ol li")).toHaveCount(2);
    await expect(page.getByText("1/3 Free Uses")).toBeVisible();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy Story Ideas result" }).click();
    await expect(toast(page, "Copied to clipboard!")).toBeVisible();
    await page.getByRole("button", { name: "Clear Story Ideas result" }).click();
    await expect(page.getByText("Describe a scene, a theme or where you're stuck")).toBeVisible();

    // Enhance Text: the instruction is optional.
    await page.getByRole("tab", { name: "Enhance Text" }).click();
    await page.getByRole("button", { name: "Enhance Text", exact: true }).click();
    await expect(toast(page, "Please enter text to enhance")).toBeVisible();
    await page.getByLabel("Text to enhance").fill("She walked slowly to the sea.");
    await page.getByRole("button", { name: "Enhance Text", exact: true }).click();
    await expect(toast(page, "Text enhanced successfully!")).toBeVisible();
    await expect(page.getByTestId("enhance-result")).not.toBeEmpty();
    await expect(page.getByText("2/3 Free Uses")).toBeVisible();

    // Character Profiles.
    await page.getByRole("tab", { name: "Character Profiles" }).click();
    await page.getByRole("button", { name: "Generate Character" }).click();
    await expect(toast(page, "Please enter a character description")).toBeVisible();
    await page.getByLabel("Character description").fill("a retired smuggler who bakes bread");
    await page.getByRole("button", { name: "Generate Character" }).click();
    await expect(toast(page, "Character profile generated!")).toBeVisible();
    await expect(page.getByTestId("character-result")).toContainText("Mara Quill");
    await expect(page.getByTestId("character-result").locator("ul li")).toHaveCount(2);
    await expect(page.getByText("3/3 Free Uses")).toBeVisible();

    // The limit: banner with the upgrade button; the server refuses more even from a fresh page.
    await expect(page.getByText("Free limit reached!")).toBeVisible();
    await expect(page.getByText("Upgrade to Premium for unlimited AI writing assistance")).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade Now" })).toHaveAttribute("href", "/upgrade");
    await screenshot(page, "writers-unblock-limit");
    const res = await page.request.post("/api/ideas/generate", {
      data: { prompt: "one more" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(res.status()).toBe(429);
    expect((await res.json()).error).toBe("Free users are limited to 3 AI requests per session. Upgrade to Premium for unlimited access!");
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByText("Free limit reached!")).toBeVisible();
    await expect(page.getByRole("button", { name: "Generate Idea" })).toBeDisabled();
  });

  test("a generated character is saved to the codex of a timeline the writer can edit", async ({
    page,
    request,
    writer: user,
    timeline: _harbourSaga,
  }) => {
    const second = await apiAs(request, user, "POST", "/api/timelines", { title: "The Salt Road" });
    await openUnblock(page);
    await page.getByRole("tab", { name: "Character Profiles" }).click();
    await expect(page.getByRole("button", { name: "Save to codex" })).toBeDisabled();
    await page.getByLabel("Character description").fill("a lighthouse keeper with a secret");
    await page.getByRole("button", { name: "Generate Character" }).click();
    await expect(page.getByTestId("character-result")).toContainText("Mara Quill");

    await page.getByRole("button", { name: "Save to codex" }).click();
    const dialog = page.getByRole("dialog", { name: "Save to codex" });
    await expect(dialog.getByLabel("Name")).toHaveValue("Mara Quill");
    await dialog.getByLabel("Timeline").selectOption({ label: "The Salt Road" });
    await dialog.getByLabel("Name").fill("");
    await dialog.getByRole("button", { name: "Save character" }).click();
    await expect(toast(page, "Name is required")).toBeVisible();
    await dialog.getByLabel("Name").fill("Mara Quill");
    await dialog.getByRole("button", { name: "Save character" }).click();
    await expect(toast(page, "Mara Quill saved to the codex")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("link", { name: "Open timeline" }).click();
    await expect(page).toHaveURL(new RegExp(`/timeline/${second.id}$`));
    const entry = page.getByRole("region", { name: "Codex" }).getByTestId("codex-entry");
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText("Mara Quill");

    // The server stored the whole profile as the description, as a character.
    const [saved] = await apiAs(request, user, "GET", `/api/timelines/${second.id}/entities`);
    expect(saved.kind).toBe("character");
    expect(saved.description).toContain("Wants: to be believed");
  });

  test("the name typed in 'Save to codex' stays while the profile is still arriving", async ({
    writer: { page },
    timeline: _harbourSaga,
  }) => {
    await openUnblock(page);
    await page.getByRole("tab", { name: "Character Profiles" }).click();
    // [[slowstream]]: the fake model sends two words every 250 ms, so the dialog opens mid-stream.
    await page.getByLabel("Character description").fill("a lighthouse keeper [[slowstream]]");
    await page.getByRole("button", { name: "Generate Character" }).click();
    await expect(page.getByTestId("character-result")).toContainText("Mara Quill");
    await page.getByRole("button", { name: "Save to codex" }).click();
    const dialog = page.getByRole("dialog", { name: "Save to codex" });
    await expect(dialog.getByLabel("Name")).toHaveValue("Mara Quill");
    await dialog.getByLabel("Name").fill("Mara Q. Keeper");
    await expect(page.getByTestId("character-result")).toContainText("A quiet voice that carries.", { timeout: 15_000 });
    await expect(dialog.getByLabel("Name")).toHaveValue("Mara Q. Keeper");
    await dialog.getByRole("button", { name: "Save character" }).click();
    await expect(toast(page, "Mara Q. Keeper saved to the codex")).toBeVisible();
  });

  test("premium writers see the Premium badge; an upstream error shows a generic message, never the upstream text", async ({
    page,
    request,
    writer,
  }) => {
    await makePremium(request, writer);
    await openUnblock(page);
    await expect(page.getByText("Premium User")).toBeVisible();
    await page.getByLabel("Writing prompt").fill("[[error]] please");
    await page.getByRole("button", { name: "Generate Idea" }).click();
    const error = toast(page, "Idea generation failed");
    await expect(error).toBeVisible();
    const text = (await error.textContent()) ?? "";
    expect(text).toContain("API request failed: 502 Bad Gateway - The AI service could not answer. Please try again later.");
    expect(text).not.toContain("overloaded");
  });

  test("a plot suggestion becomes an event with the title rules; viewers see no assistant", async ({ page, request, browser }) => {
    const owner = await createUser(request, { name: "Olive Owner" });
    await makePremium(request, owner);
    const timeline = await apiAs<{ id: number; title: string }>(request, owner, "POST", "/api/timelines", { title: "Saltmarsh" });
    await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "The keeper arrives", content: "Rain." });
    await signIn(page, owner);
    await page.goto(`/timeline/${timeline.id}`);
    await waitForHydration(page);

    const assistant = page.getByRole("complementary", { name: "Story Assistant" });
    await expect(assistant.getByRole("tab", { name: "Plot Ideas" })).toBeVisible();
    // The panel is server-rendered; its code comes just after the page's.
    await expect(assistant.locator("[data-live]")).toBeVisible();
    await expect(assistant.getByRole("button", { name: "Suggest Plot Idea" })).toBeDisabled();
    await assistant.getByLabel("What should happen next?").fill("   ");
    await expect(assistant.getByRole("button", { name: "Suggest Plot Idea" })).toBeDisabled();
    const box = await assistant.getByLabel("What should happen next?").boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(100);

    await assistant.getByLabel("What should happen next?").fill("[[long-title]]");
    await assistant.getByRole("button", { name: "Suggest Plot Idea" }).click();
    await expect(assistant.getByLabel(/Suggestion/)).not.toHaveValue("");
    await screenshot(page, "story-assistant-suggestion");
    await assistant.getByRole("button", { name: "Add to Timeline" }).click();
    await expect(toast(page, "Suggestion Applied")).toBeVisible();
    const titles = page.getByTestId("event-card").locator("h3");
    await expect(titles).toHaveCount(2);
    const added = (await titles.nth(1).textContent()) ?? "";
    expect(added).toHaveLength(50);
    expect(added.endsWith("...")).toBe(true);
    expect(added).not.toMatch(/[#*"]/);
    await expect(page.getByText("She reads it by the lamp.")).toBeVisible();

    // Character Profiles tab in the panel.
    await assistant.getByRole("tab", { name: "Character Profiles" }).click();
    await assistant.getByLabel("Describe a character").fill("the harbourmaster");
    await assistant.getByRole("button", { name: "Generate Profile" }).click();
    await expect(assistant.getByText("Mara Quill", { exact: false })).toBeVisible();

    // A viewer has no Story Assistant.
    const viewer = await createUser(request, { name: "Vera Viewer" });
    await shareWith(request, owner, timeline.id, viewer, "viewer");
    const context = await browser.newContext();
    const viewerPage = await context.newPage();
    await signIn(viewerPage, viewer);
    await viewerPage.goto(`/timeline/${timeline.id}`);
    await waitForHydration(viewerPage);
    await expect(viewerPage.getByTestId("event-card")).toHaveCount(2);
    await expect(viewerPage.getByRole("complementary", { name: "Story Assistant" })).toHaveCount(0);
    await context.close();
  });
});
