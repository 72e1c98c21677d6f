import type { APIRequestContext } from "@playwright/test";
import { oauthErrors } from "../../db/rules";
import { createUser, expect, expectNoSeriousA11yViolations, login, screenshot, test, uniqueEmail, waitForHydration } from "./fixtures";

/** The fake OAuth provider that scripts/e2e-server.mjs runs next to the app (port + 4); only GitHub is configured. */
const OAUTH_API = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4319) + 4}`;

/** Who the fake GitHub signs in next (it approves at once, as a writer already signed in at GitHub would). */
async function nextGitHubProfile(request: APIRequestContext, profile: { id: string; name: string; email: string; emailVerified: boolean }) {
  const res = await request.post(`${OAUTH_API}/__profile/github`, { data: { login: `gh-${profile.id}`, ...profile } });
  expect(res.status()).toBe(200);
}

test.describe("OAuth sign-in", () => {
  test("'Continue with GitHub' on the login page signs a new writer in through the provider and lands on /timeline", async ({
    page,
    request,
  }) => {
    const email = uniqueEmail("github");
    await nextGitHubProfile(request, { id: `e2e-${Date.now()}`, name: "Gita Hub", email, emailVerified: true });

    await page.goto("/auth/login");
    await waitForHydration(page);
    const github = page.getByRole("link", { name: "Continue with GitHub" });
    await expect(github).toBeVisible();
    // Google has no client id/secret on the test server: no button.
    await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "login-oauth-buttons");

    await github.click();
    await expect(page).toHaveURL(/\/timeline$/);
    await expect(page.getByText("Welcome!")).toBeVisible();
    const me = await page.request.get("/api/auth/me");
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, name: "Gita Hub", isEmailVerified: true });
    await screenshot(page, "oauth-signed-in");

    // The account page tells how this writer signs in: GitHub, and no password yet.
    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByTestId("sign-in-github")).toContainText("Connected");
    await expect(page.getByText("Not set: use “Forgot password” on the login page to choose one.")).toBeVisible();
  });

  test("the register page offers it too; an unverified provider email for an existing account is refused on the login page", async ({
    page,
    request,
  }) => {
    const existing = await createUser(request);
    await nextGitHubProfile(request, { id: `e2e-x-${Date.now()}`, name: "Not Them", email: existing.email, emailVerified: false });

    await page.goto("/auth/register");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Continue with GitHub" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?oauthError=unverified_email$/);
    await expect(page.getByRole("alert")).toHaveText(oauthErrors.unverified_email);
    const me = await page.request.get("/api/auth/me");
    expect(me.status()).toBe(401);
    await expectNoSeriousA11yViolations(page);

    // As the message says: sign in with the password, then connect GitHub from the account page.
    await login(page, existing);
    await page.goto("/account");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Connect GitHub" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText("You can now sign in with GitHub.")).toBeVisible();
    await expect(page.getByTestId("sign-in-github")).toContainText("Connected");
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "account-sign-in-methods");
  });
});
