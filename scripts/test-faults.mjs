// `npm run test:faults`: the built product killed (SIGKILL) and restarted under real Yjs writers, who use the
// product's own provider (y-partyserver) as the browser does. Two scenarios, each on a fresh scene:
//   mid-typing:  writers type at a writer's pace; the server is killed 4-8 s in, they type on while it is down,
//                it restarts, they reconnect, type a little more and leave;
//   after-burst: each writer sends a burst, the server is killed right after it (tens of ms), restarts, they leave.
// Every character each writer typed must end in D1 and in every writer's doc, and no writer may be refused.
// Then a browser's offline outbox sent into a server that is killed halfway: every queued change lands exactly once.
// Ends with the line "N passed, N failed" (scripts/test-all.mjs counts it).
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import YProvider from "y-partyserver/provider";
import WebSocket from "ws";
import * as Y from "yjs";
import { chromium } from "@playwright/test";
import { offlineEnv } from "./lib.mjs";

const PORT = Number(process.env.FAULTS_PORT ?? 4390);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const MAIL = `http://127.0.0.1:${PORT + 1}`;
const WRITERS = Number(process.env.FAULTS_WRITERS ?? 4);
const serverEnv = { ...offlineEnv, E2E_PORT: String(PORT) };

let server = null;
function startServer(keepState) {
  // Its own process group, so SIGKILL reaches vite, workerd and the fake mail server at once.
  server = spawn("node", ["scripts/e2e-server.mjs"], {
    env: { ...serverEnv, STORYWEAVE_KEEP_STATE: keepState ? "1" : "0" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  return waitForServer();
}
async function waitForServer() {
  const start = Date.now();
  while (Date.now() - start < 240_000) {
    try {
      if ((await fetch(`${ORIGIN}/auth/login`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error("the server did not start");
}
async function killServer() {
  const child = server;
  server = null;
  if (!child) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGKILL");
  await exited;
  // The port is free once the group is gone.
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${ORIGIN}/auth/login`);
      await sleep(100);
    } catch {
      return;
    }
  }
}

async function api(method, path, { token, body } = {}) {
  const res = await fetch(ORIGIN + path, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return json;
}

let n = 0;
async function account(name, email = `fault-${Date.now()}-${n++}@example.test`) {
  const password = "secret-pass-1";
  await fetch(`${ORIGIN}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, email, password }),
  });
  let login = await api("POST", "/api/auth/login", { body: { email, password } });
  if (!login.user.isEmailVerified) {
    // The mail is sent after the answer (waitUntil): ask the fake mail API until it has the link.
    let verifyLink;
    for (let i = 0; i < 100 && !verifyLink; i++) {
      ({ verifyLink } = await (await fetch(`${MAIL}/messages?to=${encodeURIComponent(email)}`)).json());
      if (!verifyLink) await new Promise((r) => setTimeout(r, 100));
    }
    if (!verifyLink) throw new Error(`no verification mail reached ${email}`);
    const token = new URL(verifyLink).searchParams.get("token");
    await api("POST", "/api/auth/verify-email", { body: { token } });
    login = await api("POST", "/api/auth/login", { body: { email, password } });
  }
  return { token: login.token, user: login.user, email, password };
}

/** A co-writer: a Y.Doc behind the product's provider, signed in with its token, typing into its own paragraph. */
function writer(name, token, timelineId, eventId, share) {
  class Authed extends WebSocket {
    constructor(url, protocols) {
      super(url, protocols, { headers: { Authorization: `Bearer ${token}` } });
    }
  }
  const doc = new Y.Doc();
  const provider = new YProvider(`127.0.0.1:${PORT}`, "doc", doc, {
    prefix: `/ws/${timelineId}/events/${eventId}/doc`,
    protocol: "ws",
    params: share ? { share } : undefined,
    WebSocketPolyfill: Authed,
  });
  const refusals = [];
  provider.on("connection-close", (event) => {
    // 1006 and the like are the server going away; 44xx are the doc's own refusals.
    if (event && event.code >= 4000) refusals.push(`${event.code} ${event.reason}`);
  });
  const typed = [];
  const paragraph = () => {
    const fragment = doc.getXmlFragment("content");
    for (const block of fragment.toArray()) {
      const text = block instanceof Y.XmlElement ? block.get(0) : null;
      if (text instanceof Y.XmlText && text.toString().startsWith(`${name}:`)) return text;
    }
    return null;
  };
  return {
    name,
    doc,
    provider,
    refusals,
    typed,
    synced: () => new Promise((resolve) => (provider.synced ? resolve() : provider.once("synced", resolve))),
    /** Types `word` (with a space before it) at the end of this writer's paragraph. */
    type(word) {
      const t = paragraph();
      if (!t) throw new Error(`${name} has no paragraph`);
      t.insert(t.length, ` ${word}`);
      typed.push(word);
    },
    text: () => doc.getXmlFragment("content").toString(),
    leave() {
      provider.destroy();
      doc.destroy();
    },
  };
}

async function scene(owner, timelineId, names, title = "Faults") {
  const content = names.map((name) => `${name}: start.`).join("\n\n");
  return api("POST", `/api/timelines/${timelineId}/events`, { token: owner.token, body: { title, content } });
}

async function until(pred, label, timeout = 30_000) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    if (await pred()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${label}`);
}

/** The scene as D1 holds it (the API's list of the timeline's events). */
async function storedEvent(owner, timelineId, eventId) {
  const list = await api("GET", `/api/timelines/${timelineId}/events`, { token: owner.token });
  return (Array.isArray(list) ? list : list.events).find((e) => e.id === eventId);
}

/** Every word each writer typed, in D1 (after everyone left) and in every writer's doc (before). */
async function check(label, writers, owner, timelineId, eventId) {
  const problems = [];
  const words = writers.flatMap((w) => w.typed);
  try {
    await until(() => writers.every((w) => words.every((word) => w.text().includes(word))), "every writer to hold every word", 30_000);
  } catch {
    for (const w of writers) {
      const missing = words.filter((word) => !w.text().includes(word));
      if (missing.length) problems.push(`${w.name}'s doc lacks ${missing.length} of ${words.length} words`);
    }
  }
  for (const w of writers) if (w.refusals.length) problems.push(`${w.name} was refused ${w.refusals.length}×: ${w.refusals[0]}`);
  for (const w of writers) w.leave();
  let missing = words;
  try {
    await until(async () => {
      const event = await storedEvent(owner, timelineId, eventId);
      missing = words.filter((word) => !event.content.includes(word));
      return missing.length === 0;
    }, "D1 to hold every word");
  } catch {
    problems.push(`D1 lacks ${missing.length} of ${words.length} words (${missing.slice(0, 5).join(", ")}…)`);
  }
  const ok = problems.length === 0;
  console.log(
    `${ok ? "✓" : "✗"} ${label}: ${words.length} words by ${writers.length} writers${ok ? "" : `\n    ${problems.join("\n    ")}`}`,
  );
  return ok;
}

async function midTyping(owner, collab, timelineId, share) {
  const names = Array.from({ length: WRITERS }, (_, i) => `w${i}`);
  const event = await scene(owner, timelineId, names);
  const writers = names.map((name, i) => writer(name, i % 2 ? collab.token : owner.token, timelineId, event.id, i % 2 ? share : null));
  await Promise.all(writers.map((w) => w.synced()));
  let typing = true;
  const loops = writers.map(async (w, i) => {
    for (let k = 0; typing; k++) {
      w.type(`${w.name}m${k}`);
      await sleep(180 + ((i * 37 + k * 13) % 90));
    }
  });
  await sleep(4000 + Math.floor(Math.random() * 4000));
  await killServer();
  await sleep(1500);
  await startServer(true);
  await until(() => writers.every((w) => w.provider.wsconnected && w.provider.synced), "the writers back", 60_000);
  await sleep(2000);
  typing = false;
  await Promise.all(loops);
  return check("killed mid-typing, restarted, reconnected, left", writers, owner, timelineId, event.id);
}

async function afterBurst(owner, collab, timelineId, share) {
  const names = Array.from({ length: WRITERS }, (_, i) => `b${i}`);
  const event = await scene(owner, timelineId, names);
  const writers = names.map((name, i) => writer(name, i % 2 ? collab.token : owner.token, timelineId, event.id, i % 2 ? share : null));
  await Promise.all(writers.map((w) => w.synced()));
  // A burst each: twelve words in a quarter of a second, then the server dies at once.
  await Promise.all(
    writers.map(async (w) => {
      for (let k = 0; k < 12; k++) {
        w.type(`${w.name}x${k}`);
        await sleep(20);
      }
    }),
  );
  await sleep(30);
  await killServer();
  await startServer(true);
  await until(() => writers.every((w) => w.provider.wsconnected && w.provider.synced), "the writers back", 60_000);
  return check("killed right after a burst, restarted, left", writers, owner, timelineId, event.id);
}

/** Chromium for the browser scenarios (the product's own pages, as a writer uses them). */
const launchBrowser = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });

