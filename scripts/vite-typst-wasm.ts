import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

// Typst's WebAssembly (the print-ready PDF's typesetter) is 28 MB: over the 25 MiB a Workers static asset may be.
// Gzipped it is 11 MB, so the build ships it gzipped and the browser inflates it (DecompressionStream) when the
// print dialog first typesets. `virtual:typst-compiler-wasm` is that file's URL; the dev server serves the same.

const ID = "virtual:typst-compiler-wasm";
const RESOLVED = `\0${ID}`;
const DEV_PATH = "/@storyweave/typst-compiler.wasm.gz";

let gzipped: Buffer | undefined;
function compressed() {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("@myriaddreamin/typst-ts-web-compiler/wasm"));
  gzipped ??= gzipSync(wasm, { level: 9 });
  return gzipped;
}

export function typstWasm(): Plugin {
  let serving = false;
  return {
    name: "storyweave:typst-wasm",
    configResolved(config) {
      serving = config.command === "serve";
    },
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return;
      // The server never typesets: only the browser's build carries the file.
      if (this.environment.name !== "client") return "export default '';";
      if (serving) return `export default ${JSON.stringify(DEV_PATH)};`;
      const ref = this.emitFile({ type: "asset", name: "typst-compiler.wasm.gz", source: compressed() });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
    configureServer(server) {
      server.middlewares.use(DEV_PATH, (_req, res) => {
        res.setHeader("Content-Type", "application/gzip");
        res.end(compressed());
      });
    },
  };
}
