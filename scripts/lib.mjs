import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const bin = path.resolve("node_modules/.bin");

/**
 * Environment for every wrangler/vite/vitest run: the machine may be offline, so wrangler sends no
 * metrics and workerd/miniflare does not fetch the request.cf data (cf.json).
 */
export const offlineEnv = {
  ...process.env,
  // The project's own Node 24 and tools first, even when a script is started directly.
  PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: "inherit", env: offlineEnv, ...opts });
  if (res.status !== 0 && !opts.allowFailure) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${res.status})`);
    process.exit(res.status ?? 1);
  }
  return res;
}

export function readDevVars(path = ".dev.vars") {
  if (!existsSync(path)) return {};
  const vars = {};
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = line.match(/^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}
