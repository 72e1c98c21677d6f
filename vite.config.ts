import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

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
  ],
  resolve: { tsconfigPaths: true },
  // Listed up front so the dev server does not re-optimize (and reload) mid-session.
  optimizeDeps: { include: clientDeps },
  environments: {
    ssr: { optimizeDeps: { include: clientDeps } },
  },
  server: { host: "127.0.0.1" },
});
