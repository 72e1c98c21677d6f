import type { APIRequestContext } from "@playwright/test";
import { oauthErrors } from "../../db/domain/sign-in-rules";
import { signInMethodMessages } from "../../db/domain/sign-in-rules";
import {
  MAIL_API,
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
    const existing = await createUser(request, { verified: false });
    await nextGitHubProfile(request, { id: `e2e-x-${Date.now()}`, name: "Not Them", email: existing.email, emailVerified: false });

    await page.goto("/auth/register");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Continue with GitHub" }).click();
    await expect(page).toHaveURL(/\/auth\/login\?oauthError=unverified_email$/);
    await expect(page.getByRole("alert")).toHaveText(oauthErrors.unverified_email);
    const me = await page.request.get("/api/auth/me");
    expect(me.status()).toBe(401);
    await expectNoSeriousA11yViolations(page);

    // As the message says: sign in with the password, then connect GitHub from the account page, once the
    // address is verified (an unverified account may be someone squatting the address).
    await loginThroughForm(page, existing);
    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByText(`${signInMethodMessages.verifyFirst}.`)).toBeVisible();
    await expect(page.getByRole("link", { name: "Connect GitHub" })).toHaveCount(0);
    await page.goto(await latestVerifyLink(request, existing.email));
    await expect(page.getByText("Your email is verified")).toBeVisible();
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

test("'Continue with GitHub' from a login page that carries a return address lands back on that page", async ({ page, request }) => {
  await nextGitHubProfile(request, { id: `e2e-r-${Date.now()}`, name: "Ret Hub", email: uniqueEmail("gh-return"), emailVerified: true });
  await page.goto("/upgrade?plan=premium");
  await expect(page).toHaveURL(`/auth/login?redirectTo=${encodeURIComponent("/upgrade?plan=premium")}`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Continue with GitHub" }).click();
  await expect(page).toHaveURL("/upgrade?plan=premium");
});

test.describe("sign-in methods on the account page", () => {
  test("shows each method with its date; Disconnect removes GitHub (mailed), and the last way to sign in is refused with a toast", async ({
    page,
    request,
  }) => {
    // A writer who signed up with GitHub only: no password, one provider.
    const email = uniqueEmail("methods");
    await nextGitHubProfile(request, { id: `e2e-m-${Date.now()}`, name: "Meth Odd", email, emailVerified: true });
    await page.goto("/auth/login");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Continue with GitHub" }).click();
    await expect(page).toHaveURL(/\/timeline$/);

    await page.goto("/account");
    await waitForHydration(page);
    const github = page.getByTestId("sign-in-github");
    const today = new Date().toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
    await expect(github).toContainText("Connected");
    await expect(github).toContainText(`since ${today}`);
    await github.getByRole("button", { name: "Disconnect GitHub" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Disconnect GitHub?");
    await dialog.getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByText(signInMethodMessages.lastMethod)).toBeVisible();
    await expect(github).toContainText("Connected");

    // With a password set (through 'Forgot password', as the page says), GitHub can go.
    const forgot = await request.post("/api/auth/forgot-password", { data: { email } });
    expect(forgot.status()).toBe(200);
    let resetLink = "";
    await expect
      .poll(async () => {
        resetLink = (await (await request.get(`${MAIL_API}/messages?to=${encodeURIComponent(email)}`)).json()).link ?? "";
        return resetLink;
      })
      .toContain("/auth/reset-password?token=");
    const token = new URL(resetLink).searchParams.get("token");
    const reset = await request.post("/api/auth/reset-password", { data: { token, password: "a-password-now" } });
    expect(reset.status(), await reset.text()).toBe(200);
    // The reset ended every session: sign in again (a fresh sign-in, as removing a method needs).
    await loginThroughForm(page, { email, password: "a-password-now" });
    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByRole("listitem").filter({ has: page.getByText("Password", { exact: true }) })).toContainText("Set");
    await github.getByRole("button", { name: "Disconnect GitHub" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByText("GitHub no longer signs you in.")).toBeVisible();
    await expect(github.getByRole("link", { name: "Connect GitHub" })).toBeVisible();
    await expect(github).not.toContainText("Connected");
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "account-sign-in-methods-disconnected");

    const mails = (await (await request.get(`${MAIL_API}/messages?to=${encodeURIComponent(email)}`)).json()).messages;
    expect(mails.map((m: { text: string }) => m.text).join("\n")).toContain("GitHub was disconnected");
  });
});
