import AxeBuilder from "@axe-core/playwright";
import { baseURL } from "../../playwright.config";
import { type APIRequestContext, type Browser, type Locator, type Page, expect, test as base } from "@playwright/test";
import type { Timeline } from "./types";

let counter = 0;
export function uniqueEmail(prefix = "writer") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.test`;
}

export type TestUser = { name: string; email: string; password: string; token: string };

/**
 * Creates an account through the real API (fast), returning its bearer token. The address is verified with the
 * mailed link, as a writer would, since a share with an unverified address only waits as an invitation;
 * `verified: false` keeps it unverified.
 */
export async function createUser(
  request: APIRequestContext,
  { verified = true, ...overrides }: Partial<TestUser> & { verified?: boolean } = {},
): Promise<TestUser> {
  const user = { name: "Test Writer", email: uniqueEmail(), password: "secret-pass-1", ...overrides };
  const res = await request.post("/api/auth/register", {
    data: { name: user.name, email: user.email, password: user.password },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  if (verified) {
    const token = new URL(await latestVerifyLink(request, user.email)).searchParams.get("token");
    const done = await request.post("/api/auth/verify-email", { data: { token }, headers: { Origin: baseURL } });
    expect(done.status(), await done.text()).toBe(200);
  }
  return { ...user, token: body.token };
}

/** admin@storyweave.local is in ADMIN_EMAILS for the test server; every spec signs in with these. */
export const ADMIN = { name: "Ada Admin", email: "admin@storyweave.local", password: "storyweave-admin-e2e" };
let adminToken: string | null = null;

/** The fake mail API that scripts/e2e-server.mjs runs next to the app (the real HttpMailer posts there). */
export const MAIL_API = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4319) + 1}`;

/** The newest verification link mailed to `email`, as the writer would find it in their inbox. */
export async function latestVerifyLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(async () => {
      const res = await request.get(`${MAIL_API}/messages?to=${encodeURIComponent(email)}`);
      link = (await res.json()).verifyLink;
      return link;
    })
    .toContain("/auth/verify-email?token=");
  return link as unknown as string;
}

/**
 * The e2e server makes admin@storyweave.local an admin (ADMIN_EMAILS) once its address is verified:
 * registered on first use, verified with the link from the fake mail API, then signed in.
 */
export async function adminApiToken(request: APIRequestContext): Promise<string> {
  if (adminToken) return adminToken;
  // The request context may carry a session cookie already: a cookie request needs our Origin (CSRF).
  const headers = { Origin: baseURL };
  const registered = await request.post("/api/auth/register", { data: ADMIN, headers });
  let res = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password }, headers });
  expect(res.ok(), await res.text()).toBe(true);
  if (!(await res.json()).user.isEmailVerified) {
    expect(registered.status(), "the admin registers (and is mailed its link) on first use").toBe(201);
    const token = new URL(await latestVerifyLink(request, ADMIN.email)).searchParams.get("token");
    const verified = await request.post("/api/auth/verify-email", { data: { token }, headers });
    expect(verified.status(), await verified.text()).toBe(200);
    res = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password }, headers });
  }
  const body = await res.json();
  expect(body.user.role).toBe("admin");
  adminToken = body.token as string;
  return adminToken;
}

