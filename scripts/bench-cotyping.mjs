// Co-typing load for `npm run bench:realtime`: WRITERS writers in one event's shared doc, each
// typing CHARS_PER_SECOND characters/s into the same paragraph for SECONDS s, as real Yjs clients over the
// product's authenticated doc socket. Reports lost characters (every writer's letter counted in every
// client's final text and in D1 after it settles) and the convergence time of each keystroke: from the
// sender's insert until the last other writer has it (p50/p99/max).
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { loadavg } from "node:os";
import WebSocket from "ws";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import { api, percentile, registerWriter } from "./bench-lib.mjs";

const REMOTE = Symbol("remote");
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const now = () => performance.timeOrigin + performance.now();

/** Premium for the owner (sharing is Premium): the e2e server's admin, verified through the fake mail API. */
async function premiumOwner(base, mailApi) {
  const admin = { name: "Ada Admin", email: "admin@storyweave.local", password: "storyweave-admin-bench" };
  const headers = { "Content-Type": "application/json", Origin: base };
  await fetch(`${base}/api/auth/register`, { method: "POST", headers, body: JSON.stringify(admin) });
  let login = await (await fetch(`${base}/api/auth/login`, { method: "POST", headers, body: JSON.stringify(admin) })).json();
  if (!login.user?.isEmailVerified) {
    let link = null;
    for (let i = 0; i < 50 && !link; i++) {
      link = (await (await fetch(`${mailApi}/messages?to=${encodeURIComponent(admin.email)}`)).json()).verifyLink;
      if (!link) await sleep(100);
    }
    const token = new URL(link).searchParams.get("token");
    await fetch(`${base}/api/auth/verify-email`, { method: "POST", headers, body: JSON.stringify({ token }) });
    login = await (await fetch(`${base}/api/auth/login`, { method: "POST", headers, body: JSON.stringify(admin) })).json();
  }
  const owner = await registerWriter(base, "Co Owner");
  await api(base, login.token, "POST", `/api/admin/users/${owner.user.id}/premium`, { premium: true });
  return owner;
}

/** One writer's Yjs client: y-protocols sync over the doc socket; records when each remote item arrived. */
function openWriter(url, token, onRemote) {
  return new Promise((resolve, reject) => {
    const doc = new Y.Doc();
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
    ws.binaryType = "arraybuffer";
    let synced = false;
    doc.on("update", (update, origin) => {
      if (origin === REMOTE) {
        onRemote(doc, update);
        return;
      }
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeUpdate(e, update);
      if (ws.readyState === WebSocket.OPEN) ws.send(encoding.toUint8Array(e));
    });
    ws.on("message", (data, isBinary) => {
      if (!isBinary) return;
      const decoder = decoding.createDecoder(new Uint8Array(data));
      if (decoding.readVarUint(decoder) !== 0) return;
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      const kind = syncProtocol.readSyncMessage(decoder, e, doc, REMOTE);
      if (encoding.length(e) > 1) ws.send(encoding.toUint8Array(e));
      if (kind === syncProtocol.messageYjsSyncStep2 && !synced) {
        synced = true;
        resolve({ doc, ws });
      }
    });
    ws.on("open", () => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeSyncStep1(e, doc);
      ws.send(encoding.toUint8Array(e));
    });
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`doc upgrade refused: ${res.statusCode}`)));
  });
}

const paragraphText = (doc) => {
  const block = doc.getXmlFragment("content").get(0);
  return block?.get(0);
};

/**
 * @param {string} base the app's http base
 * @param {string} mailApi the fake mail API next to it
 * @param {{writers?: number, charsPerSecond?: number, seconds?: number}} opts
 */