/** Signs `who` in through the login form, as a writer does. */
async function signIn(page, who) {
  await page.goto("/auth/login");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(/\/timeline$/);
}

/**
 * A writer in a real browser: types in the scene's editor, the server is killed while they type on, they close
 * the tab while it is down (the words live only in the browser's device copy), and open the scene again once it is
 * back. Every word reaches D1, with nothing refused.
 */
async function inBrowser(owner, collab, timelineId) {
  const event = await scene(owner, timelineId, ["p"], "Typed in a browser");
  const browser = await launchBrowser();
  const problems = [];
  const typed = [];
  try {
    const context = await browser.newContext({ baseURL: ORIGIN, locale: "en-US" });
    let page = await context.newPage();
    await signIn(page, collab);
    const openEditor = async () => {
      await page.goto(`/timeline/${timelineId}`);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("button", { name: "Edit Typed in a browser" }).click();
      const content = page.getByLabel("Content", { exact: true });
      await until(async () => (await content.getAttribute("contenteditable").catch(() => null)) === "true", "the editor", 20_000);
      await until(async () => (await content.textContent())?.includes("p: start."), "the scene's text in the editor", 20_000);
      await content.click();
      await page.keyboard.press("Control+End");
      return content;
    };
    await openEditor();
    const typeWords = async (prefix, count) => {
      for (let k = 0; k < count; k++) {
        const word = `${prefix}${k}`;
        await page.keyboard.type(` ${word}`, { delay: 40 });
        typed.push(word);
      }
    };
    await typeWords("before", 12);
    await killServer();
    await typeWords("down", 8);
    // The words typed while the server is down are only in this browser (its device copy): the tab goes.
    await sleep(500);
    await page.close();
    await startServer(true);
    page = await context.newPage();
    await openEditor();
    await typeWords("after", 6);
    const status = page.getByTestId("co-editor-status");
    await until(async () => (await status.textContent())?.includes("All changes saved"), "'All changes saved'", 30_000).catch(() =>
      problems.push("the editor never said 'All changes saved'"),
    );
    if (await page.getByText("That change is not valid in a scene").count()) problems.push("the editor shows a refusal");
    await page.close();
    await context.close();
  } finally {
    await browser.close();
  }
  let missing = typed;
  await until(async () => {
    const stored = await storedEvent(owner, timelineId, event.id);
    missing = typed.filter((word) => !stored.content.includes(word));
    return missing.length === 0;
  }, "D1 to hold every word").catch(() => problems.push(`D1 lacks ${missing.length} of ${typed.length} words (${missing.join(", ")})`));
  const ok = problems.length === 0;
  console.log(
    `${ok ? "✓" : "✗"} a browser typing through a kill, its tab closed while the server is down: ${typed.length} words${ok ? "" : `\n    ${problems.join("\n    ")}`}`,
  );
  return ok;
}

