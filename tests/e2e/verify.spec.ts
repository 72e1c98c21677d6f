import {
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  latestVerifyLink,
  signIn,
  screenshot,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

test.describe("email verification", () => {
  test("register → banner → link from the email → verified → banner gone; the account page shows the state", async ({ page }) => {
    const email = uniqueEmail("verify");
    await page.goto("/auth/register");
    await waitForHydration(page);
    await page.getByLabel("Name").fill("Vera Verify");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("verify-pass");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/timeline$/);
    await expect(page.getByText("Welcome!")).toBeVisible();

    const banner = page.getByRole("region", { name: "Email verification" });
    await expect(banner).toContainText("Please verify your email");
    await screenshot(page, "verify-banner");

    // 'Resend email' mails a new link (toast), and the account page tells the state.
    await banner.getByRole("button", { name: "Resend email" }).click();
    await expect(page.getByText("Verification email sent")).toBeVisible();
    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByTestId("email-status")).toHaveText("Email not verified");
    await expect(page.getByRole("button", { name: "Resend email" }).first()).toBeVisible();

    // The banner can be dismissed.
    await page.getByRole("button", { name: "Dismiss" }).click();
    await expect(banner).toHaveCount(0);

    const link = await latestVerifyLink(page.request, email);
    await page.goto(link);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Your email is verified" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "verify-email-success");
    await page.getByRole("link", { name: "Continue to your timelines" }).click();
    await expect(page).toHaveURL(/\/timeline$/);
    await expect(page.getByRole("heading", { name: "Timeline", level: 1 })).toBeVisible();
    await expect(banner).toHaveCount(0);

    await page.goto("/account");
    await expect(page.getByTestId("email-status")).toHaveText("Email verified");
    await expect(page.getByRole("button", { name: "Resend email" })).toHaveCount(0);

    // The link is single-use.
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Invalid or Expired Link" })).toBeVisible();
    await expect(page.getByText("This verification link is invalid or has expired.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Resend email" })).toHaveCount(0);
  });

  test("'Dismiss' pressed as soon as the page is hydrated works even when the banner's code comes late", async ({ page, request }) => {
    // The banner is its own chunk (protected-layout.tsx) and hydrates after the page: on a busy machine a press on
    // the server's HTML before then did nothing. Its buttons are disabled until it can act on them.
    const user = await createUser(request, { verified: false });
    await signIn(page, user);
    await page.route(/\/assets\/verify-email-banner-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue();
    });
    await page.goto("/account");
    await waitForHydration(page);
    const banner = page.getByRole("region", { name: "Email verification" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("button", { name: "Dismiss" })).toBeDisabled();
    await banner.getByRole("button", { name: "Dismiss" }).click();
    await expect(banner).toHaveCount(0);
  });

  test("an invalid link offers 'Resend email' to a signed-in, unverified writer", async ({ page, request }) => {
    const user = await createUser(request, { verified: false });
    await signIn(page, user);
    await page.goto("/auth/verify-email?token=not-a-real-token-0123456789");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Invalid or Expired Link" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "verify-email-invalid");
    await page.getByRole("button", { name: "Resend email" }).click();
    await expect(page.getByText("Verification email sent")).toBeVisible();
  });

  test("the link works without JavaScript", async ({ browser, request }) => {
    const user = await createUser(request, { verified: false });
    const link = await latestVerifyLink(request, user.email);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Your email is verified" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to Login" })).toBeVisible();
    await context.close();
  });
});