/** Grants Premium the way an admin does (POST /api/admin/users/{id}/premium). */
export async function makePremium(request: APIRequestContext, user: TestUser) {
  const token = await adminApiToken(request);
  const me = await request.get("/api/auth/me", { headers: { Authorization: `Bearer ${user.token}` } });
  const { id } = await me.json();
  const res = await request.post(`/api/admin/users/${id}/premium`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { premium: true },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Calls the JSON API as `user` (test setup that is not what the test is about). */
export async function apiAs<T = any>(request: APIRequestContext, user: TestUser, method: string, path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(path, { method, headers: { Authorization: `Bearer ${user.token}` }, data });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/**
 * Signs in through the login form, as a writer would: for the specs about signing in. Others use `signIn`
 * or `login`, which skip the form's page loads.
 */
export async function loginThroughForm(page: Page, user: Pick<TestUser, "email" | "password">) {
  await page.goto("/auth/login");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/timeline$/);
}

/**
 * Signs the page's browser in through the real API (POST /api/auth/login) without loading a page: the
 * context's request shares its cookies, so the session cookie it answers with is the browser's. For a test
 * that opens where it works right after (openTimeline, page.goto).
 */
export async function signIn(page: Page, user: Pick<TestUser, "email" | "password">) {
  // A request that carries a session cookie needs our Origin (CSRF); a fresh context has none, but one may.
  const res = await page.context().request.post("/api/auth/login", {
    data: { email: user.email, password: user.password },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs in (through the API, as `signIn`) and opens /timeline, hydrated: where the login form lands. */
export async function login(page: Page, user: Pick<TestUser, "email" | "password">) {
  await signIn(page, user);
  await openHome(page);
}

/** Opens /timeline (the timelines page a signed-in writer lands on, as the `writer` fixture's page is), hydrated. */
export async function openHome(page: Page) {
  await page.goto("/timeline");
  await expect(page).toHaveURL(/\/timeline$/);
  await waitForHydration(page);
}

/** The root sets html[data-hydrated] once React has hydrated; clicks before that would be lost. */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export async function expectNoSeriousA11yViolations(page: Page) {
  // Toasts are left out: while one slides over another (one visible at a time) or over the verify banner,
  // axe measures their text against what is beneath them mid-animation. Their colours are fixed classes
  // (ink and stone-700 on white, red-900 on red-50), well above 4.5:1.
  // label-content-name-mismatch is an experimental axe rule (off by default): on, so a control's name keeps its visible text.
  const results = await new AxeBuilder({ page })
    .exclude("[data-sonner-toaster]")
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/** The signed-up writer a test works as (`writer`): its account, its signed-in page and the JSON API as it. */
export type Writer = TestUser & {
  /** The test's page, signed in as this writer (no page loaded yet). */
  page: Page;
  request: APIRequestContext;
  /** Calls the JSON API as this writer (setup that is not what the test is about), as `apiAs`. */
  api: <T = any>(method: string, path: string, data?: unknown) => Promise<T>;
};

/** Who `writer` is: set for a file or a describe with `test.use({ writerOptions: { … } })`. */
export type WriterOptions = { name: string; premium: boolean };

type Fixtures = {
  consoleErrors: string[];
  writerOptions: WriterOptions;
  /** The title of `timeline`: `test.use({ timelineTitle: "…" })`. */
  timelineTitle: string;
  /** The description of `timeline` (none unless set): `test.use({ timelineDescription: "…" })`. */
  timelineDescription: string | undefined;
  writer: Writer;
  timeline: Timeline;
};

/**
 * The specs' fixtures (as epic-stack's): console.error in the page is a failure; `writer` is a fresh verified
 * account (Premium when asked) with the test's page signed in, its account deleted after the test; `timeline` is
 * a timeline that writer owns, created through the API and deleted after the test.
 */
export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        // The browser logs every 4xx answer (validation, 404 page) and the AI upstream 502/503 answers;
        // those are expected, not errors.
        if (msg.type() === "error" && !/Failed to load resource: the server responded with a status of (4\d\d|502|503)/.test(msg.text())) {
          // A failed load names what failed to load.
          const at = msg.text().startsWith("Failed to load resource") ? ` (${msg.location().url})` : "";
          errors.push(msg.text() + at);
        }
      });
      page.on("pageerror", (err) => errors.push(String(err)));
      await use(errors);
      expect(errors, "console errors during the test").toEqual([]);
    },
    { auto: true },
  ],
  writerOptions: [{ name: "Test Writer", premium: false }, { option: true }],
  timelineTitle: ["My Story", { option: true }],
  timelineDescription: [undefined, { option: true }],
  writer: async ({ page, request, writerOptions }, use) => {
    const user = await createUser(request, { name: writerOptions.name });
    if (writerOptions.premium) await makePremium(request, user);
    await signIn(page, user);
    await use({ ...user, page, request, api: (method, path, data) => apiAs(request, user, method, path, data) });
    // The page goes first: what the deletion tells an open screen is not part of the test.
    await page.close();
    const res = await request.delete("/api/account", {
      headers: { Authorization: `Bearer ${user.token}` },
      data: { password: user.password },
    });
    // 401: the test itself ended the account or its session.
    expect([200, 401], `deleting the writer's account: ${await res.text()}`).toContain(res.status());
  },
  timeline: async ({ writer, timelineTitle, timelineDescription }, use) => {
    const timeline = await writer.api<Timeline>("POST", "/api/timelines", { title: timelineTitle, description: timelineDescription });
    await use(timeline);
    await writer.page.close();
    const res = await writer.request.delete(`/api/timelines/${timeline.id}`, { headers: { Authorization: `Bearer ${writer.token}` } });
    // 404: the test deleted it already.
    expect([200, 404], `deleting the timeline: ${await res.text()}`).toContain(res.status());
  },
});

