// Shared pieces of `npm run bench` and `npm run bench:realtime`: a production build served by
// `vite preview` on its own port and local D1 state (scripts/e2e-server.mjs), plus small stats.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { offlineEnv } from "./lib.mjs";

/**
 * The loopback ports workerd listens on under the process `rootPid` (vite preview / wrangler dev
 * start it). Connecting there skips the dev server's Node WebSocket bridge, which production does
 * not have. Linux only (reads `ss` and /proc); returns [] elsewhere.
 */
export function workerdPorts(rootPid) {
  const descends = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 20; i++) {
      if (p === rootPid) return true;
      try {
        p = Number(readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      } catch {
        return false;
      }
    }
    return false;
  };
  try {
    const out = execFileSync("ss", ["-ltnpH"], { encoding: "utf8" });
    return out
      .split("\n")
      .filter((l) => l.includes('"workerd"'))
      .map((l) => ({ port: Number(l.match(/127\.0\.0\.1:(\d+)/)?.[1]), pid: Number(l.match(/pid=(\d+)/)?.[1]) }))
      .filter((x) => x.port && descends(x.pid))
      .map((x) => x.port);
  } catch {
    return [];
  }
}

/** The workerd port under `rootPid` whose answer to `path` satisfies `accept(res, body)`. */
export async function findDirectPort(rootPid, path, accept) {
  for (const port of workerdPorts(rootPid)) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3000) });
      if (accept(res, await res.text())) return port;
    } catch {}
  }
  return null;
}

export async function startAppServer(port, extraVars = {}) {
  const child = spawn("node", ["scripts/e2e-server.mjs"], {
    env: { ...offlineEnv, E2E_PORT: String(port), E2E_EXTRA_VARS: JSON.stringify(extraVars) },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  await waitForUrl(`${base}/auth/login`, 240_000, child);
  return { base, stop, pid: child.pid };
}

/** Waits until `url` answers (any status with `anyStatus`, else 2xx). */
export async function waitForUrl(url, timeoutMs, child, anyStatus = false) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok || anyStatus) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/** Registers a writer through the API: returns the bearer token and the session cookie. */
export async function registerWriter(base, name) {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@bench.test`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ name, email, password: "bench-password-1" }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { token: body.token, user: body.user, cookie: `sw_session=${body.token}` };
}

export async function api(base, token, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return { res, json: text ? JSON.parse(text) : null, bytes: Buffer.byteLength(text) };
}

export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (n) => `${n.toFixed(1)} ms`;
export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Parses our Server-Timing header: d1;desc="statements=N roundtrips=M". */
export function d1Counts(res) {
  const m = res.headers.get("server-timing")?.match(/statements=(\d+) roundtrips=(\d+)/);
  return m ? { statements: Number(m[1]), roundTrips: Number(m[2]) } : null;
}