export async function runCoTyping(base, mailApi, { writers = 100, charsPerSecond = 5, seconds = 30 } = {}) {
  const owner = await premiumOwner(base, mailApi);
  const { json: timeline } = await api(base, owner.token, "POST", "/api/timelines", { title: "Co-typing bench" });
  const { json: event } = await api(base, owner.token, "POST", `/api/timelines/${timeline.id}/events`, {
    title: "One scene",
    content: "START.",
  });
  // The team joins as a real one would: the owner creates an editor share link and each co-writer opens it
  // and presses 'Join timeline'. Sharing by email one address at a time is capped at 60 invitations an hour
  // per owner (RATE_INVITATIONS_PER_ACCOUNT_PER_HOUR), so it cannot seat 100 writers, and the bench leaves that
  // limit as it is.
  const { json: link } = await api(base, owner.token, "POST", `/api/timelines/${timeline.id}/share`, { role: "collaborator" });
  const team = [owner];
  while (team.length < writers) {
    const w = await registerWriter(base, `Writer ${team.length}`);
    const { json: joined } = await api(base, w.token, "POST", `/api/timelines/shared/${link.shareCode}/join`);
    if (joined.accessMode !== "collaborator") throw new Error(`joined as ${joined.accessMode}, not collaborator`);
    team.push(w);
  }
  // Writer k types only letter k (a, b, c, …): every letter's count is that writer's delivered characters.
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const sentAt = new Map(); // `${clientID}:${clock}` → time of the insert
  const arrivals = new Map(); // same key → number of other writers that have it, and the last arrival
  const onRemote = (_doc, update) => {
    const t = now();
    for (const struct of Y.decodeUpdate(update).structs) {
      if (!(struct instanceof Y.Item)) continue;
      for (let i = 0; i < struct.length; i++) {
        const key = `${struct.id.client}:${struct.id.clock + i}`;
        const a = arrivals.get(key) ?? { count: 0, last: 0 };
        a.count++;
        a.last = t;
        arrivals.set(key, a);
      }
    }
  };
  const wsBase = base.replace("http", "ws");
  const clients = [];
  for (const w of team) {
    clients.push(await openWriter(`${wsBase}/ws/${timeline.id}/events/${event.id}/doc`, w.token, onRemote));
  }
  await sleep(500);
  arrivals.clear();

  const started = now();
  const loadBefore = loadavg()[0];
  const perWriter = charsPerSecond * seconds;
  await Promise.all(
    clients.map(async ({ doc }, k) => {
      await sleep((k * 1000) / charsPerSecond / writers);
      for (let n = 0; n < perWriter; n++) {
        const text = paragraphText(doc);
        const at = Math.floor(Math.random() * (text.length + 1));
        const clock = Y.getState(doc.store, doc.clientID);
        text.insert(at, letters[k % letters.length]);
        sentAt.set(`${doc.clientID}:${clock}`, now());
        await sleep(1000 / charsPerSecond);
      }
    }),
  );
  // Everyone converged: the same state vector everywhere (or 15 s).
  const sv = (doc) => Buffer.from(Y.encodeStateVector(doc)).toString("base64");
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && new Set(clients.map((c) => sv(c.doc))).size > 1) await sleep(50);
  const typedFor = (now() - started) / 1000;
  const loadAfter = loadavg()[0];

  const expected = writers * perWriter;
  const counts = (text) => [...text].filter((ch) => letters.includes(ch)).length;
  const finalTexts = clients.map((c) => paragraphText(c.doc).toString());
  const lostPerClient = finalTexts.map((t) => expected - counts(t));
  const converged = new Set(finalTexts).size === 1;
  const latencies = [];
  let incomplete = 0;
  for (const [key, at] of sentAt) {
    const a = arrivals.get(key);
    if (!a || a.count < writers - 1) incomplete++;
    else latencies.push(a.last - at);
  }
  for (const c of clients) c.ws.close();
  // The last writer out writes D1: the stored Markdown holds every character too (read until it does, or 15 s).
  const closedAt = now();
  let storedEvent = null;
  let lostInD1 = expected;
  for (const until = Date.now() + 15_000; lostInD1 > 0 && Date.now() < until; ) {
    await sleep(500);
    const { json: stored } = await api(base, owner.token, "GET", `/api/timelines/${timeline.id}/events`);
    storedEvent = (Array.isArray(stored) ? stored : stored.events).find((e) => e.id === event.id);
    lostInD1 = expected - counts(storedEvent.content);
  }
  const d1 = {
    characters: counts(storedEvent.content),
    // The paragraph is letters and 'START.' only: its Markdown is its text.
    sameAsWriters: storedEvent.content.trim() === finalTexts[0].trim(),
    wordCount: storedEvent.wordCount,
    settledAfterMs: now() - closedAt,
  };
  return {
    scenario: `co-typing: ${writers} writers × ${charsPerSecond} chars/s × ${seconds} s in one event`,
    typed: expected,
    lost: Math.max(...lostPerClient),
    lostInD1,
    d1,
    converged,
    keystrokesNotEverywhere: incomplete,
    convergenceP50: percentile(latencies, 50),
    convergenceP99: percentile(latencies, 99),
    convergenceMax: Math.max(...latencies),
    seconds: typedFor,
    /** The machine's 1-minute load average as typing started and as it ended. */
    load: { before: loadBefore, after: loadAfter },
  };
}
