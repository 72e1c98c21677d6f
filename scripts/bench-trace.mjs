// `npm run bench:trace`: where the main thread of /timeline/{id} goes while it loads, on the production build with
// source maps (BUILD_SOURCEMAP=1), in Chromium with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate, as
// Lighthouse mobile assumes) behind the bench's gzip proxy. For a 30-event and a 1,000-event timeline it records a
// Chromium trace (devtools.timeline + V8's sampling profiler) from navigation until the page is hydrated, the network
// is idle and 3 s more have passed, then prints:
//   - every long task (> 50 ms) after navigation start: when, how long, and what ran in it (script evaluation by
//     file, timers, message-channel tasks (React's scheduler), parsing, style and layout);
//   - the blocking time observed (the part of each long task beyond 50 ms, after the first contentful paint; what
//     Lighthouse's TBT sums, here measured at 4× instead of simulated);
//   - the long tasks' CPU samples by source module (self time, mapped through the source maps) and by the innermost
//     app/ function on the stack (what of ours ran, whatever library code it called).
//   - the longest task after the first paint by every function on its stacks (inclusive time): a render, a commit,
//     the mount effects, or a synchronous re-render inside them. TRACE_UNDER=<function> (e.g. performSyncWorkOnRoot)
//     keeps only the stacks through that function and lists our own frames on them (which components it rendered).
// TRACE_PAGE=manuscript traces /timeline/{id}/manuscript instead, on books of 800-word scenes (as the bench's
// manuscript row; TRACE_SIZES default "150").
// Env: BENCH_PORT (default 4460), TRACE_SIZES (default "30,1000"), TRACE_RUNS per size (default 2), TRACE_CPU (4),
// CHROMIUM_PATH, TRACE_KEEP=1 keeps the raw traces in test-results/trace-*.json (open them in DevTools' Performance
// panel). STORYWEAVE_BUILD_FROM=<build dir> reuses a finished build (scripts/e2e-server.mjs).
import { mkdirSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { decodeSegment } from "./source-map-vlq.mjs";

// Before bench-lib.mjs is loaded: its server environment is read from process.env when it is imported.
process.env.BUILD_SOURCEMAP ??= "1";
const { api, registerWriter, startAppServer } = await import("./bench-lib.mjs");
const { startGzipProxy } = await import("./bench-tools.mjs");
const { sceneText } = await import("./bench-manuscript.mjs");
const PORT = Number(process.env.BENCH_PORT ?? 4460);
const MANUSCRIPT = process.env.TRACE_PAGE === "manuscript";
const SIZES = (process.env.TRACE_SIZES ?? (MANUSCRIPT ? "150" : "30,1000")).split(",").map(Number);
const RUNS = Number(process.env.TRACE_RUNS ?? 2);
const CPU = Number(process.env.TRACE_CPU ?? 4);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "v8",
  "disabled-by-default-v8.cpu_profiler",
  "blink.user_timing",
  "loading",
  "toplevel",
];

// ---- source maps (decoded per generated line) ----
function decodeMap(map) {
  const lines = [];
  let src = 0;
  let srcLine = 0;
  let name = 0;
  for (const line of map.mappings.split(";")) {
    const segs = [];
    let col = 0;
    for (const seg of line ? line.split(",") : []) {
      const vals = decodeSegment(seg);
      col += vals[0];
      if (vals.length >= 4) {
        src += vals[1];
        srcLine += vals[2];
        // vals[3] is the source column: a line is enough to name the code.
        if (vals.length >= 5) name += vals[4];
        segs.push([col, src, srcLine, vals.length >= 5 ? name : -1]);
      } else segs.push([col, -1, 0, -1]);
    }
    lines.push(segs);
  }
  return { lines, sources: map.sources, names: map.names ?? [] };
}
const maps = new Map();
async function mapOf(url) {
  if (!maps.has(url)) {
    maps.set(
      url,
      fetch(`${url}.map`)
        .then((res) => (res.ok ? res.json() : null))
        .then((map) => (map ? decodeMap(map) : null))
        .catch(() => null),
    );
  }
  return maps.get(url);
}
const short = (source) =>
  source
    .replace(/^(\.\.\/)+/, "")
    .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, "npm:")
    .replace(/^npm:(@[^/]+\/[^/]+|[^/]+)\/.*$/, "npm:$1");