/**
 * The outbox sent into a dying server: a writer adds chapters with no network (queued on the device), the network
 * returns, and the server is killed (SIGKILL) while the queued creates are on their way, some answered, one perhaps
 * applied without its answer. It restarts; the page sends the rest by itself. Every chapter is on the server exactly
 * once and in order (each create carries its Idempotency-Key; a run sent together is made all or nothing), the page says 'All changes synced' and refuses nothing.
 */
async function outboxKilled(owner, collab, timelineId) {
  // More than two runs of queued creates sent together (20 each).
  const COUNT = 50;
  const titles = Array.from({ length: COUNT }, (_, i) => `Fault chapter ${i + 1}`);
  const browser = await launchBrowser();
  await scene(owner, timelineId, ["o"], "Before the chapters");
  const problems = [];
  let page;
  try {
    const context = await browser.newContext({ baseURL: ORIGIN, locale: "en-US" });
    page = await context.newPage();
    await signIn(page, collab);
    // A writer who has been here before: the installed app's code is on the device (the service worker controls the
    // page), then the page is opened again.
    await page.goto(`/timeline/${timelineId}`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    await page.getByText("Offline", { exact: true }).waitFor({ timeout: 30_000 });
    for (const title of titles) {
      await page.getByRole("button", { name: "Add Chapter" }).click();
      const field = page.getByPlaceholder("Chapter title");
      await field.fill(title);
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await field.waitFor({ state: "detached", timeout: 30_000 });
    }
    await page.getByText(`${COUNT} changes waiting`).waitFor({ timeout: 30_000 });
    let answered = 0;
    page.on("response", (res) => {
      // A lone create (…/chapters) or a run of queued ones sent together (…/chapters/batch, up to 20).
      if (res.request().method() === "POST" && /\/chapters(\/batch)?$/.test(new URL(res.url()).pathname)) answered++;
    });
    await context.setOffline(false);
    // Killed with the outbox half sent: the first run of creates answered, the next on its way.
    await until(() => answered >= 1, "the first queued chapters to reach the server", 60_000);
    await killServer();
    await sleep(1500);
    await startServer(true);
    await until(async () => (await page.getByText("All changes synced").count()) > 0, "'All changes synced'", 120_000).catch(() =>
      problems.push(`the page never said 'All changes synced' (${answered} creates answered)`),
    );
    if (await page.getByRole("region", { name: "Changes not saved" }).count()) problems.push("the page shows 'Changes not saved'");
    if (problems.length) await page.screenshot({ path: "test-results/faults-outbox.png" }).catch(() => undefined);
    await context.close();
  } catch (error) {
    await page?.screenshot({ path: "test-results/faults-outbox.png" }).catch(() => undefined);
    throw error;
  } finally {
    await browser.close();
  }
  const stored = await api("GET", `/api/timelines/${timelineId}/chapters`, { token: owner.token });
  for (const title of titles) {
    const copies = stored.filter((c) => c.title === title).length;
    if (copies !== 1) problems.push(`'${title}' is on the server ${copies}×`);
  }
  // In the order they were queued.
  const order = stored.map((c) => c.title).filter((t) => titles.includes(t));
  if (problems.length === 0 && order.join("|") !== titles.join("|")) problems.push(`the chapters are out of order: ${order.join(", ")}`);
  const ok = problems.length === 0;
  console.log(
    `${ok ? "✓" : "✗"} the outbox sent into a killed server: ${COUNT} chapters queued offline${ok ? ", each on the server once" : `\n    ${problems.slice(0, 8).join("\n    ")}`}`,
  );
  return ok;
}

let passed = 0;
let failed = 0;
try {
  console.log(`Building and starting the product on ${ORIGIN}…`);
  await startServer(false);
  const owner = await account("Olive Owner", "admin@storyweave.local");
  await api("POST", `/api/admin/users/${owner.user.id}/premium`, { token: owner.token, body: { premium: true } });
  const collab = await account("Mara");
  const timeline = await api("POST", "/api/timelines", { token: owner.token, body: { title: "Under faults" } });
  const { shareCode } = await api("POST", `/api/timelines/${timeline.id}/share`, { token: owner.token, body: { role: "collaborator" } });
  await api("POST", `/api/timelines/shared/${shareCode}/join`, { token: collab.token });
  for (const scenario of { browser: [inBrowser, outboxKilled], outbox: [outboxKilled] }[process.env.FAULTS_ONLY] ?? [
    midTyping,
    afterBurst,
    midTyping,
    inBrowser,
    outboxKilled,
  ]) {
    try {
      if (await scenario(owner, collab, timeline.id, shareCode)) passed++;
      else failed++;
    } catch (error) {
      console.log(`✗ ${scenario.name}: ${error.message}`);
      failed++;
      if (!server) await startServer(true).catch(() => undefined);
    }
  }
} catch (error) {
  console.error(`✗ the fault run could not start: ${error.stack ?? error}`);
  failed++;
} finally {
  await killServer();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
