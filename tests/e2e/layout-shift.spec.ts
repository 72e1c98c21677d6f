import type { Browser } from "@playwright/test";
import { createUser, signIn, test, type TestUser, expect } from "./fixtures";
import { shareWith } from "./helpers/timeline";

type Shift = { value: number; nodes: string[] };

/**
 * The layout shift a writer sees while the timeline page finishes arriving (the live room, the rest of the events,
 * the kits hydrating their server-rendered buttons): every `layout-shift` entry without recent input, 2 s after the
 * page's tools are enabled. `slow`: on a slow connection (150 kB/s), where the page's HTML arrives and is drawn in
 * pieces (as on a loaded machine), so a part that moves as the rest of its row arrives shows on every run.
 */
async function layoutShift(browser: Browser, user: TestUser, timelineId: number, width: number, slow = false) {
  const context = await browser.newContext({ viewport: { width, height: 823 } });
  const page = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: 150_000, uploadThroughput: -1 });
  }
  await signIn(page, user);
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { shifts: Shift[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{
        value: number;
        hadRecentInput: boolean;
        sources?: Array<{ node?: Node }>;
      }>) {
        if (entry.hadRecentInput) continue;
        shifts.push({ value: entry.value, nodes: (entry.sources ?? []).map((s) => (s.node?.textContent ?? "?").slice(0, 40)) });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(`/timeline/${timelineId}`);
  await expect(page.getByRole("button", { name: "Structure", exact: true })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Panels", exact: true })).toBeEnabled();
  await page.waitForTimeout(2000);
  const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
  await context.close();
  return { total: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}

test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "Thirty Scenes", timelineDescription: "Tides" });

test("the timeline page keeps its layout while its tools and the rest of its events load", async ({
  browser,
  request,
  writer: owner,
  timeline,
}) => {
  test.setTimeout(120_000);
  const viewer = await createUser(request, { name: "Vera Viewer" });
  // More than the first screenful: the rest of the events arrive after hydration.
  for (let i = 0; i < 30; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        owner.api("POST", `/api/timelines/${timeline.id}/events`, {
          title: `Scene ${i + k + 1}`,
          content: "The lamp gutters. ".repeat(8),
        }),
      ),
    );
  }
  await shareWith(request, owner, timeline.id, viewer, "viewer");

  for (const [user, width, slow] of [
    [owner, 412, false],
    [owner, 1280, false],
    [viewer, 412, false],
    [owner, 1280, true],
  ] as const) {
    const { total, shifts } = await layoutShift(browser, user, timeline.id, width, slow);
    expect(total, `${user.name} at ${width} px${slow ? " on a slow connection" : ""}: ${JSON.stringify(shifts)}`).toBeLessThan(0.02);
  }
});