/** A V8 call frame (0-based line and column in the served file) → its source file and the original name. */
function original(decoded, line, column) {
  const segs = decoded?.lines[line];
  if (!segs?.length) return null;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid][0] <= column) lo = mid;
    else hi = mid - 1;
  }
  const seg = segs[lo];
  if (seg[1] < 0) return null;
  return { source: decoded.sources[seg[1]], line: seg[2] + 1, name: seg[3] >= 0 ? decoded.names[seg[3]] : null };
}

// ---- the trace ----
async function traceLoad(browser, cookie, base, path) {
  const context = await browser.newContext();
  await context.addCookies([{ name: "sw_session", value: cookie, url: base }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: CATEGORIES }, transferMode: "ReturnAsStream" });
  await page.goto(base + path, { waitUntil: "commit" });
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 120_000 });
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(3000);
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  const { stream } = await done;
  let text = "";
  for (;;) {
    const chunk = await cdp.send("IO.read", { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, "base64").toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send("IO.close", { handle: stream });
  await context.close();
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** Splits one trace into what the page's main thread did. */
async function analyse(events, pageUrl) {
  const threads = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  // The renderer main thread that navigated to the page.
  const nav = events.find(
    (e) => e.name === "navigationStart" && String(e.args?.data?.documentLoaderURL ?? "").startsWith(pageUrl.split("?")[0]),
  );
  // Now and then the trace misses the navigation (as Lighthouse's NO_NAVSTART): the caller loads the page again.
  if (!nav) return null;
  const main = (e) => e.pid === nav.pid && e.tid === nav.tid;
  const t0 = nav.ts;
  const at = (ts) => (ts - t0) / 1000;
  const fcp = events.find((e) => main(e) && e.name === "firstContentfulPaint" && e.ts >= t0);
  const lcps = events.filter((e) => main(e) && e.name === "largestContentfulPaint::Candidate" && e.ts >= t0);
  const shifts = events.filter((e) => main(e) && e.name === "LayoutShift" && e.ts >= t0 && !e.args?.data?.had_recent_input);
  const tasks = events.filter((e) => main(e) && e.ph === "X" && e.name === "RunTask" && e.ts >= t0);
  const long = tasks.filter((e) => e.dur > 50_000);
  const inside = (task) =>
    events.filter((e) => main(e) && e.ph === "X" && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e !== task);
  const describe = (e) => {
    const d = e.args?.data ?? {};
    const file = (d.url ?? "").replace(/^https?:\/\/[^/]+/, "").replace(/^\/assets\//, "") || null;
    switch (e.name) {
      case "EvaluateScript":
      case "v8.compileModule":
      case "v8.evaluateModule":
        return `${e.name} ${file ?? "(inline)"}`;
      case "FunctionCall":
        return `FunctionCall ${file ?? ""}${d.functionName ? ` ${d.functionName}` : ""}`.trim();
      case "TimerFire":
      case "FireAnimationFrame":
      case "FireIdleCallback":
      case "EventDispatch":
        return `${e.name}${d.type ? ` ${d.type}` : ""}`;
      default:
        return e.name;
    }
  };
  const TOP = new Set([
    "EvaluateScript",
    "v8.compileModule",
    "v8.evaluateModule",
    "FunctionCall",
    "TimerFire",
    "FireAnimationFrame",
    "FireIdleCallback",
    "EventDispatch",
    "ParseHTML",
    "ParseAuthorStyleSheet",
    "UpdateLayoutTree",
    "Layout",
    "PrePaint",
    "Paint",
    "Commit",
    "RunMicrotasks",
    "V8.GC_SCAVENGER",
    "MajorGC",
    "MinorGC",
    "v8.compile",
  ]);
  const taskRows = long.map((task) => {
    const parts = new Map();
    for (const e of inside(task)) {
      if (!TOP.has(e.name) && !e.name.startsWith("V8.GC")) continue;
      const key = describe(e);
      parts.set(key, (parts.get(key) ?? 0) + e.dur / 1000);
    }
    // Nested events are counted inside their parents too: the rows overlap (a FunctionCall holds its layouts).
    return { start: at(task.ts), ms: task.dur / 1000, parts: [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6) };
  });
  const fcpAt = fcp ? fcp.ts : t0;
  const blocking = long.filter((t) => t.ts >= fcpAt).reduce((sum, t) => sum + (t.dur - 50_000) / 1000, 0);

  // CPU samples of the main thread's profile, inside the long tasks.
  const profile = events.find((e) => e.name === "Profile" && e.pid === nav.pid && e.tid === nav.tid);
  const nodes = new Map();
  const samples = [];
  if (profile) {
    const id = profile.id;
    let ts = profile.args.data.startTime;
    for (const e of events) {
      if (e.name !== "ProfileChunk" || e.id !== id || e.pid !== nav.pid) continue;
      const cpu = e.args.data.cpuProfile ?? {};
      for (const node of cpu.nodes ?? []) nodes.set(node.id, node);
      const deltas = e.args.data.timeDeltas ?? [];
      (cpu.samples ?? []).forEach((node, i) => {
        ts += deltas[i] ?? 0;
        samples.push({ node, ts });
      });
    }
  }
  const frameOf = async (node) => {
    const f = node.callFrame;
    if (!f.url) return { module: f.functionName ? `(${f.functionName})` : "(program)", fn: f.functionName, app: false };
    const decoded = f.url.startsWith("http") ? await mapOf(f.url) : null;
    const o = original(decoded, f.lineNumber, f.columnNumber);
    const file = f.url.replace(/^https?:\/\/[^/]+/, "");
    if (!o) return { module: file, fn: f.functionName || "(anonymous)", app: false };
    const source = short(o.source);
    return { module: source, fn: o.name ?? f.functionName ?? "(anonymous)", app: source.startsWith("app/") };
  };
  const resolved = new Map();
  const resolve = async (id) => {
    if (!resolved.has(id)) resolved.set(id, await frameOf(nodes.get(id)));
    return resolved.get(id);
  };
  const bySelf = new Map();
  const byApp = new Map();
  // The longest task after the first paint (what TBT counts): every function on its stacks (inclusive time), to tell
  // a render from a commit or the effects.
  const longest = long.filter((t) => t.ts >= (fcp ? fcp.ts : t0)).reduce((a, b) => (b.dur > (a?.dur ?? 0) ? b : a), null);
  const inLongest = new Map();
  const sorted = [...long].sort((a, b) => a.ts - b.ts);
  let sampleMs = 0;
  for (let i = 0; i < samples.length; i++) {
    const { node, ts } = samples[i];
    if (!sorted.some((t) => ts >= t.ts && ts <= t.ts + t.dur)) continue;
    const ms = ((samples[i + 1]?.ts ?? ts) - ts) / 1000;
    sampleMs += ms;
    const leaf = nodes.get(node);
    if (!leaf) continue;
    const self = await resolve(node);
    bySelf.set(self.module, (bySelf.get(self.module) ?? 0) + ms);
    let appFrame = null;
    for (let n = leaf; n; n = nodes.get(n.parent)) {
      const f = await resolve(n.id);
      if (f.app) {
        appFrame = `${f.module} ${f.fn}`;
        break;
      }
    }
    const key = appFrame ?? `(no app/ frame) ${self.module}`;
    byApp.set(key, (byApp.get(key) ?? 0) + ms);
    if (longest && ts >= longest.ts && ts <= longest.ts + longest.dur) {
      const seen = new Set();
      const frames = [];
      for (let n = leaf; n; n = nodes.get(n.parent)) frames.push(await resolve(n.id));
      // TRACE_UNDER=<function>: only the stacks through that function, and only our own frames on them.
      const under = process.env.TRACE_UNDER;
      if (under && !frames.some((f) => f.fn === under)) continue;
      for (const f of frames) if (!under || f.app) seen.add(`${f.module} ${f.fn}`);
      for (const k of seen) inLongest.set(k, (inLongest.get(k) ?? 0) + ms);
    }
  }
  // Parents are only known through the nodes' children lists.
  return {
    fcp: fcp ? at(fcp.ts) : null,
    lcp: lcps.length ? at(lcps[lcps.length - 1].ts) : null,
    cls: shifts.reduce((sum, e) => sum + (e.args.data.score ?? 0), 0),
    shifts: shifts.map((e) => ({ at: at(e.ts), score: e.args.data.score, nodes: e.args.data.impacted_nodes?.length ?? 0 })),
    tasks: tasks.length,
    long: taskRows,
    blocking,
    sampleMs,
    bySelf: [...bySelf].sort((a, b) => b[1] - a[1]),
    byApp: [...byApp].sort((a, b) => b[1] - a[1]),
    longest: longest ? { start: at(longest.ts), ms: longest.dur / 1000 } : null,
    inLongest: [...inLongest].sort((a, b) => b[1] - a[1]),
  };
}

function linkParents(events) {
  // ProfileChunk nodes name their parent; older formats list children instead: make both available.
  for (const e of events) {
    if (e.name !== "ProfileChunk") continue;
    for (const node of e.args.data.cpuProfile?.nodes ?? []) for (const child of node.children ?? []) child.parent ??= node.id;
  }
}

// ---- the run ----
const { base, stop } = await startAppServer(PORT);
const proxy = await startGzipProxy(base, PORT + 50);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
});
const report = {};
try {
  const writer = await registerWriter(base, "Trace Writer");
  for (const size of SIZES) {
    const { json: timeline } = await api(base, writer.token, "POST", "/api/timelines", { title: `${size} Scenes`, description: "Trace" });
    const body = (i) => ({
      title: `Scene ${i + 1}`,
      content: MANUSCRIPT ? sceneText() : `Scene ${i + 1}: ${"the lamp gutters and the tide turns. ".repeat(4)}`,
    });
    for (let i = 0; i < size; i += 10)
      await Promise.all(
        Array.from({ length: Math.min(10, size - i) }, (_, k) =>
          api(base, writer.token, "POST", `/api/timelines/${timeline.id}/events`, body(i + k)),
        ),
      );
    const path = MANUSCRIPT ? `/timeline/${timeline.id}/manuscript` : `/timeline/${timeline.id}`;
    // One load first, untraced: the server's and the browser's caches warm, as for the bench's Lighthouse runs.
    await traceLoad(browser, writer.token, proxy.url, path);
    report[size] = [];
    for (let run = 0, attempt = 0; run < RUNS && attempt < RUNS + 3; attempt++) {
      const events = await traceLoad(browser, writer.token, proxy.url, path);
      linkParents(events);
      const result = await analyse(events, proxy.url + path);
      if (!result) {
        console.warn(`${size} events: the trace has no navigationStart for the page, loading it again`);
        continue;
      }
      run++;
      if (process.env.TRACE_KEEP === "1") {
        mkdirSync("test-results", { recursive: true });
        writeFileSync(`test-results/trace-${size}-${run}.json`, JSON.stringify(events));
      }
      report[size].push(result);
    }
  }
} finally {
  await browser.close();
  await proxy.close();
  stop();
}

const f = (n) => (n === null ? "–" : `${n.toFixed(0)} ms`);
for (const [size, runs] of Object.entries(report)) {
  runs.forEach((r, i) => {
    console.log(`\n=== ${size} events, run ${i + 1} (CPU ${CPU}× slower) ===`);
    console.log(
      `FCP ${f(r.fcp)}, last LCP candidate ${f(r.lcp)}, CLS ${r.cls.toFixed(3)}${r.shifts.length ? ` (${r.shifts.map((s) => `${s.score.toFixed(3)} at ${s.at.toFixed(0)} ms`).join(", ")})` : ""}`,
    );
    console.log(`main-thread tasks ${r.tasks}, long ${r.long.length}; blocking after FCP ${f(r.blocking)}`);
    for (const t of r.long)
      console.log(`  ${f(t.start).padStart(8)} +${f(t.ms).padEnd(7)} ${t.parts.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(" | ")}`);
    console.log(`  long tasks' CPU samples: ${f(r.sampleMs)}; self time by module:`);
    for (const [m, ms] of r.bySelf.slice(0, 15)) console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${m}`);
    console.log("  by the innermost app/ function on the stack:");
    for (const [m, ms] of r.byApp.slice(0, 25)) console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${m}`);
    if (r.longest) {
      console.log(`  the longest task after FCP (${f(r.longest.ms)} at ${f(r.longest.start)}): inclusive time by function on the stack:`);
      for (const [m, ms] of r.inLongest.slice(0, Number(process.env.TRACE_STACK_ROWS ?? 40)))
        console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${m}`);
    }
  });
}
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/bench-trace.json", JSON.stringify(report, null, 2));
console.log("\nwritten to test-results/bench-trace.json");
