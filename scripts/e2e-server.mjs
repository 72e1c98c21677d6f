// Serves the production build for the browser suite: fresh local state, migrations applied,
// vars pointing at the fake third-party servers that tests/e2e/global-setup starts on 127.0.0.1.
import { rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { startFakeMailServer } from "../tests/fakes/mail-server.mjs";
import { offlineEnv, run } from "./lib.mjs";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);
const MAIL_PORT = E2E_PORT + 1;
const vars = {
  APP_SECRET: "e2e-secret-0123456789abcdef0123456789",
  ADMIN_EMAILS: "admin@storyweave.local",
  MAILER: "http",
  MAIL_API_URL: `http://127.0.0.1:${MAIL_PORT}/send`,
  MAIL_API_KEY: "fake-mail-key",
  ...(process.env.E2E_EXTRA_VARS ? JSON.parse(process.env.E2E_EXTRA_VARS) : {}),
};
const env = { ...offlineEnv, STORYWEAVE_E2E_VARS: JSON.stringify(vars) };

await startFakeMailServer(MAIL_PORT);
rmSync(".wrangler/e2e-state", { recursive: true, force: true });
run("react-router", ["build"], { env, stdio: ["ignore", "ignore", "inherit"] });
run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", ".wrangler/e2e-state"], {
  env,
  stdio: ["ignore", "ignore", "inherit"],
});
const server = spawn("vite", ["preview", "--host", "127.0.0.1", "--port", String(E2E_PORT), "--strictPort"], {
  env,
  stdio: "inherit",
});
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
