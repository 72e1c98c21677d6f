// The offline rows of the bench (issue 46, DESIGN.md §12 'Write anywhere'), on the production build in Chromium
// with the service worker allowed, through the gzip proxy (as Cloudflare serves):
// (a) a repeat visit of /timeline/{id} (the service worker installed and controlling the page, the next
//     navigation): the JavaScript bytes the server sent during it (counted at the proxy, so the service worker's
//     own requests count too), beside Chromium's view (scripts not answered by the service worker);
// (b) an offline reload of a 1,000-event timeline until its first scene is painted, the CPU slowed 4× as
//     Lighthouse's mobile profile does (CDP Emulation.setCPUThrottlingRate), median of 3;
// (c) 200 chapter changes made offline (chapters added through the page, queued in the outbox), then the network
//     back: time until the page says 'All changes synced' and the server lists the 200 chapters.
// `npm run bench:offline` runs these alone (results merged into test-results/bench.json under `offline`);
// `npm run bench` runs them too (BENCH_OFFLINE=0 skips them).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { api, percentile, registerWriter, startAppServer } from "./bench-lib.mjs";
import { startGzipProxy } from "./bench-tools.mjs";

const SCENES = 1000;
const CHANGES = Number(process.env.BENCH_OFFLINE_CHANGES ?? 200);
const RELOADS = 3;
const CPU_SLOWDOWN = 4;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** BENCH_OFFLINE_ONLY=reconnect: only (c), the queued changes sent after reconnecting (no 1,000-scene timeline). */
const ONLY_RECONNECT = process.env.BENCH_OFFLINE_ONLY === "reconnect";
/** BENCH_OFFLINE_ONLY=reconnect-scenes: only (d), 200 scenes added offline and sent after reconnecting. */
const ONLY_RECONNECT_SCENES = process.env.BENCH_OFFLINE_ONLY === "reconnect-scenes";

const isScript = (url, contentType) => /javascript/.test(contentType ?? "") || /\.m?js(\?|$)/.test(new URL(url).pathname);

/** Waits until the service worker controls `page`, then loads `path` once more through it (so it keeps the page). */
async function underServiceWorker(page, url) {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
}

/**
 * Runs the three measures against a running production server `base` and its gzip proxy `proxy` (from
 * startGzipProxy with an `onResponse` hook: `proxy.served` lists what it sent). Uses its own writer.
 */
