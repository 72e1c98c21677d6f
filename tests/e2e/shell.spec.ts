import {
  ADMIN,
  adminApiToken,
  expect,
  expectNoSeriousA11yViolations,
  login,
  openHome,
  screenshot,
  test,
  waitForHydration,
} from "./fixtures";

const protectedPaths = ["/timeline", "/timeline/1", "/writers-unblock", "/api-test", "/account", "/upgrade"];

test.describe("route guards", () => {
  test.use({ writerOptions: { name: "Grace Hopper", premium: false } });
  test("anonymous visitors are sent to login, before any HTML", async ({ page, request }) => {
    const root = await request.get("/", { maxRedirects: 0 });
    expect(root.status()).toBe(302);
    expect(root.headers().location).toBe("/auth/login");
    // The login page brings them back afterwards (auth.spec.ts).
    for (const path of [...protectedPaths, "/admin", "/admin/config"]) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(302);
      expect(res.headers().location, path).toBe(`/auth/login?redirectTo=${encodeURIComponent(path)}`);
    }
    await page.goto("/timeline");
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Ftimeline$/);
    await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Register" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);
  });

  test("a signed-in writer is kept out of auth pages and admin pages", async ({ page, writer: _ }) => {
    await openHome(page);
    await expect(page.getByRole("button", { name: /Account menu for Grace Hopper/ })).toContainText("GH");
    for (const path of ["/auth/login", "/auth/register", "/auth/forgot-password", "/auth/reset-password", "/"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/timeline$/);
    }
    for (const path of ["/admin", "/admin/config"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/timeline$/); // admin → / → /timeline
    }
    const headings: Record<string, string> = {
      "/writers-unblock": "Writer's Unblock",
      "/api-test": "API Test",
      "/account": "Account",
      "/upgrade": "Upgrade",
    };
    for (const [path, heading] of Object.entries(headings)) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);
  });

  test("an admin sees the Admin Dashboard link and reaches /admin", async ({ page, request }) => {
    await adminApiToken(request); // registers the admin on first use
    await login(page, ADMIN);
    await page.getByRole("link", { name: "Admin Dashboard" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    await page.getByRole("button", { name: /Account menu/ }).click();
    await expect(page.getByRole("link", { name: "Admin", exact: true })).toBeVisible();
    await screenshot(page, "admin-shell");
    await page.goto("/admin/config");
    await expect(page).toHaveURL(/\/admin\/config$/);
  });

  test("unknown paths show 404 Page Not Found", async ({ page }) => {
    const res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await screenshot(page, "not-found");
  });

  test("links work with JavaScript off", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/timeline");
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Ftimeline$/);
    await page.getByRole("link", { name: "Need an account?" }).click();
    await expect(page).toHaveURL(/\/auth\/register\?redirectTo=%2Ftimeline$/);
    await context.close();
  });
});

test.describe("help assistant", () => {
  test("greets, answers by keyword after a typing delay, and links to the full assistant", async ({ page }) => {
    await page.goto("/auth/login");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Open help assistant" }).click();
    const panel = page.getByRole("region", { name: "StoryWeave Assistant" });
    await expect(panel).toBeVisible();
    const box = await panel.boundingBox();
    expect(Math.round(box!.width)).toBe(350);
    expect(Math.round(box!.height)).toBe(500);
    await expect(panel.getByText("Hi! I'm the StoryWeave Assistant.")).toBeVisible();

    const input = panel.getByPlaceholder("Type your message...");
    const send = panel.getByRole("button", { name: "Send message" });
    await expect(send).toBeDisabled();
    await input.fill("How do I share with my team?");
    await expect(send).toBeEnabled();
    await send.click();
    await expect(send).toBeDisabled(); // typing
    await expect(panel.getByText("Assistant is typing")).toBeAttached();
    await expect(panel.getByText(/Premium owners can share a timeline/)).toBeVisible({ timeout: 3000 });

    await panel.getByRole("button", { name: "Timelines" }).count(); // quick replies only on the last bot message
    await input.fill("purple elephants");
    await input.press("Enter");
    await expect(panel.getByText(/I'm not sure about that one/)).toBeVisible();
    await panel.getByRole("button", { name: "Timelines" }).click();
    await expect(panel.getByText(/Timelines hold your story's events in order/)).toBeVisible();

    await input.fill("I need more help");
    await input.press("Enter");
    const openOption = panel.getByRole("button", { name: "Yes, open StoryWeave chatbot" });
    await expect(openOption).toBeVisible();
    const link = panel.getByRole("link", { name: "Need more help? Open full assistant" });
    await expect(link).toHaveAttribute("target", "_blank");
    await screenshot(page, "help-assistant");
    const [popup] = await Promise.all([page.waitForEvent("popup"), openOption.click()]);
    expect(popup).toBeTruthy();
    await popup.close();
  });

  test("the shell has no serious accessibility violations when signed in", async ({ page, writer: _ }) => {
    await openHome(page);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "shell-signed-in");
  });
});

test.describe("code on demand", () => {
  test.use({ writerOptions: { name: "Ada Lazy", premium: false }, timelineTitle: "Lazy Saga" });
  test("menus and dialogs load their code on first use; one key press or click still opens them", async ({ page, timeline }) => {
    const chunks: string[] = [];
    page.on("request", (req) => {
      const name = /\/assets\/(export-menu-radix|account-menu|dialog-radix)-/.exec(req.url())?.[1];
      if (name) chunks.push(name);
    });
    await page.goto(`/timeline/${timeline.id}`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Lazy Saga" })).toBeVisible();
    const exportButton = page.getByRole("button", { name: "Export" });
    await expect(exportButton).toHaveAttribute("aria-haspopup", "menu");
    await expect(exportButton).toHaveAttribute("aria-expanded", "false");
    expect(chunks).toEqual([]); // nothing loaded before first use

    // Keyboard: focus loads the menu, Enter opens it, Escape gives focus back to the (now real) trigger.
    await exportButton.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Word (.docx)" })).toBeVisible();
    expect(chunks).toContain("export-menu-radix");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menuitem", { name: "Word (.docx)" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Export" })).toBeFocused();

    // One click opens the account panel on first use.
    await page.getByRole("button", { name: /Account menu for Ada Lazy/ }).click();
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
    expect(chunks).toContain("account-menu");
    expect(chunks).not.toContain("dialog-radix");
  });
});
