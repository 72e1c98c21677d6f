import type { Config } from "@react-router/dev/config";
import { buildServiceWorker } from "./app/features/offline/build-sw";

export default {
  ssr: true,
  // Parallel end-to-end runs (different E2E_PORT) build into their own directories.
  buildDirectory: process.env.STORYWEAVE_BUILD_DIR ?? "build",
  // The installable app's service worker (/sw.js), over the finished client build.
  async buildEnd({ reactRouterConfig }) {
    await buildServiceWorker(`${reactRouterConfig.buildDirectory}/client`);
  },
} satisfies Config;
