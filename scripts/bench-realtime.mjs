// `npm run bench:realtime`: relay load on the TimelineRoom (its figures), beside a bare echo
// room as the floor. 20 rooms × 25 clients, then 1 room × 200 clients; in each room 5 clients send
// `change` messages at 5/s (below the 20/s flood limit) and every other client must receive every one.
// Then co-typing (scripts/bench-cotyping.mjs): 100 writers (BENCH_COTYPING_WRITERS) in one event's shared
// doc typing 5 characters/s each for 30 s. BENCH_REALTIME_ONLY=cotyping runs only that.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import WebSocket from "ws";
import { api, findDirectPort, ms, percentile, registerWriter, startAppServer, waitForUrl } from "./bench-lib.mjs";
import { runCoTyping } from "./bench-cotyping.mjs";
import { offlineEnv } from "./lib.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 4460);
const ECHO_PORT = PORT + 10;
const SENDERS_PER_ROOM = 5;
const MESSAGES_PER_SENDER = 20;
const SEND_INTERVAL_MS = 200;
const scenarios = [
  { name: "20 rooms × 25 clients", rooms: 20, clients: 25 },
  { name: "1 room × 200 clients", rooms: 1, clients: 200 },
];

const now = () => performance.timeOrigin + performance.now();
const sleep = (t) => new Promise((r) => setTimeout(r, t));

function open(url, headers) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

/** Runs one scenario; `target(room)` gives the URL and headers for a client of that room. */
async function runScenario(label, scenario, target) {
  const received = new Map(); // "room:sender:seq" → count of receipts
  let lastOther = Date.now(); // last presence/notification message: the join storm is over when these stop
  const latencies = [];
  const clients = [];
  for (let r = 0; r < scenario.rooms; r++) {
    for (let c = 0; c < scenario.clients; c += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, scenario.clients - c) }, async () => {
          const { url, headers } = target(r);
          const ws = await open(url, headers);
          ws.on("message", (data) => {
            const text = String(data);
            if (!text.includes("bench|")) {
              lastOther = Date.now();
              return;
            }
            const msg = JSON.parse(text);
            const [, key, sentAt] = String(msg.change?.value ?? "").split("|");
            if (!key) return;
            latencies.push(now() - Number(sentAt));
            received.set(key, (received.get(key) ?? 0) + 1);
          });
          return { ws, room: r };
        }),
      );
      clients.push(...batch);
    }
  }
  // Let presence and join notifications from the connects settle before measuring.
  const settleBy = Date.now() + 15_000;
  while (Date.now() - lastOther < 1000 && Date.now() < settleBy) await sleep(100);

  const started = now();
  const sends = [];
  for (let r = 0; r < scenario.rooms; r++) {
    const roomClients = clients.filter((c) => c.room === r);
    for (let s = 0; s < SENDERS_PER_ROOM; s++) {
      const sender = roomClients[s];
      sends.push(
        (async () => {
          await sleep((s * SEND_INTERVAL_MS) / SENDERS_PER_ROOM);
          for (let seq = 0; seq < MESSAGES_PER_SENDER; seq++) {
            const key = `${r}:${s}:${seq}`;
            sender.ws.send(JSON.stringify({ type: "change", eventId: 1, change: { type: "content", value: `bench|${key}|${now()}` } }));
            await sleep(SEND_INTERVAL_MS);
          }
        })(),
      );
    }
  }
  await Promise.all(sends);
  const perMessage = scenario.clients - 1;
  const expected = scenario.rooms * SENDERS_PER_ROOM * MESSAGES_PER_SENDER * perMessage;
  const deadline = Date.now() + 10_000;
  const delivered = () => [...received.values()].reduce((a, n) => a + n, 0);
  while (delivered() < expected && Date.now() < deadline) await sleep(100);
  const elapsed = now() - started;
  for (const c of clients) c.ws.close();
  await sleep(500);
  return {
    target: label,
    scenario: scenario.name,
    expected,
    delivered: delivered(),
    lost: expected - delivered(),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    seconds: elapsed / 1000,
  };
}

const results = [];
let cotyping = null;
const onlyCoTyping = process.env.BENCH_REALTIME_ONLY === "cotyping";

