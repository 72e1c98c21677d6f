import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Parallel end-to-end runs (different E2E_PORT) build into their own directories.
  buildDirectory: process.env.STORYWEAVE_BUILD_DIR ?? "build",
} satisfies Config;
