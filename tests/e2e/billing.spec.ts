import {
  ADMIN,
  adminApiToken,
  apiAs,
  createUser,
  toast,
  screenshot,
  signIn,
  test,
  waitForHydration,
  expect,
  expectNoSeriousA11yViolations,
} from "./fixtures";

test.describe.configure({ mode: "serial" });

/** The fake Stripe server of this e2e run (scripts/e2e-server.mjs: E2E_PORT + 3). */
const STRIPE_FAKE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4319) + 3}`;

test.describe("plans, billing and the admin dashboard", () => {
  test("an admin sets the payment keys, grants and removes premium, and filters admins", async ({ page, request }) => {
    const writer = await createUser(request, { name: "Gwen Grant" });
    await adminApiToken(request);
    await signIn(page, ADMIN);
    // Before any keys exist, /upgrade says so instead of failing obscurely.
    await page.goto("/upgrade");
    await waitForHydration(page);
    await expect(page.getByText("Payments are not configured")).toBeVisible();
    await expect(page.getByRole("button", { name: "Upgrade to Premium" })).toBeDisabled();

    await page.goto("/admin");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();

    await expect(page.getByText("Payments not configured")).toBeVisible();
    await page.getByRole("button", { name: "Save Stripe Keys" }).click();
    await expect(toast(page, "Please enter both Stripe keys")).toBeVisible();
    await page.getByLabel("Secret key").fill("sk_test_e2e_secret");
    await page.getByLabel("Publishable key").fill("pk_live_e2e_publishable");
    await page.getByRole("button", { name: "Save Stripe Keys" }).click();
    await expect(toast(page, "Both keys must be test keys or both live keys")).toBeVisible();
    await page.getByLabel("Publishable key").fill("pk_test_e2e_publishable");
    await page.getByLabel("Webhook signing secret (optional)").fill("whsec_e2e");
    await page.getByRole("button", { name: "Save Stripe Keys" }).click();
    await expect(toast(page, "Stripe keys configured successfully")).toBeVisible();
    await expect(page.getByText("Payments configured")).toBeVisible();
    await expect(page.getByText("Test mode")).toBeVisible();
    await expect(page.locator("body")).not.toContainText("sk_test_e2e_secret");

    const row = page.getByTestId("admin-user-row").filter({ hasText: writer.email });
    await expect(row).toContainText("Gwen Grant");
    await expect(row).toContainText("Free");
    await expect(row).toContainText(/Last login: \w+/);
    await expect(page.getByText(/Total users: \d+ · Admins: \d+/)).toBeVisible();
    await row.getByRole("button", { name: `Grant premium to ${writer.email}` }).click();
    await expect(toast(page, "User premium status updated successfully")).toBeVisible();
    await expect(row).toContainText("Premium");
    await row.getByRole("button", { name: `Remove premium from ${writer.email}` }).click();
    await expect(row.getByText("Free", { exact: true })).toBeVisible();

    await page.getByLabel("Show only admins").check();
    await expect(row).toHaveCount(0);
    const rows = page.getByTestId("admin-user-row");
    await expect(rows.first()).toContainText("admin");
    expect(await rows.count()).toBeGreaterThan(0);
    for (const r of await rows.all()) await expect(r.getByText("admin", { exact: true })).toBeVisible();
    await page.getByLabel("Show only admins").uncheck();
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(row).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "admin-dashboard");
  });

  test("a free writer upgrades through checkout, returns as Premium, then switches back to free", async ({ page, context, request }) => {
    const writer = await createUser(request, { name: "Paula Payer" });
    await signIn(page, writer);
    await page.goto("/upgrade");
    await waitForHydration(page);
    await expect(page.getByText("$9.99")).toBeVisible();
    await expect(page.getByText("per month")).toBeVisible();
    await expect(page.getByText("$0")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "upgrade");

    const popupPromise = context.waitForEvent("page");
    await page.getByRole("button", { name: "Upgrade to Premium" }).click();
    const checkout = await popupPromise;
    await checkout.waitForLoadState();
    await expect(checkout.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
    await checkout.getByRole("button", { name: "Pay $9.99" }).click();
    await expect(checkout).toHaveURL(/\/account$/);
    await waitForHydration(checkout);
    await expect(toast(checkout, "Plan changed")).toBeVisible();
    await expect(checkout.getByTestId("current-plan")).toHaveText("Premium");
    await expect(checkout.getByText(/Renewal date: \w+/)).toBeVisible();
    expect(new URL(checkout.url()).search).toBe("");
    await screenshot(checkout, "account-premium");

    // Returning to the same address again changes nothing (idempotent confirmation).
    await page.goto("/upgrade");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "You're on Premium" })).toBeVisible();
    await page.getByRole("link", { name: "Manage Subscription" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Switch to Free" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Switch to Free" }).click();
    await expect(toast(page, "Plan changed")).toBeVisible();
    await expect(page.getByTestId("current-plan")).toHaveText("Free");
    await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toBeVisible();
    await checkout.close();
  });

  test("a checkout session that is unknown, unpaid, or someone else's does not upgrade", async ({ page, request }) => {
    const writer = await createUser(request);
    const other = await createUser(request);
    await signIn(page, writer);
    const tryReturn = async (sessionId: string, message: string) => {
      await page.goto(`/account?session_id=${sessionId}`);
      await expect(page).toHaveURL(/\/account$/);
      await expect(toast(page, message)).toBeVisible();
      await expect(toast(page, "Subscription Error")).toBeVisible();
      await expect(page.getByTestId("current-plan")).toHaveText("Free");
    };
    await tryReturn("cs_test_not_real", "Unknown checkout session");

    const unpaid = await apiAs<{ sessionId: string }>(request, writer, "POST", "/api/subscription/create-checkout-session");
    await tryReturn(unpaid.sessionId, "Payment has not been completed yet");

    const theirs = await apiAs<{ sessionId: string }>(request, other, "POST", "/api/subscription/create-checkout-session");
    expect((await request.post(`${STRIPE_FAKE}/__complete/${theirs.sessionId}`)).ok()).toBe(true);
    await tryReturn(theirs.sessionId, "This checkout belongs to another account");
  });

  test("when the user list cannot load, the admin gets the toast and a 'Go to Login' that signs out", async ({ page }) => {
    await signIn(page, ADMIN);
    await page.route("**/api/admin/users", (route) =>
      route.fulfill({ status: 403, contentType: "application/json", body: '{"error":"Forbidden"}' }),
    );
    await page.goto("/admin");
    await waitForHydration(page);
    await expect(toast(page, "Failed to load users. Please verify you have admin access.")).toBeVisible();
    const panel = page.getByRole("alert").filter({ hasText: "Failed to load users" });
    await expect(panel).toBeVisible();
    await screenshot(page, "admin-users-load-failed");
    await panel.getByRole("button", { name: "Go to Login" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\/login/);
  });

  test("a non-admin is sent away from /admin; admins see the dashboard card on /account", async ({ page, request }) => {
    const writer = await createUser(request);
    await signIn(page, writer);
    await page.goto("/admin");
    await expect(page).not.toHaveURL(/\/admin/);
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toHaveCount(0);

    await page.context().clearCookies();
    await signIn(page, ADMIN);
    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
    await expect(page.getByTestId("admin-user-row").first()).toBeVisible();
  });

  test("the three pages fit a phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, ADMIN);
    for (const path of ["/upgrade", "/account", "/admin"]) {
      await page.goto(path);
      await waitForHydration(page);
      if (path !== "/upgrade") {
        // The premium toggle stays on screen (no sideways scrolling inside the grid either).
        const toggle = page
          .getByTestId("admin-user-row")
          .first()
          .getByRole("button", { name: /premium/i });
        const box = await toggle.boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(390);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, `billing-phone${path.replace("/", "-")}`);
    }
  });
});
