// Serves the production build for the browser suite: fresh local state, migrations applied,
// vars pointing at the fake third-party servers it starts on 127.0.0.1.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

// Written into a build directory once its build is complete: the names of the vars it was built with.
const BUILT = ".e2e-build.json";

/**
 * STORYWEAVE_BUILD_FROM=<another port's build directory>: a copy of that finished build (the same sources) instead of
 * building again. Only the vars differ (the fakes' ports), and they are the output wrangler.json's `vars`, rewritten
 * here to this port's. Anything else (no finished build there, other var names) builds as usual.
 */
function copyBuild(from) {
  if (!from || from === BUILD_DIR || !existsSync(`${from}/${BUILT}`)) return false;
  if (readFileSync(`${from}/${BUILT}`, "utf8") !== JSON.stringify(Object.keys(vars).sort())) return false;
  rmSync(BUILD_DIR, { recursive: true, force: true });
  cpSync(from, BUILD_DIR, { recursive: true });
  const outputConfig = `${BUILD_DIR}/server/wrangler.json`;
  const config = JSON.parse(readFileSync(outputConfig, "utf8"));
  config.vars = { ...config.vars, ...vars };
  writeFileSync(outputConfig, JSON.stringify(config));
  return true;
}

await startFakeMailServer(MAIL_PORT);
await startFakeOpenAIServer(OPENAI_PORT);
await startFakeStripeServer(STRIPE_PORT);
await startFakeOAuthServer(OAUTH_PORT);
// STORYWEAVE_KEEP_STATE=1: the same build on the same local state, as a server restarted after a crash
// (scripts/test-faults.mjs); otherwise a fresh build on fresh state.
if (process.env.STORYWEAVE_KEEP_STATE !== "1") {
  rmSync(STATE_DIR, { recursive: true, force: true });
  rmSync(`${BUILD_DIR}/${BUILT}`, { force: true });
  if (!copyBuild(process.env.STORYWEAVE_BUILD_FROM)) {
    run("react-router", ["build"], { env, stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(`${BUILD_DIR}/${BUILT}`, JSON.stringify(Object.keys(vars).sort()));
  }
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE_DIR], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
// `vite preview` serves the build that .wrangler/deploy/config.json names, which the last build of any port wrote:
// name this port's own.
mkdirSync(".wrangler/deploy", { recursive: true });
writeFileSync(
  ".wrangler/deploy/config.json",
  JSON.stringify({ configPath: `../../${BUILD_DIR}/server/wrangler.json`, auxiliaryWorkers: [] }),
);
const server = spawn("vite", ["preview", "--host", "127.0.0.1", "--port", String(E2E_PORT), "--strictPort"], {
  env,
  stdio: "inherit",
});
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
