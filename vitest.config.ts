import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { startFakeMailServer } from "./tests/fakes/mail-server.mjs";
import { fakeOAuthVars, startFakeOAuthServer } from "./tests/fakes/oauth-server.mjs";
import { startFakeAnthropicServer } from "./tests/fakes/anthropic-server.mjs";
import { startFakeOpenAIServer } from "./tests/fakes/openai-server.mjs";
import { startFakeStripeServer } from "./tests/fakes/stripe-server.mjs";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // Fake third parties on free loopback ports, alive as long as this vitest process.
  const openai = await startFakeOpenAIServer(0);
  openai.server.unref();
  const anthropic = await startFakeAnthropicServer(0);
  anthropic.server.unref();
  const stripe = await startFakeStripeServer(0);
  stripe.server.unref();
  const oauth = await startFakeOAuthServer(0);
  oauth.server.unref();
  // The suite mails through the log (MAILER=log); a test that reads mail back points MAILER=http here.
  const mail = await startFakeMailServer(0);
  mail.unref();
  const mailAddress = mail.address();
  const fakeMailUrl = `http://127.0.0.1:${typeof mailAddress === "object" && mailAddress ? mailAddress.port : 0}`;
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_SECRET: "test-secret-not-for-production-0123456789",
            ENVIRONMENT: "development",
            // Lower than the loose default (100) so the per-address lockout test stays quick.
            LOGIN_MAX_FAILURES_PER_CLIENT: "20",
            ADMIN_EMAILS: "admin@example.test",
            OPENAI_BASE_URL: openai.url,
            AI_TIMEOUT_MS: "3000",
            // Low so the premium per-minute limit test stays quick (wrangler.toml: 20).
            RATE_AI_PREMIUM_PER_MINUTE: "6",
            STRIPE_API_BASE: stripe.url,
            ...fakeOAuthVars(oauth.url),
            FAKE_MAIL_URL: fakeMailUrl,
            // Bring your own model (writer-ai.test.ts): the fake Anthropic Messages API.
            FAKE_ANTHROPIC_URL: anthropic.url,
          },
        },
      }),
    ],
    // Spreadsheet fixtures are imported as bytes (`?inline`: a base64 data URL), exactly as checked in.
    assetsInclude: ["**/tests/fixtures/spreadsheets/**", "**/tests/fixtures/import/**"],
    resolve: {
      alias: {
        "virtual:react-router/server-build": path.join(import.meta.dirname, "tests/integration/server-build-stub.ts"),
        "~": path.join(import.meta.dirname, "app"),
      },
    },
    test: {
      include: ["tests/integration/**/*.test.ts", "worker/**/*.test.ts", "durable-objects/**/*.test.ts", "db/**/*.test.ts"],
      setupFiles: ["./tests/integration/apply-migrations.ts"],
      fsModuleCache: false,
      // One workerd runtime per worker, reused across files (a runtime per file spent most of the suite's time
      // starting up and loading modules); tests/integration/apply-migrations.ts empties the tables per file.
      isolate: false,
      testTimeout: 20_000,
    },
  };
});
