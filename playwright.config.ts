import { defineConfig, devices } from "@playwright/test";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

const port = Number(process.env.E2E_PORT ?? 4319);
export const baseURL = `http://127.0.0.1:${port}`;
// Runs on another port (side by side with the default one) keep their own results.
const results = port === 4319 ? "test-results" : `test-results/port-${port}`;

// Specs that change or read settings shared by every writer (see `projects`).
const siteSettingsSpecs = [
  "**/ai.spec.ts",
  "**/billing.spec.ts",
  "**/own-ai-model.spec.ts",
  "**/templates.spec.ts",
  "**/writing-ai-stream.spec.ts",
];

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: results,
  // Two spec files at a time (a file's tests stay in order in one worker, and the specs that change what every writer
  // sees run one at a time in their own project, `site-settings`); E2E_WORKERS=1 runs one at a time (docs/testing.md).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS || 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: `${results}/e2e-results.json` }]],
  use: {
    baseURL,
    // The installable app's service worker stays out of the suite (its caches would change what tests see);
    // tests/e2e/offline.spec.ts allows it.
    serviceWorkers: "block",
    // Story dates are in words in the browser's language: English unless a test asks for another.
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
      ],
    },
  },
  globalSetup: "./tests/e2e/global-setup.ts",
  projects: [
    // The site-wide settings: ai.spec.ts starts from no AI key and saves it, templates and writing-ai-stream save it
    // too, billing.spec.ts starts from no payment keys and saves them. One worker, in file order, beside the rest.
    { name: "site-settings", testMatch: siteSettingsSpecs, workers: 1, use: { ...devices["Desktop Chrome"] } },
    { name: "chromium", testIgnore: siteSettingsSpecs, use: { ...devices["Desktop Chrome"] } },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${baseURL}/auth/login`,
    // The production build runs first: about a minute on an idle machine, over three under a loaded one's suites.
    timeout: 480_000,
    reuseExistingServer: false,
    stdout: process.env.E2E_SERVER_LOG ? "pipe" : "ignore",
    stderr: "pipe",
  },
});
