import type { D1Migration } from "@cloudflare/vitest-plugin";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS?: D1Migration[];
      /** The fake mail API (tests/fakes/mail-server.mjs) the suite runs; tests that read mail point MAILER=http at it. */
      FAKE_MAIL_URL?: string;
      /** The fake Anthropic Messages API (tests/fakes/anthropic-server.mjs), without /v1. */
      FAKE_ANTHROPIC_URL?: string;
    }
  }
}
