// Which sources the bytes of a built chunk come from (each source's share, raw and gzipped), from its source map.
// Build with `BUILD_SOURCEMAP=1 npx react-router build`, then: node scripts/chunk-sources.mjs build/client/assets/<chunk>.js
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { decodeSegment } from "./source-map-vlq.mjs";
const [file] = process.argv.slice(2);
const code = readFileSync(file, "utf8");
const map = JSON.parse(readFileSync(file + ".map", "utf8"));
const lines = code.split("\n");
const per = new Map();
let src = 0;
map.mappings.split(";").forEach((line, li) => {
  let col = 0;
  const segs = line ? line.split(",") : [];
  const parsed = [];
  for (const seg of segs) {
    const vals = decodeSegment(seg);
    col += vals[0];
    if (vals.length > 1) src += vals[1];
    parsed.push([col, vals.length > 1 ? src : null]);
  }
  const text = lines[li] ?? "";
  parsed.forEach(([c, s], i) => {
    const end = i + 1 < parsed.length ? parsed[i + 1][0] : text.length;
    const name = s === null ? "?" : map.sources[s];
    per.set(name, (per.get(name) ?? "") + text.slice(c, end));
  });
});
const rows = [...per].map(([n, t]) => [n, t.length, gzipSync(t).length]).sort((a, b) => b[1] - a[1]);
for (const [n, raw, gz] of rows.slice(0, 40)) console.log(String(raw).padStart(7), String(gz).padStart(6), n);
