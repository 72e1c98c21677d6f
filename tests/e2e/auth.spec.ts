import { baseURL } from "../../playwright.config";
import {
  apiAs,
  createUser,
  expect,
  expectNoSeriousA11yViolations,
  latestVerifyLink,
  loginThroughForm,
  screenshot,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

test.describe("accounts", () => {
  test("register → sign out → sign in → forgot → reset link → new password → sign in", async ({ page }) => {
    // Long (the whole account journey, 14 s on CI): three times the 60 s a test gets, for a machine busy with two workers.
    test.slow();
    const email = uniqueEmail("journey");
    await page.goto("/auth/register");
    await waitForHydration(page);
    await screenshot(page, "register");
    await page.getByLabel("Name").fill("Journey Writer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("first-pass");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/timeline$/);
    await expect(page.getByText("Welcome!")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Timeline", level: 1 })).toBeVisible();

    // The user panel shows initials, name and email; Logout signs out.
    await page.getByRole("button", { name: /Account menu for Journey Writer/ }).click();
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByRole("link", { name: "Account" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);

    await loginThroughForm(page, { email, password: "first-pass" });
    await expect(page.getByText("Welcome back!")).toBeVisible();
    await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);

    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/auth\/forgot-password$/);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(
      page.getByText("If an account exists with the email you provided, you'll receive an email with a reset token."),
    ).toBeVisible();
    await screenshot(page, "forgot-password-sent");

    const link = await latestResetLink(page, email);
    await page.goto(link);
    await waitForHydration(page);
    await page.getByLabel("New Password").fill("second-pass");
    await page.getByLabel("Confirm Password").fill("second-pass");
    await screenshot(page, "reset-password-form");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByRole("heading", { name: "Password Reset Successful" })).toBeVisible();
    await screenshot(page, "reset-password-success");
    await expect(page.getByRole("link", { name: "Go to Login" })).toBeVisible();

    // The link is single-use.
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Invalid or Expired Link" })).toBeVisible();
    await expect(page.getByText("This password reset token is invalid or has expired.")).toBeVisible();
    await screenshot(page, "reset-password-invalid");

    await page.context().clearCookies();
    await page.goto("/auth/login");
    await waitForHydration(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("first-pass");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Invalid email or password")).toBeVisible();
    await expect(page.getByText("Login failed")).toBeVisible();
    await loginThroughForm(page, { email, password: "second-pass" });
  });

  test("validation messages in the product's words", async ({ page, request }) => {
    await page.goto("/auth/register");
    await waitForHydration(page);
    await page.getByLabel("Name").fill("A");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("123");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();
    await screenshot(page, "register-errors");

    const existing = await createUser(request);
    await page.getByLabel("Name").fill("Someone");
    await page.getByLabel("Email").fill(existing.email);
    await page.getByLabel("Password").fill("secret-pass");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("An account with this email already exists")).toBeVisible();
    await expect(page.getByText("Registration failed")).toBeVisible();

    await page.goto("/auth/login");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();

    await page.goto("/auth/reset-password");
    await waitForHydration(page);
    await expect(page.getByText("Missing reset token. Please request a new password reset link.")).toBeVisible();
    await page.getByLabel("Reset Token").fill("   short   ");
    await page.getByRole("button", { name: "Verify Token" }).click();
    await expect(page.getByText("Please enter a valid reset token from your email")).toBeVisible();
    await screenshot(page, "reset-password-manual");
    await page.getByLabel("Reset Token").fill("abcdefghijklmnopqrstuvwxyz");
    await page.getByRole("button", { name: "Verify Token" }).click();
    await expect(page.getByRole("heading", { name: "Invalid or Expired Link" })).toBeVisible();
  });

  test("a typed reset token works like the link, and passwords must match", async ({ page, request }) => {
    const user = await createUser(request);
    // The request context holds the new session cookie, so a same-origin Origin is required (CSRF check).
    const asked = await request.post("/api/auth/forgot-password", {
      data: { email: user.email },
      headers: { Origin: baseURL },
    });
    expect(asked.status()).toBe(200);
    const link = await latestResetLink(page, user.email);
    const token = new URL(link).searchParams.get("token")!;
    await page.goto("/auth/reset-password");
    await waitForHydration(page);
    await page.getByLabel("Reset Token").fill(token);
    await page.getByRole("button", { name: "Verify Token" }).click();
    await page.getByLabel("New Password").fill("third-pass");
    await page.getByLabel("Confirm Password").fill("third-pazz");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();
    await page.getByLabel("Confirm Password").fill("third-pass");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByRole("heading", { name: "Password Reset Successful" })).toBeVisible();
  });

  test("a signed-out visitor opening a protected page signs in, or registers, and lands back on it", async ({ page, request }) => {
    const writer = await createUser(request, { name: "Ret Urner" });
    const timeline = await apiAs(request, writer, "POST", "/api/timelines", { title: "Where I was going" });
    const target = `/timeline/${timeline.id}?from=mail`;
    await page.goto(target);
    await expect(page).toHaveURL(`/auth/login?redirectTo=${encodeURIComponent(target)}`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(writer.email);
    await page.getByLabel("Password").fill(writer.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(target);
    await expect(page.getByRole("heading", { name: "Where I was going", level: 1 })).toBeVisible();
    // The live room connects once the page is idle: let it, before the cookies go (a refused upgrade is a console error).
    await expect(page.getByText("Connected", { exact: true })).toBeVisible();

    // A share link too, and through registration (the login page's link keeps the return address).
    await page.context().clearCookies();
    const shared = await page.request.get("/timeline/shared/abc123?x=1", { maxRedirects: 0 });
    expect(shared.headers().location).toBe(`/auth/login?redirectTo=${encodeURIComponent("/timeline/shared/abc123?x=1")}`);
    await page.goto("/writers-unblock");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Need an account?" }).click();
    await expect(page).toHaveURL(`/auth/register?redirectTo=${encodeURIComponent("/writers-unblock")}`);
    const newcomer = uniqueEmail("returning");
    await page.getByLabel("Name").fill("New Comer");
    await page.getByLabel("Email").fill(newcomer);
    await page.getByLabel("Password").fill("first-pass");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL("/writers-unblock");
    // The emailed verification link keeps it too: after verifying, 'Continue' goes back there.
    const verifyLink = await latestVerifyLink(request, newcomer);
    expect(new URL(verifyLink).searchParams.get("redirectTo")).toBe("/writers-unblock");
    await page.goto(verifyLink);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Continue", exact: true }).click();
    await expect(page).toHaveURL("/writers-unblock");

    // Another site as the return address: the login lands on /timeline.
    await page.context().clearCookies();
    await page.goto("/auth/login?redirectTo=/%09/127.0.0.1:5193/phish");
    await waitForHydration(page);
    await page.getByLabel("Email").fill(writer.email);
    await page.getByLabel("Password").fill(writer.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/timeline$/);
  });

  test("auth pages have no serious accessibility violations", async ({ page }) => {
    for (const path of ["/auth/login", "/auth/register", "/auth/forgot-password", "/auth/reset-password"]) {
      await page.goto(path);
      await waitForHydration(page);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, `a11y${path.replaceAll("/", "-")}`);
    }
  });
});

async function latestResetLink(page: import("@playwright/test").Page, email: string) {
  // The real HttpMailer delivered it to the fake mail API that scripts/e2e-server.mjs runs.
  const mailPort = Number(process.env.E2E_PORT ?? 4319) + 1;
  let link: string | null = null;
  await expect
    .poll(async () => {
      const res = await page.request.get(`http://127.0.0.1:${mailPort}/messages?to=${encodeURIComponent(email)}`);
      link = (await res.json()).link;
      return link;
    })
    .toContain("/auth/reset-password?token=");
  return link as unknown as string;
}
