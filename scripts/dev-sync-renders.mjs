// `npm run dev:sync-renders -- /timeline/<id>`: which components React re-renders synchronously while a page of the
// running development server (`npm run dev`) hydrates and mounts, and why. A component that reads an external store
// (`useSyncExternalStore`: TanStack Query's `useQuery`, our own stores) whose value changed between hydration's render
// and its mount effects is re-rendered in React's synchronous lane, inside the mount effects' task: the longest task
// after the first paint (docs/decisions.md, 'The longest task after the first paint'). Each such store should give
// its first value at hydration, or change after the mount.
//
// It signs in (DEV_EMAIL / DEV_PASSWORD, the seeded writer by default), opens the page in Chromium with React's
// development bundle patched as the dev server serves it (each `forceStoreRerender` logged with its component, and
// each snapshot that changed with what changed), waits for hydration and 4 s more, and prints them, times in ms from
// navigation. The development build mounts twice (React's StrictMode runs the effects twice): a store that changes at
// mount is listed twice. A change a few hundred ms later (a fetch's answer) is its own task, not the mount's.
// Env: DEV_URL (default http://127.0.0.1:5173), CHROMIUM_PATH (default /usr/bin/chromium).
import { chromium } from "playwright-core";

const base = process.env.DEV_URL ?? "http://127.0.0.1:5173";
const path = process.argv[2];
if (!path?.startsWith("/")) {
  console.error("Usage: npm run dev:sync-renders -- /timeline/<id>   (with `npm run dev` running)");
  process.exit(2);
}
const email = process.env.DEV_EMAIL ?? "writer@storyweave.local";
const password = process.env.DEV_PASSWORD ?? "storyweave-writer";

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
let patched = false;
await context.route(/\/node_modules\/\.vite\/deps\/react-dom_client\.js/, async (route) => {
  const response = await route.fetch();
  let body = await response.text();
  const rerender = "function forceStoreRerender(fiber) {";
  const check = /var nextValue = latestGetSnapshot\(\);\s*return !objectIs\(inst, nextValue\);/;
  if (body.includes(rerender) && check.test(body)) {
    patched = true;
    body = body.replace(
      rerender,
      `${rerender} console.log("sync-render " + performance.now().toFixed(0) + " " + getComponentNameFromFiber(fiber));`,
    );
    body = body.replace(
      check,
      `var nextValue = latestGetSnapshot();
      if (!objectIs(inst, nextValue)) {
        const show = (v) => String(JSON.stringify(v)).slice(0, 40);
        const what = inst && nextValue && typeof inst === "object" && typeof nextValue === "object"
          ? Object.keys(nextValue).filter((k) => !objectIs(inst[k], nextValue[k])).map((k) => k + " " + show(inst[k]) + " -> " + show(nextValue[k])).join(", ")
          : show(inst) + " -> " + show(nextValue);
        console.log("sync-render changed: " + (what || "a new object, equal fields") + " (snapshot " + latestGetSnapshot.toString().slice(0, 70).replace(/\\s+/g, " ") + ")");
      }
      return !objectIs(inst, nextValue);`,
    );
  }
  await route.fulfill({ response, body });
});
const page = await context.newPage();
const lines = [];
page.on("console", (message) => {
  if (message.text().startsWith("sync-render ")) lines.push(message.text().slice("sync-render ".length));
});
const login = await context.request.post(`${base}/api/auth/login`, { data: { email, password }, headers: { Origin: base } });
if (!login.ok()) {
  console.error(`Sign-in as ${email} failed (${login.status()}): is \`npm run dev\` running at ${base}?`);
  process.exit(1);
}
await page.goto(`${base}${path}`);
await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
const hydrated = await page.evaluate(() => performance.now());
await page.waitForTimeout(4000);
await browser.close();
if (!patched) {
  console.error("React's development bundle was not patched (its code changed?): nothing was measured.");
  process.exit(1);
}
console.log(`${path}: hydrated at ${hydrated.toFixed(0)} ms`);
console.log(lines.length === 0 ? "No synchronous store re-render." : lines.join("\n"));
