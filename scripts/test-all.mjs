// `npm test`: type check, lint, integration tests in workerd, end-to-end tests in Chromium.
// Ends with the plain line "N passed, N failed" totalling every suite (CI reads it).
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { run } from "./lib.mjs";

const only = process.argv.slice(2); // e.g. `npm test -- int e2e`
const want = (name) => only.length === 0 || only.includes(name);
let passed = 0;
let failed = 0;
const summary = [];

function step(name, fn) {
  if (!want(name)) return;
  console.log(`\n━━ ${name} ━━`);
  const start = Date.now();
  const result = fn();
  passed += result.passed;
  failed += result.failed;
  summary.push(`${name}: ${result.passed} passed, ${result.failed} failed (${((Date.now() - start) / 1000).toFixed(1)} s)`);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

mkdirSync("test-results", { recursive: true });

step("typecheck", () => {
  run("react-router", ["typegen"], { stdio: ["ignore", "ignore", "inherit"] });
  const app = run("tsc", ["--noEmit", "-p", "tsconfig.json"], { allowFailure: true });
  const node = run("tsc", ["--noEmit", "-p", "tsconfig.node.json"], { allowFailure: true });
  const ok = (app.status === 0) + (node.status === 0);
  return { passed: ok, failed: 2 - ok };
});

// Lint and formatting (biome check = the linter plus "is every file formatted"), and no import circles.
step("lint", () => {
  const res = run("biome", ["check"], { allowFailure: true });
  const cycles = run("node", ["scripts/lint-cycles.mjs"], { allowFailure: true });
  const ok = (res.status === 0) + (cycles.status === 0);
  return { passed: ok, failed: 2 - ok };
});

step("int", () => {
  rmSync("test-results/int-results.json", { force: true });
  const res = run(
    "vitest",
    ["run", "--config", "vitest.config.ts", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/int-results.json"],
    { allowFailure: true },
  );
  const report = readJson("test-results/int-results.json");
  if (!report) return { passed: 0, failed: 1 };
  const failedCount = report.numFailedTests + (res.status !== 0 && report.numFailedTests === 0 ? 1 : 0);
  return { passed: report.numPassedTests, failed: failedCount };
});

step("e2e", () => {
  // A fresh machine has no browser yet: get Debian's Chromium (bounded, never hangs) or stop with the command.
  if (run("bash", ["scripts/ensure-chromium.sh"], { allowFailure: true }).status !== 0) return { passed: 0, failed: 1 };
  // playwright.config.ts keeps each E2E_PORT's results apart (parallel runs on one machine).
  const port = Number(process.env.E2E_PORT ?? 4319);
  const results = port === 4319 ? "test-results/e2e-results.json" : `test-results/port-${port}/e2e-results.json`;
  rmSync(results, { force: true });
  const res = run("playwright", ["test"], { allowFailure: true });
  const report = readJson(results);
  if (!report?.stats) return { passed: 0, failed: 1 };
  const { expected = 0, unexpected = 0, flaky = 0 } = report.stats;
  const extra = res.status !== 0 && unexpected === 0 ? 1 : 0;
  return { passed: expected + flaky, failed: unexpected + extra };
});

console.log(`\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || (passed === 0 && existsSync("package.json")) ? 1 : 0);
