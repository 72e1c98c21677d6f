// Serves the production build for the browser suite: fresh local state, migrations applied,
// vars pointing at the fake third-party servers that tests/e2e/global-setup starts on 127.0.0.1.
import { rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { startFakeMailServer } from "../tests/fakes/mail-server.mjs";
import { fakeOAuthVars, startFakeOAuthServer } from "../tests/fakes/oauth-server.mjs";
import { startFakeOpenAIServer } from "../tests/fakes/openai-server.mjs";
import { startFakeStripeServer } from "../tests/fakes/stripe-server.mjs";
import { offlineEnv, run } from "./lib.mjs";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);
// Fake third parties, each on its own loopback port next to the app's.
const MAIL_PORT = E2E_PORT + 1;
export const OPENAI_PORT = E2E_PORT + 2;
export const STRIPE_PORT = E2E_PORT + 3;
// The fake OAuth provider; only GitHub is configured, so the Google button must stay hidden.
export const OAUTH_PORT = E2E_PORT + 4;
const vars = {
  APP_SECRET: "e2e-secret-0123456789abcdef0123456789",
  ADMIN_EMAILS: "admin@storyweave.local",
  MAILER: "http",
  MAIL_API_URL: `http://127.0.0.1:${MAIL_PORT}/send`,
  MAIL_API_KEY: "fake-mail-key",
  OPENAI_BASE_URL: `http://127.0.0.1:${OPENAI_PORT}/v1`,
  // Local development: a writer's own AI model may be on a loopback address (the fakes), as a local model would.
  ENVIRONMENT: "development",
  STRIPE_API_BASE: `http://127.0.0.1:${STRIPE_PORT}`,
  ...fakeOAuthVars(`http://127.0.0.1:${OAUTH_PORT}`, ["github"]),
  ...(process.env.E2E_EXTRA_VARS ? JSON.parse(process.env.E2E_EXTRA_VARS) : {}),
};
// The default port uses build/ and .wrangler/e2e-state; any other port gets its own, so two suites
// (or a suite and a benchmark) can run side by side.
const suffix = E2E_PORT === 4319 ? "" : `-${E2E_PORT}`;
export const STATE_DIR = `.wrangler/e2e-state${suffix}`;
const BUILD_DIR = suffix ? `build-e2e${suffix}` : "build";
const env = {
  ...offlineEnv,
  STORYWEAVE_E2E_VARS: JSON.stringify(vars),
  STORYWEAVE_STATE_DIR: STATE_DIR,
  STORYWEAVE_BUILD_DIR: BUILD_DIR,
};

await startFakeMailServer(MAIL_PORT);
await startFakeOpenAIServer(OPENAI_PORT);
await startFakeStripeServer(STRIPE_PORT);
await startFakeOAuthServer(OAUTH_PORT);
// STORYWEAVE_KEEP_STATE=1: the same build on the same local state, as a server restarted after a crash
// (scripts/test-faults.mjs); otherwise a fresh build on fresh state.
if (process.env.STORYWEAVE_KEEP_STATE !== "1") {
  rmSync(STATE_DIR, { recursive: true, force: true });
  run("react-router", ["build"], { env, stdio: ["ignore", "ignore", "inherit"] });
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE_DIR], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
const server = spawn("vite", ["preview", "--host", "127.0.0.1", "--port", String(E2E_PORT), "--strictPort"], {
  env,
  stdio: "inherit",
});
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
