import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);

// The test files share one runtime (`isolate: false` in vitest.config.ts, many times faster than a runtime per
// file), so each file starts from empty tables, as on a fresh database: no rows, rate-limit counts or settings
// left by the file before.
const { results } = await env.DB.prepare(
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
).all<{ name: string }>();
await env.DB.batch([
  env.DB.prepare("PRAGMA defer_foreign_keys = on"),
  ...results.map(({ name }) => env.DB.prepare(`DELETE FROM "${name}"`)),
]);
