// Pieces of `npm run bench` that make it look like production from outside: a gzip step in front of
// `vite preview` (Cloudflare compresses text responses; vite preview does not), throughput with N
// connections (autocannon when installed), and Lighthouse mobile.
import { createRequire } from "node:module";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/** `name` from node_modules, else from $BENCH_TOOLS/node_modules (tools kept out of package.json). */
export async function loadTool(name) {
  try {
    return await import(name);
  } catch {}
  const dir = process.env.BENCH_TOOLS;
  if (!dir) return null;
  try {
    const require = createRequire(path.join(path.resolve(dir), "package.json"));
    return await import(pathToFileURL(require.resolve(name)).href);
  } catch {
    return null;
  }
}

const COMPRESSIBLE = /text\/|javascript|json|svg|xml/;

/**
 * A reverse proxy to `target` that gzips text answers when the client accepts gzip. `onResponse` (optional) is told
 * each answer sent: `{url, status, contentType, bytes}` (bytes as sent, after gzip).
 */
export function startGzipProxy(target, port, { onResponse } = {}) {
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers["accept-encoding"];
    // The page's writes say they come from the proxy's origin; at the edge the origin is the site's own, so the
    // server's cross-site check is told the target's.
    if (headers.origin === `http://127.0.0.1:${port}`) headers.origin = new URL(target).origin;
    try {
      const upstream = await fetch(target + req.url, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
        redirect: "manual",
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      const out = {};
      upstream.headers.forEach((value, key) => {
        if (!["content-encoding", "content-length", "transfer-encoding", "connection", "set-cookie"].includes(key)) out[key] = value;
      });
      const cookies = upstream.headers.getSetCookie();
      if (cookies.length) out["set-cookie"] = cookies;
      const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "") && COMPRESSIBLE.test(out["content-type"] ?? "") && body.length > 0;
      const payload = gzip ? gzipSync(body) : body;
      if (gzip) out["content-encoding"] = "gzip";
      if (upstream.status !== 304 && upstream.status !== 204) out["content-length"] = String(payload.length);
      res.writeHead(upstream.status, out);
      res.end(upstream.status === 304 ? undefined : payload);
      onResponse?.({
        url: req.url,
        status: upstream.status,
        contentType: out["content-type"],
        bytes: upstream.status === 304 ? 0 : payload.length,
      });
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  // WebSockets (the live room) pass through untouched, as behind Cloudflare: without them the page's socket
  // fails and shows a 'Connection Error' toast, which no real visit sees.
  server.on("upgrade", (req, socket, head) => {
    const { hostname, port: targetPort } = new URL(target);
    const upstream = net.connect(Number(targetPort), hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on("error", close);
    socket.on("error", close);
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) }),
    );
  });
}

/**
 * Requests per second against `url` with `connections` at once for `seconds` (autocannon if installed),
 * after a one-second warm-up at the same load that is not counted (steady state: the route's code compiled
 * and its caches filled, whichever URL is measured first).
 */
export async function throughput(url, headers, connections = 10, seconds = 6) {
  const autocannon = (await loadTool("autocannon"))?.default;
  if (autocannon) {
    await autocannon({ url, headers, connections, duration: 1 });
    const result = await autocannon({ url, headers, connections, duration: seconds });
    const bad = result.non2xx - (headers["If-None-Match"] ? result.requests.total : 0);
    if (result.errors || bad > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    return { rps: result.requests.average, p50: result.latency.p50, tool: "autocannon" };
  }
  // Fallback: `connections` closed loops of fetch (keep-alive) for the same time, after the same warm-up.
  const loops = async (ms, latencies) => {
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const start = performance.now();
          const res = await fetch(url, { headers });
          await res.arrayBuffer();
          if (!res.ok && res.status !== 304) throw new Error(`${url} → ${res.status}`);
          latencies.push(performance.now() - start);
        }
      }),
    );
  };
  await loops(1000, []);
  const latencies = [];
  await loops(seconds * 1000, latencies);
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: latencies[Math.floor(latencies.length / 2)], tool: "fetch loops" };
}

/**
 * Lighthouse's default (mobile, simulated throttling) performance run; the median of `runs` by score. A run
 * Lighthouse itself reports as failed (now and then NO_NAVSTART: its trace missed the navigation) is run again,
 * twice at most, instead of counting as a score of 0.
 */
export async function lighthouseMobile(lighthouseModule, launcher, url, extraHeaders, chromePath, runs = 3) {
  const lighthouse = lighthouseModule.default;
  const all = [];
  for (let attempt = 0; all.length < runs && attempt < runs + 2; attempt++) {
    const chrome = await launcher.launch({
      chromePath,
      chromeFlags: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
      ],
    });
    try {
      const { lhr } = await lighthouse(url, { port: chrome.port, onlyCategories: ["performance"], extraHeaders, logLevel: "error" });
      if (lhr.runtimeError) {
        console.warn(`lighthouse ${url}: ${lhr.runtimeError.code}, running it again`);
        continue;
      }
      all.push({
        performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
        tbt: lhr.audits["total-blocking-time"].numericValue,
        lcp: lhr.audits["largest-contentful-paint"].numericValue,
        fcp: lhr.audits["first-contentful-paint"].numericValue,
        cls: lhr.audits["cumulative-layout-shift"].numericValue,
        // Which element the LCP was (a snippet of its HTML), to know what to speed up.
        lcpElement: lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
      });
    } finally {
      await chrome.kill();
    }
  }
  all.sort((a, b) => a.performance - b.performance);
  return { ...all[Math.floor(all.length / 2)], runs: all };
}
