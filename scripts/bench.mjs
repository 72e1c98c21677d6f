// `npm run bench`: the timeline detail at 1,000 events on the production build (issue 3's figures).
// Reports SSR time and D1 statements per page load, time to interactive in Chromium, the events API
// beside /api/auth/me, the move of the last event to the top, and the page's client JS (gzipped).
import { mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { api, d1Counts, kb, ms, percentile, registerWriter, startAppServer } from "./bench-lib.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 4440);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const RUNS = 30;

const { base, stop } = await startAppServer(PORT, { SERVER_TIMING: "1" });
const results = {};
try {
  const writer = await registerWriter(base, "Bench Writer");
  const { json: timeline } = await api(base, writer.token, "POST", "/api/timelines", {
    title: "A Thousand Scenes",
    description: "Benchmark timeline",
  });
  console.log(`creating ${EVENTS} events…`);
  const body = (i) => ({ title: `Scene ${i + 1}`, content: `Scene ${i + 1}: ${"the lamp gutters and the tide turns. ".repeat(4)}` });
  for (let i = 0; i < EVENTS; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, EVENTS - i) }, (_, k) =>
        api(base, writer.token, "POST", `/api/timelines/${timeline.id}/events`, body(i + k)),
      ),
    );
  }

  // 1. Server render of /timeline/{id} (cookie session, as a browser sends it).
  const page = `/timeline/${timeline.id}`;
  const ssr = [];
  let pageCounts = null;
  let htmlBytes = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    const res = await fetch(base + page, { headers: { Cookie: writer.cookie } });
    const html = await res.text();
    const took = performance.now() - start;
    if (res.status !== 200) throw new Error(`GET ${page} → ${res.status}`);
    if (i >= 3) ssr.push(took);
    pageCounts = d1Counts(res);
    htmlBytes = Buffer.byteLength(html);
  }
  results.ssr = { p50: percentile(ssr, 50), p95: percentile(ssr, 95), htmlBytes, d1: pageCounts };

  // 2. The events API at 1,000 events beside /api/auth/me, interleaved in the same run.
  const eventsTimes = [];
  const meTimes = [];
  let eventsCounts = null;
  let meCounts = null;
  let eventsBytes = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    let start = performance.now();
    const ev = await api(base, writer.token, "GET", `/api/timelines/${timeline.id}/events`);
    if (i >= 3) eventsTimes.push(performance.now() - start);
    eventsCounts = d1Counts(ev.res);
    eventsBytes = ev.bytes;
    if (ev.json.length !== EVENTS) throw new Error(`expected ${EVENTS} events, got ${ev.json.length}`);
    start = performance.now();
    const me = await api(base, writer.token, "GET", "/api/auth/me");
    if (i >= 3) meTimes.push(performance.now() - start);
    meCounts = d1Counts(me.res);
  }
  results.eventsApi = { p50: percentile(eventsTimes, 50), p95: percentile(eventsTimes, 95), bytes: eventsBytes, d1: eventsCounts };
  results.meApi = { p50: percentile(meTimes, 50), p95: percentile(meTimes, 95), d1: meCounts };

  // 3. Move the last event to the top: one batched write; positions stay 0..n-1.
  const { json: before } = await api(base, writer.token, "GET", `/api/timelines/${timeline.id}/events`);
  const last = before[before.length - 1];
  const start = performance.now();
  const moved = await api(base, writer.token, "PATCH", `/api/events/${last.id}`, { position: 0 });
  results.move = { ms: performance.now() - start, d1: d1Counts(moved.res) };
  const { json: after } = await api(base, writer.token, "GET", `/api/timelines/${timeline.id}/events`);
  const positionsOk = after.every((e, i) => e.position === i) && after[0].id === last.id;
  if (!positionsOk) throw new Error("positions broken after the move");
  results.move.positionsOk = positionsOk;

  // 4. Chromium: time until the page is hydrated (interactive) and the client JS it loads.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  const context = await browser.newContext();
  await context.addCookies([{ name: "sw_session", value: writer.token, url: base }]);
  const tti = [];
  let js = [];
  for (let i = 0; i < 6; i++) {
    const tab = await context.newPage();
    const scripts = [];
    tab.on("response", async (res) => {
      if (res.request().resourceType() === "script" && res.url().startsWith(base)) scripts.push(res);
    });
    const begin = Date.now();
    await tab.goto(base + page, { waitUntil: "commit" });
    await tab.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    await tab.getByText(`Scene ${EVENTS}`, { exact: true }).first().waitFor();
    if (i > 0) tti.push(Date.now() - begin);
    await tab.waitForLoadState("networkidle");
    if (i === 0) {
      js = await Promise.all(
        scripts.map(async (res) => {
          const buf = await res.body();
          return { url: res.url().replace(base, ""), raw: buf.length, gzip: gzipSync(buf).length };
        }),
      );
    }
    await tab.close();
  }
  await browser.close();
  const unique = [...new Map(js.map((f) => [f.url, f])).values()];
  results.interactive = { p50: percentile(tti, 50), max: Math.max(...tti) };
  results.clientJs = {
    files: unique.length,
    raw: unique.reduce((a, f) => a + f.raw, 0),
    gzip: unique.reduce((a, f) => a + f.gzip, 0),
    largest: unique.sort((a, b) => b.gzip - a.gzip).slice(0, 5),
  };
} finally {
  stop();
}

const line = (label, value) => console.log(`${label.padEnd(46)} ${value}`);
const d1 = (c) => (c ? `${c.statements} statements, ${c.roundTrips} round trips` : "n/a");
console.log(`\nStoryWeave bench — timeline with ${EVENTS} events, production build on ${base}\n`);
line("GET /timeline/{id} server render p50 / p95", `${ms(results.ssr.p50)} / ${ms(results.ssr.p95)} (${kb(results.ssr.htmlBytes)} HTML)`);
line("  D1 per page load", d1(results.ssr.d1));
line("Chromium: load → hydrated + last card p50 / max", `${ms(results.interactive.p50)} / ${ms(results.interactive.max)}`);
line(
  `GET /api/timelines/{id}/events p50 / p95`,
  `${ms(results.eventsApi.p50)} / ${ms(results.eventsApi.p95)} (${kb(results.eventsApi.bytes)})`,
);
line("  D1", d1(results.eventsApi.d1));
line("GET /api/auth/me p50 / p95 (same run)", `${ms(results.meApi.p50)} / ${ms(results.meApi.p95)}`);
line("  D1", d1(results.meApi.d1));
line("PATCH last event → position 0", `${ms(results.move.ms)}; ${d1(results.move.d1)}; positions 0..n-1: ${results.move.positionsOk}`);
line(
  "Client JS for /timeline/{id} (gzip / raw)",
  `${kb(results.clientJs.gzip)} / ${kb(results.clientJs.raw)} in ${results.clientJs.files} files (target ≤ 150 KB gzip)`,
);
for (const f of results.clientJs.largest) line(`    ${f.url}`, kb(f.gzip));
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/bench.json", JSON.stringify(results, null, 2));
console.log("\nwritten to test-results/bench.json");