export async function benchOffline({ base, proxy, browser }) {
  const step = (what) => console.log(`  offline: ${what}`);
  const writer = await registerWriter(base, "Bench Offline Writer");
  // The chapters' timeline (one scene), then its JSON export with the scene repeated 1,000 times, imported.
  const { json: book } = await api(base, writer.token, "POST", "/api/timelines", { title: "Two Hundred Chapters" });
  await api(base, writer.token, "POST", `/api/timelines/${book.id}/events`, {
    title: "Scene 1",
    content: `Scene 1: ${"the lamp gutters and the tide turns. ".repeat(4)}`,
  });
  const results = {};
  if (ONLY_RECONNECT_SCENES) {
    results.reconnectScenes = await reconnectScenes({ base, proxy, browser, writer, step });
    return results;
  }
  if (ONLY_RECONNECT) {
    results.reconnect = await reconnect({ base, proxy, browser, writer, book, step });
    return results;
  }
  const { json: doc } = await api(base, writer.token, "GET", `/api/timelines/${book.id}/export?format=json`);
  const { json: big } = await api(base, writer.token, "POST", "/api/timelines/import", {
    ...doc,
    timeline: { ...doc.timeline, title: "A Thousand Scenes Offline" },
    events: Array.from({ length: SCENES }, (_, i) => ({ ...doc.events[0], title: `Scene ${i + 1}` })),
  });
  const { json: listed } = await api(base, writer.token, "GET", `/api/timelines/${big.id}/events`);
  if (listed.length !== SCENES) throw new Error(`the import made ${listed.length} scenes, not ${SCENES}`);
  step(`seeded ${SCENES} scenes and a chapters timeline`);

  const context = await browser.newContext({ serviceWorkers: "allow" });
  await context.addCookies([{ name: "sw_session", value: writer.token, url: proxy.url }]);
  // The moment the first scene card is on screen (the frame it is painted in) and the page is hydrated.
  await context.addInitScript(() => {
    const frame = () => {
      const card = document.querySelector('[data-testid="event-card"]');
      const box = card?.getBoundingClientRect();
      if (box && box.height > 0 && box.top < innerHeight) window.__firstScene = performance.now();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    new MutationObserver((_, observer) => {
      if (!document.documentElement?.dataset.hydrated) return;
      window.__hydratedAt = performance.now();
      observer.disconnect();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
  });
  try {
    // (a) Repeat visit: first visit installs the service worker (it precaches the app's code), then a navigation.
    const page = await context.newPage();
    const bigUrl = `${proxy.url}/timeline/${big.id}`;
    await underServiceWorker(page, bigUrl);
    await page.waitForLoadState("networkidle");
    const seen = [];
    const onResponse = (res) => {
      const type = res.headers()["content-type"];
      if (isScript(res.url(), type)) seen.push(res);
    };
    context.on("response", onResponse);
    const from = proxy.served.length;
    await page.goto(bigUrl);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(3000);
    context.off("response", onResponse);
    const sent = proxy.served.slice(from).filter((r) => isScript(`http://x${r.url}`, r.contentType));
    const network = [];
    for (const res of seen) {
      if (res.fromServiceWorker()) continue;
      const sizes = await res
        .request()
        .sizes()
        .catch(() => ({ responseBodySize: 0 }));
      network.push({ url: new URL(res.url()).pathname, bytes: sizes.responseBodySize });
    }
    results.repeatVisit = {
      jsBytes: sent.reduce((a, r) => a + r.bytes, 0),
      jsFiles: sent.map((r) => ({ url: r.url, status: r.status, bytes: r.bytes })),
      scripts: seen.length,
      fromServiceWorker: seen.filter((r) => r.fromServiceWorker()).length,
      notFromServiceWorker: network,
    };
    step(`repeat visit: ${results.repeatVisit.jsBytes} bytes of JS from the server, ${seen.length} scripts`);

    // (b) Offline reload of the 1,000-event page, CPU 4× slower (the page was kept by the visit above).
    const cdp = await context.newCDPSession(page);
    await context.setOffline(true);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    const reloads = [];
    for (let i = 0; i < RELOADS; i++) {
      await page.reload({ waitUntil: "commit" });
      await page.waitForFunction(() => window.__firstScene !== undefined, null, { timeout: 60_000, polling: 100 });
      await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
      // Where the time went: the service worker's start and answer, the first paint.
      const times = await page.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const fcp = performance.getEntriesByName("first-contentful-paint")[0];
        return {
          firstScene: window.__firstScene,
          hydrated: window.__hydratedAt ?? null,
          workerStart: nav?.workerStart ?? null,
          responseStart: nav?.responseStart ?? null,
          responseEnd: nav?.responseEnd ?? null,
          firstContentfulPaint: fcp?.startTime ?? null,
        };
      });
      // How busy the machine was (1-minute load average): the figure is a wall-clock time.
      times.load = loadavg()[0];
      reloads.push(times);
      await page.getByText("Offline", { exact: true }).waitFor({ timeout: 30_000 });
    }
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await context.setOffline(false);
    results.offlineReload = {
      scenes: SCENES,
      cpuSlowdown: CPU_SLOWDOWN,
      firstScene: percentile(
        reloads.map((r) => r.firstScene),
        50,
      ),
      hydrated: percentile(
        reloads.map((r) => r.hydrated ?? Number.NaN),
        50,
      ),
      runs: reloads,
    };
    step(`offline reload: first scene ${results.offlineReload.firstScene.toFixed(0)} ms (median of ${RELOADS})`);
    await page.close();
  } finally {
    await context.close();
  }
  results.reconnect = await reconnect({ base, proxy, browser, writer, book, step });
  results.reconnectScenes = await reconnectScenes({ base, proxy, browser, writer, step });
  return results;
}

/** (d) 200 scenes added offline (the 'Create New Event' dialog), then the network back, on a timeline of their own. */
async function reconnectScenes({ base, proxy, browser, writer, step }) {
  const { json: book } = await api(base, writer.token, "POST", "/api/timelines", { title: "Two Hundred Scenes" });
  return reconnect({ base, proxy, browser, writer, book, step, what: "scenes" });
}

const ADD = {
  chapters: async (tab, i) => {
    await tab.getByRole("button", { name: "Add Chapter" }).click();
    const title = tab.getByPlaceholder("Chapter title");
    await title.fill(`Chapter ${i}`);
    await tab.getByRole("button", { name: "Add", exact: true }).click();
    await title.waitFor({ state: "detached", timeout: 30_000 });
  },
  scenes: async (tab, i) => {
    await tab.getByRole("button", { name: "Add Event" }).click();
    const dialog = tab.getByRole("dialog", { name: "Create New Event" });
    await dialog.getByLabel("Title").fill(`Scene ${i}`);
    await dialog.getByLabel("Content").fill(`Scene ${i} begins.`);
    await dialog.getByRole("button", { name: "Create Event" }).click();
    await dialog.waitFor({ state: "detached", timeout: 30_000 });
  },
};

/** (c) 200 chapters (or (d) scenes: `what`) added offline, then the network back, in a context of its own. */
async function reconnect({ base, proxy, browser, writer, book, step, what = "chapters" }) {
  const listPath = `/api/timelines/${book.id}/${what === "scenes" ? "events" : "chapters"}`;
  const context = await browser.newContext({ serviceWorkers: "allow" });
  await context.addCookies([{ name: "sw_session", value: writer.token, url: proxy.url }]);
  try {
    // (c) 200 chapters added offline, then the network back.
    const tab = await context.newPage();
    const bookUrl = `${proxy.url}/timeline/${book.id}`;
    await underServiceWorker(tab, bookUrl);
    await tab.goto(bookUrl);
    await tab.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    await tab.waitForLoadState("networkidle");
    await context.setOffline(true);
    await tab.getByText("Offline", { exact: true }).waitFor({ timeout: 30_000 });
    const queueStart = performance.now();
    for (let i = 1; i <= CHANGES; i++) await ADD[what](tab, i);
    const waiting = `${CHANGES.toLocaleString()} changes waiting`;
    await tab.getByText(waiting).waitFor({ timeout: 60_000 });
    const queuedIn = performance.now() - queueStart;
    step(`${waiting} (queued in ${(queuedIn / 1000).toFixed(1)} s)`);
    // The server's count (-1 when a request failed: polled again).
    const serverChapters = () =>
      api(base, writer.token, "GET", listPath).then(
        ({ json }) => json.length,
        () => -1,
      );
    if ((await serverChapters()) !== 0) throw new Error(`${what} reached the server while offline`);
    const after = [];
    tab.on("response", (res) => after.push(`${res.request().method()} ${new URL(res.url()).pathname} ${res.status()}`));
    tab.on("requestfailed", (req) => after.push(`${req.method()} ${new URL(req.url()).pathname} failed: ${req.failure()?.errorText}`));
    // Where the time goes per request (a change alone, or a run of them sent together): on its way (request to answer, the server and the network) and in the
    // page between an answer and the next request (rendering, keeping the outbox on the device).
    const sends = [];
    // A lone create, or a run of queued creates sent together (…/chapters/batch, …/events/batch).
    const isCreate = (req) => req.method() === "POST" && new RegExp(`^${listPath}(/batch)?$`).test(new URL(req.url()).pathname);
    tab.on("request", (req) => {
      if (isCreate(req)) sends.push({ sent: performance.now(), answered: null });
    });
    tab.on("requestfinished", (req) => {
      if (!isCreate(req)) return;
      const open = sends.find((s) => s.answered === null);
      if (open) open.answered = performance.now();
    });
    const start = performance.now();
    await context.setOffline(false);
    const onScreen = tab
      .getByText("All changes synced")
      .waitFor({ timeout: 120_000 })
      .then(
        () => performance.now() - start,
        () => null,
      );
    let onServer = null;
    while (performance.now() - start < 120_000) {
      if ((await serverChapters()) >= CHANGES) {
        onServer = performance.now() - start;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const shown = await onScreen;
    if (shown === null || onServer === null) {
      mkdirSync("test-results", { recursive: true });
      await tab.screenshot({ path: `test-results/bench-offline-reconnect-${what}.png` }).catch(() => undefined);
      step(
        `not synced: what the page said is in test-results/bench-offline-reconnect-${what}.png; requests after reconnecting: ${after.join(", ")}`,
      );
    }
    const chapters = await serverChapters();
    const answered = sends.filter((s) => s.answered !== null);
    const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    const perChange = {
      requests: sends.length,
      onItsWayMs: mean(answered.map((s) => s.answered - s.sent)),
      inThePageMs: mean(
        sends
          .slice(1)
          .map((s, i) => (sends[i].answered === null ? Number.NaN : s.sent - sends[i].answered))
          .filter((x) => !Number.isNaN(x)),
      ),
      firstSentMs: sends.length ? sends[0].sent - start : null,
    };
    step(
      `per request (${CHANGES} changes in ${perChange.requests} requests): ${perChange.onItsWayMs?.toFixed(1)} ms on its way, ${perChange.inThePageMs?.toFixed(1)} ms in the page before the next; first sent after ${perChange.firstSentMs?.toFixed(0)} ms`,
    );
    step(`reconnect: 'All changes synced' after ${shown === null ? "–" : (shown / 1000).toFixed(1)} s, the server had ${chapters} ${what}`);
    return {
      what,
      perChange,
      changes: CHANGES,
      queuedMs: queuedIn,
      allSyncedShownMs: shown,
      onServerMs: onServer,
      syncedMs: onServer === null || shown === null ? null : Math.max(shown, onServer),
      serverChapters: chapters,
      load: loadavg()[0],
    };
  } finally {
    await context.close();
  }
}

/** The table rows (measure, now, target, met) of these results. */
export function offlineRows(o) {
  if (!o || o.skipped) {
    const why = `not measured (${o?.skipped ?? "?"})`;
    return [
      ["repeat visit of /timeline/{id}: JavaScript over the network", why, "0 bytes", null],
      ["offline reload, 1,000 events, CPU 4×: first scene visible", why, "≤ 1.5 s", null],
      ["reconnect with 200 queued changes: synced", why, "≤ 10 s", null],
      ["reconnect with 200 queued scene changes: synced", why, "≤ 10 s", null],
    ];
  }
  const s = (n) => `${(n / 1000).toFixed(2)} s`;
  const reconnectRow = (r, what) => [
    `reconnect with ${r.changes} queued ${what}changes: synced`,
    r.syncedMs === null
      ? `not synced in 120 s (server has ${r.serverChapters})`
      : `${s(r.syncedMs)} ('All changes synced' ${s(r.allSyncedShownMs)}, server ${s(r.onServerMs)}; ${r.perChange.requests} requests, load ${r.load.toFixed(2)})`,
    "≤ 10 s",
    r.syncedMs !== null && r.syncedMs <= 10_000,
  ];
  const reconnectRows = [
    ...(o.reconnect ? [reconnectRow(o.reconnect, "")] : []),
    ...(o.reconnectScenes ? [reconnectRow(o.reconnectScenes, "scene ")] : []),
  ];
  // BENCH_OFFLINE_ONLY=reconnect (or reconnect-scenes) measured these rows alone.
  if (!o.repeatVisit) return reconnectRows;
  const rows = [
    [
      "repeat visit of /timeline/{id}: JavaScript over the network",
      `${o.repeatVisit.jsBytes} bytes (${o.repeatVisit.fromServiceWorker} of ${o.repeatVisit.scripts} scripts from the service worker)`,
      "0 bytes",
      o.repeatVisit.jsBytes === 0,
    ],
    [
      "offline reload, 1,000 events, CPU 4×: first scene visible",
      `${s(o.offlineReload.firstScene)} (hydrated ${s(o.offlineReload.hydrated)})`,
      "≤ 1.5 s",
      o.offlineReload.firstScene <= 1500,
    ],
    ...reconnectRows,
  ];
  return rows;
}

// `npm run bench:offline`: these rows alone, on a fresh production build.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.BENCH_PORT ?? 4440);
  const { base, stop } = await startAppServer(port);
  const served = [];
  // BENCH_PROXY_PORT: the gzip proxy's port (default 50 above the server's), for a machine with ports taken there.
  const proxy = await startGzipProxy(base, Number(process.env.BENCH_PROXY_PORT ?? port + 50), {
    onResponse: (entry) => served.push(entry),
  });
  proxy.served = served;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  let offline;
  try {
    offline = await benchOffline({ base, proxy, browser });
  } finally {
    await browser.close();
    await proxy.close();
    stop();
  }
  const rows = offlineRows(offline);
  console.log(`\nStoryWeave bench — offline rows, production build on ${base}\n`);
  console.log("| measure | now | target | met |\n|---|---|---|---|");
  for (const [measure, now, target, met] of rows) console.log(`| ${measure} | ${now} | ${target} | ${met ? "yes" : "no"} |`);
  for (const f of offline.repeatVisit?.jsFiles ?? [])
    console.log(`    JS from the server on the repeat visit: ${f.url} ${f.status} ${f.bytes} bytes`);
  mkdirSync("test-results", { recursive: true });
  const file = "test-results/bench.json";
  const all = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  all.offline = offline;
  all.offlineTable = rows.map(([measure, now, target, met]) => ({ measure, now, target, met }));
  writeFileSync(file, JSON.stringify(all, null, 2));
  console.log(`\nwritten to ${file} (under "offline")`);
}
