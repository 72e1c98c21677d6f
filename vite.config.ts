import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { typstWasm } from "./scripts/vite-typst-wasm";

// Dev and build machines may be offline: without these, wrangler/workerd would try to send metrics,
// check for updates and fetch the request.cf data (cf.json) from the network.
process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

// The end-to-end suite builds with its own local state and vars (fake third parties on 127.0.0.1).
const e2eVars = process.env.STORYWEAVE_E2E_VARS ? JSON.parse(process.env.STORYWEAVE_E2E_VARS) : null;

const clientDeps = [
  "partysocket",
  "partysocket/react",
  "@dnd-kit/core",
  "@dnd-kit/sortable",
  "@dnd-kit/utilities",
  "radix-ui",
  "sonner",
  "lucide-react",
  "zod",
];
// Only imported by code that loads on demand in the browser (co-writing editor, History, the Map, export).
const lazyClientDeps = [
  "@dagrejs/dagre",
  "@handlewithcare/prosemirror-suggest-changes",
  "@tanstack/react-virtual",
  "@tiptap/core",
  "@tiptap/extension-collaboration",
  "@tiptap/extension-collaboration-caret",
  "@tiptap/extension-typography",
  "@tiptap/extensions",
  "@tiptap/markdown",
  "@tiptap/pm/state",
  "@tiptap/pm/transform",
  "@tiptap/pm/view",
  "@tiptap/react",
  "@tiptap/starter-kit",
  "@tiptap/y-tiptap",
  "@xyflow/react",
  "diff",
  "hono/client",
  "html-to-image",
  "y-indexeddb",
  "y-partyserver/provider",
  "yjs",
];

// a lazily loaded chunk's preload list leaves out what the importing chunk statically imports (it is
// loaded already by the time the import runs), so those lists stop adding bytes to the first page's JavaScript.
const staticImports = new Map<string, string[]>();
function loadedWith(host: string, seen = new Set<string>()) {
  if (seen.has(host)) return seen;
  seen.add(host);
  for (const dep of staticImports.get(host) ?? []) loadedWith(dep, seen);
  return seen;
}
const knownStaticImports: Plugin = {
  name: "storyweave:known-static-imports",
  applyToEnvironment: (environment) => environment.name === "client",
  generateBundle: {
    order: "pre",
    handler(_options, bundle) {
      for (const [fileName, output] of Object.entries(bundle)) if (output.type === "chunk") staticImports.set(fileName, output.imports);
    },
  },
};

// Node closes an idle keep-alive socket after 5 s; a test's next API call can meet that socket as it closes
// (ECONNRESET before the request reached the server). The end-to-end server keeps idle sockets longer than any
// test lasts, so a socket is never closed under a request that is being sent.
const longKeepAlive: Plugin = {
  name: "storyweave:e2e-long-keep-alive",
  configurePreviewServer(server) {
    const http = server.httpServer as { keepAliveTimeout?: number; headersTimeout?: number } | null;
    if (!http) return;
    http.keepAliveTimeout = 120_000;
    http.headersTimeout = 121_000;
  },
};

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      ...(e2eVars
        ? {
            persistState: { path: process.env.STORYWEAVE_STATE_DIR ?? ".wrangler/e2e-state" },
            config: (config) => ({ vars: { ...config.vars, ...e2eVars } }),
          }
        : {}),
    }),
    tailwindcss(),
    reactRouter(),
    knownStaticImports,
    typstWasm(),
    ...(e2eVars ? [longKeepAlive] : []),
  ],
  resolve: { tsconfigPaths: true },
  // Listed up front so the dev server does not re-optimize (and reload, losing what a writer typed) the first
  // time a lazily loaded screen (the editor, History, the Map) imports a dependency it had not seen yet.
  optimizeDeps: { include: [...clientDeps, ...lazyClientDeps] },
  environments: {
    ssr: { optimizeDeps: { include: clientDeps } },
  },
  server: { host: "127.0.0.1" },
  // The print dialog's typesetting worker is an ES module, like the rest of the client.
  worker: { format: "es" },
  build: {
    // BUILD_SOURCEMAP=1 maps the client's bytes to their sources (docs/testing.md: finding what first paint loads).
    sourcemap: process.env.BUILD_SOURCEMAP === "1",
    modulePreload: {
      resolveDependencies: (_file, deps, { hostId }) => {
        const loaded = loadedWith(hostId);
        return deps.filter((dep) => !loaded.has(dep));
      },
    },
  },
});