export { expect };

/** A co-writing editor's text as the writer reads it (the other writers' caret labels left out). */
export const docText = (content: Locator) =>
  content.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const caret of Array.from(copy.querySelectorAll(".collaboration-carets__caret"))) caret.remove();
    return (copy.textContent ?? "").trim();
  });

/** The toast that says `text` (sonner stacks several; the first match). */
export const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();

/** The titles of the timeline's event cards, in screen order. */
export const cardTitles = (page: Page) => page.getByTestId("event-card").locator("h3");

/** The event card whose title (h3) contains `title`. */
export const card = (page: Page, title: string) => page.getByTestId("event-card").filter({ has: page.locator("h3", { hasText: title }) });

/** The event card whose heading is named `title` (accessible name). */
export const cardWithHeading = (page: Page, title: string) =>
  page.getByTestId("event-card").filter({ has: page.getByRole("heading", { name: title }) });

/** Opens a timeline (its id, or a path such as a shared link's) and waits until hydrated and connected to the live room. */
export async function openTimeline(page: Page, idOrPath: number | string) {
  await page.goto(typeof idOrPath === "number" ? `/timeline/${idOrPath}` : idOrPath);
  await waitForHydration(page);
  // The room connects right after hydration and re-renders the header; let that settle before acting.
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
}

/**
 * A second writer in their own browser context, signed in: on a timeline when given (its id, or a path as
 * openTimeline takes), else on /timeline.
 */
export async function writerPage(browser: Browser, user: Pick<TestUser, "email" | "password">, timeline?: number | string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (timeline === undefined) await login(page, user);
  else {
    await signIn(page, user);
    await openTimeline(page, timeline);
  }
  return { page, context };
}

/** The timeline's layout menu button: 'Layout: Vertical' names the current layout. */
export const layoutMenu = (page: Page) => page.getByRole("button", { name: /^Layout: / });

/** Picks a layout ('Grid', 'Lanes', 'Map'…) in the timeline's layout menu; the button then names it. */
export async function chooseLayout(page: Page, name: string) {
  await layoutMenu(page).click();
  await page.getByRole("menuitemradio", { name, exact: true }).click();
  await expect(layoutMenu(page)).toHaveAccessibleName(`Layout: ${name}`);
}

/** Opens one of the timeline's panels ('Comments', 'Activity', 'Plotlines', 'Calendar', 'Reader links') from its Panels menu. */
export async function openPanel(page: Page, name: string | RegExp) {
  await page.getByRole("button", { name: "Panels", exact: true }).click();
  await page.getByRole("menuitem", { name: typeof name === "string" ? new RegExp(`^${name}`) : name }).click();
}
