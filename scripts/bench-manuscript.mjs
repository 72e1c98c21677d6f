// The manuscript row of `npm run bench`: a 120,000-word book (150 scenes × 800 words) on /timeline/{id}/manuscript.
// Measures in Chromium (no CPU throttling): the HTML's size, time until hydrated, the main thread's blocking
// while the page loads and its editors mount (long tasks via PerformanceObserver: TBT = Σ(duration − 50 ms)), and
// typing latency: keydown → the frame with the new text painted (rAF, then a task after the frame), 50 keystrokes.
import { gzipSync } from "node:zlib";
import { api, percentile } from "./bench-lib.mjs";

export const MANUSCRIPT_SCENES = 150;
const SENTENCE = "Mara counted the bells while the tide turned against stone.";
const paragraph = () => Array.from({ length: 10 }, () => SENTENCE).join(" ");
// 8 paragraphs of 100 words: 800 words a scene.
export const sceneText = () => Array.from({ length: 8 }, paragraph).join("\n\n");
const KEYSTROKES = 50;

export async function benchManuscript({ base, proxyUrl, writer, browser }) {
  const { json: timeline } = await api(base, writer.token, "POST", "/api/timelines", { title: "A Long Book" });
  const create = async (i) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api(base, writer.token, "POST", `/api/timelines/${timeline.id}/events`, {
          title: `Scene ${i + 1}`,
          content: sceneText(),
        });
      } catch (error) {
        if (attempt >= 3) throw error;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  };
  for (let i = 0; i < MANUSCRIPT_SCENES; i += 10)
    await Promise.all(Array.from({ length: Math.min(10, MANUSCRIPT_SCENES - i) }, (_, k) => create(i + k)));
  return measureManuscript({ base, proxyUrl, writer, browser, timelineId: timeline.id });
}

/** The measures on a seeded book (exported so one can run them alone against a running server). */
export async function measureManuscript({ base, proxyUrl, writer, browser, timelineId }) {
  const path = `/timeline/${timelineId}/manuscript`;
  const html = await (await fetch(base + path, { headers: { Cookie: writer.cookie }, signal: AbortSignal.timeout(60_000) })).text();
  const step = (what) => console.log(`  manuscript: ${what}`);
  step(`HTML ${html.length} bytes`);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: "sw_session", value: writer.token, url: proxyUrl }]);
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  });
  const tab = await context.newPage();
  const begin = Date.now();
  await tab.goto(proxyUrl + path, { waitUntil: "commit" });
  await tab.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
  const hydrated = Date.now() - begin;
  step(`hydrated in ${hydrated} ms`);
  // The first scene's editor mounted and synced: the page has done its loading work.
  await tab.locator('[role="textbox"][contenteditable="true"]').first().waitFor({ timeout: 60_000 });
  await tab.waitForTimeout(1000);
  const load = await tab.evaluate(() => window.__longTasks);
  const editorsMounted = await tab.locator('[role="textbox"][contenteditable="true"]').count();
  step(`${load.length} long tasks while loading; ${editorsMounted} editors`);

  // Typing in the middle of the book: scroll there, wait for its editor, type 50 keys one frame apart.
  const middle = `Text of Scene ${MANUSCRIPT_SCENES / 2}`;
  await tab.getByRole("heading", { name: `Scene ${MANUSCRIPT_SCENES / 2}`, exact: true }).scrollIntoViewIfNeeded();
  const editor = tab.locator(`[aria-label="${middle}"][contenteditable="true"]`);
  await editor.waitFor({ timeout: 60_000 });
  await editor.click();
  step("typing");
  await tab.evaluate(() => {
    window.__latency = [];
    window.__longTasks = [];
    document.addEventListener(
      "keydown",
      (event) => {
        const t0 = event.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => window.__latency.push(performance.now() - t0);
          channel.port2.postMessage(null);
        });
      },
      true,
    );
  });
  const keys = "the tide turns ";
  for (let i = 0; i < KEYSTROKES; i++) {
    await tab.keyboard.press(keys[i % keys.length] === " " ? "Space" : keys[i % keys.length]);
    await tab.waitForFunction((n) => window.__latency.length >= n, i + 1, { timeout: 10_000 });
  }
  const latency = await tab.evaluate(() => window.__latency);
  const typingTasks = await tab.evaluate(() => window.__longTasks);
  await context.close();

  const blocking = (tasks) => tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
  return {
    scenes: MANUSCRIPT_SCENES,
    words: MANUSCRIPT_SCENES * 800,
    html: html.length,
    htmlGzip: gzipSync(Buffer.from(html)).length,
    hydrated,
    editorsMounted,
    tbt: blocking(load),
    longTasks: load.length,
    longest: Math.max(0, ...load.map((t) => t.duration)),
    typing: { p50: percentile(latency, 50), p95: percentile(latency, 95), keystrokes: latency.length, tbt: blocking(typingTasks) },
  };
}