// 1. The product: TimelineRoom behind the Worker's authenticated upgrade.
const app = await startAppServer(PORT);
try {
  const writers = Number(process.env.BENCH_COTYPING_WRITERS ?? 100);
  cotyping = await runCoTyping(app.base, `http://127.0.0.1:${PORT + 1}`, { writers });
  if (onlyCoTyping) throw new Error("only co-typing");
  const rooms = [];
  while (rooms.length < Math.max(...scenarios.map((s) => s.rooms))) {
    const owner = await registerWriter(app.base, "Room Owner");
    for (let i = 0; i < 3 && rooms.length < 20; i++) {
      const { json } = await api(app.base, owner.token, "POST", "/api/timelines", { title: `Room ${rooms.length + 1}` });
      rooms.push({ id: json.id, token: owner.token });
    }
  }
  const direct = await findDirectPort(app.pid, "/auth/login", (res) => res.ok);
  const paths = [["TimelineRoom via preview", app.base.replace("http", "ws")]];
  if (direct) paths.push(["TimelineRoom direct", `ws://127.0.0.1:${direct}`]);
  for (const [label, wsBase] of paths) {
    for (const scenario of scenarios) {
      results.push(
        await runScenario(label, scenario, (r) => ({
          url: `${wsBase}/ws/${rooms[r].id}`,
          headers: { Authorization: `Bearer ${rooms[r].token}` },
        })),
      );
    }
  }
} catch (error) {
  if (!onlyCoTyping) throw error;
} finally {
  app.stop();
}

// 2. The floor: a bare echo room (bench/echo-room) under `wrangler dev`.
if (!onlyCoTyping) {
  const echo = spawn(
    "wrangler",
    [
      "dev",
      "-c",
      "bench/echo-room/wrangler.toml",
      "--ip",
      "127.0.0.1",
      "--port",
      String(ECHO_PORT),
      "--persist-to",
      ".wrangler/bench-echo",
    ],
    { env: offlineEnv, stdio: ["ignore", "ignore", "inherit"], detached: true },
  );
  const stopEcho = () => {
    try {
      process.kill(-echo.pid, "SIGTERM");
    } catch {}
  };
  process.on("exit", stopEcho);
  try {
    await waitForUrl(`http://127.0.0.1:${ECHO_PORT}/`, 120_000, echo, true);
    const direct = await findDirectPort(echo.pid, "/", (res, body) => res.status === 404 && body === "Not found");
    const paths = [["echo via wrangler", `ws://127.0.0.1:${ECHO_PORT}`]];
    if (direct) paths.push(["echo direct", `ws://127.0.0.1:${direct}`]);
    for (const [label, wsBase] of paths) {
      for (const scenario of scenarios) {
        results.push(
          await runScenario(label, scenario, (r) => ({
            url: `${wsBase}/parties/echo-room/${label.replace(/\W+/g, "-")}-${scenario.rooms}-${r}`,
            headers: {},
          })),
        );
      }
    }
  } finally {
    stopEcho();
  }
}

console.log(
  `\nStoryWeave realtime bench — ${SENDERS_PER_ROOM} senders per room × ${MESSAGES_PER_SENDER} changes at ${1000 / SEND_INTERVAL_MS}/s\n`,
);
console.log(
  `${"target".padEnd(26)}${"scenario".padEnd(24)}${"delivered/expected".padEnd(22)}${"lost".padEnd(6)}${"p50".padEnd(11)}${"p99".padEnd(11)}max`,
);
for (const r of results) {
  console.log(
    `${r.target.padEnd(26)}${r.scenario.padEnd(24)}${`${r.delivered}/${r.expected}`.padEnd(22)}${String(r.lost).padEnd(6)}${ms(r.p50).padEnd(11)}${ms(r.p99).padEnd(11)}${ms(r.max)}`,
  );
}
if (cotyping) {
  const c = cotyping;
  console.log(`\n${c.scenario}`);
  console.log(
    `  typed ${c.typed} characters in ${c.seconds.toFixed(1)} s; lost ${c.lost} (in D1 after settling: ${c.lostInD1}); converged: ${c.converged ? "yes" : "NO"}`,
  );
  console.log(`  convergence per keystroke: p50 ${ms(c.convergenceP50)}, p99 ${ms(c.convergenceP99)}, max ${ms(c.convergenceMax)}`);
  console.log(
    `  D1: ${c.d1.characters} typed characters, ${c.d1.wordCount} words, ${c.d1.sameAsWriters ? "the same text as every writer's" : "NOT the writers' text"} (read ${ms(c.d1.settledAfterMs)} after the last writer left)`,
  );
  console.log(
    `  1-minute load average: ${c.load.before.toFixed(2)} as typing started, ${c.load.after.toFixed(2)} as it ended (${cpus().length} cores)`,
  );
}
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/bench-realtime.json", JSON.stringify({ relay: results, cotyping, loadavg: loadavg() }, null, 2));
console.log("\nwritten to test-results/bench-realtime.json");
const cotypingFailed = cotyping && (cotyping.lost > 0 || cotyping.lostInD1 > 0 || !cotyping.converged || !cotyping.d1.sameAsWriters);
process.exit(results.some((r) => r.lost > 0) || cotypingFailed ? 1 : 0);
