// `npm test`: type check, lint, integration tests in workerd, end-to-end tests in Chromium.
// Ends with the plain line "N passed, N failed" totalling every suite (CI reads it).
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { offlineEnv, run } from "./lib.mjs";

const only = process.argv.slice(2); // e.g. `npm test -- int e2e faults`
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

// Integration (workerd) and end-to-end (Chromium) suites run side by side: most of the browser suite's time is
// spent waiting on pages, so together they take about as long as the browser suite alone. TEST_SERIAL=1 runs
// them one after the other. The browser suite's output is kept in e2e.log (not under test-results/, which
// Playwright empties when it starts) and printed when it ends.
const e2ePort = Number(process.env.E2E_PORT ?? 4319);
const e2eResults = e2ePort === 4319 ? "test-results/e2e-results.json" : `test-results/port-${e2ePort}/e2e-results.json`;
// The browser suite's production build (scripts/e2e-server.mjs), which the faults suite copies rather than building
// it again once it is complete (e2e-server.mjs marks it so); the mark of an earlier run goes first.
const e2eBuild = e2ePort === 4319 ? "build" : `build-e2e-${e2ePort}`;
rmSync(`${e2eBuild}/.e2e-build.json`, { force: true });

function e2eCounts(status) {
  const report = readJson(e2eResults);
  if (!report?.stats) return { passed: 0, failed: 1 };
  const { expected = 0, unexpected = 0, flaky = 0 } = report.stats;
  const extra = status !== 0 && unexpected === 0 ? 1 : 0;
  if (flaky > 0) console.log(`\n${flaky} browser test(s) passed only on their retry (flaky): see the report above.`);
  return { passed: expected + flaky, failed: unexpected + extra };
}

function startE2e() {
  // A fresh machine has no browser yet: get Debian's Chromium (bounded, never hangs) or stop with the command.
  if (run("bash", ["scripts/ensure-chromium.sh"], { allowFailure: true }).status !== 0) return null;
  rmSync(e2eResults, { force: true });
  const log = openSync("e2e.log", "w");
  const child = spawn("playwright", ["test"], { stdio: ["ignore", log, log], env: offlineEnv });
  const start = Date.now();
  return new Promise((resolve) =>
    child.on("close", (code) => {
      closeSync(log);
      resolve({ code: code ?? 1, seconds: (Date.now() - start) / 1000 });
    }),
  );
}

function intSuite() {
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
}

// The built product killed and restarted under real Yjs writers (scripts/test-faults.mjs), on ports of its own
// (4390-4394). With the browser suite it runs once the integration suite is done, while the browser suite goes on.
function faultSuite() {
  // Its browser writer needs Chromium too.
  if (run("bash", ["scripts/ensure-chromium.sh"], { allowFailure: true }).status !== 0) return { passed: 0, failed: 1 };
  const res = run("node", ["scripts/test-faults.mjs"], {
    allowFailure: true,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...offlineEnv, STORYWEAVE_BUILD_FROM: e2eBuild },
  });
  const out = res.stdout?.toString() ?? "";
  process.stdout.write(out);
  const m = out.match(/(\d+) passed, (\d+) failed\s*$/);
  if (!m) return { passed: 0, failed: 1 };
  return { passed: Number(m[1]), failed: Number(m[2]) + (res.status !== 0 && Number(m[2]) === 0 ? 1 : 0) };
}

const together = want("int") && want("e2e") && process.env.TEST_SERIAL !== "1";
const e2eRun = together ? startE2e() : null;
if (together) console.log("\n(the browser suite runs alongside; its output follows the integration suite's)");
step("int", intSuite);
if (together) step("faults", faultSuite);
if (together) {
  const done = e2eRun ? await e2eRun : null;
  console.log("\n━━ e2e ━━");
  if (existsSync("e2e.log")) process.stdout.write(readFileSync("e2e.log"));
  const result = done ? e2eCounts(done.code) : { passed: 0, failed: 1 };
  passed += result.passed;
  failed += result.failed;
  summary.push(`e2e: ${result.passed} passed, ${result.failed} failed (${done ? done.seconds.toFixed(1) : 0} s, alongside int)`);
} else {
  step("e2e", () => {
    if (run("bash", ["scripts/ensure-chromium.sh"], { allowFailure: true }).status !== 0) return { passed: 0, failed: 1 };
    rmSync(e2eResults, { force: true });
    return e2eCounts(run("playwright", ["test"], { allowFailure: true }).status);
  });
}

if (!together) step("faults", faultSuite);

console.log(`\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || (passed === 0 && existsSync("package.json")) ? 1 : 0);
