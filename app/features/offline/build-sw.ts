// Builds /sw.js with Workbox (generateSW) over the client build: run by react-router.config.ts's buildEnd.
import { generateSW } from "workbox-build";

/** The runtime caches of pages and loader data: one account's, deleted at logout and when another signs in (service-worker.ts). */
export const PAGE_CACHE = "storyweave-pages";
export const DATA_CACHE = "storyweave-data";

export async function buildServiceWorker(clientDir: string) {
  const { count, size, warnings } = await generateSW({
    globDirectory: clientDir,
    swDest: `${clientDir}/sw.js`,
    // The app's code and styles, the icons; not the print typesetter's WebAssembly nor its book fonts (print only).
    globPatterns: ["assets/**/*.{js,css}", "favicon.svg", "icon-*.png", "manifest.webmanifest"],
    globIgnores: ["**/*typst*", "**/*.wasm", "**/typeset*"],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    // Vite's hashed file names already change with their content.
    dontCacheBustURLsMatching: /^assets\//,
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
    inlineWorkboxRuntime: true,
    sourcemap: false,
    navigateFallback: null,
    runtimeCaching: [
      {
        // Pages (not the sign-in pages, seen after logout): the network first; with none, the page as last seen at that address.
        urlPattern: ({ request, url }) =>
          request.mode === "navigate" && !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/auth/"),
        handler: "NetworkFirst",
        options: { cacheName: PAGE_CACHE, networkTimeoutSeconds: 8, cacheableResponse: { statuses: [200] } },
      },
      {
        // React Router's loader data of client-side navigations (`.data` requests), as last seen.
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.endsWith(".data") && !url.pathname.startsWith("/auth/"),
        handler: "NetworkFirst",
        options: { cacheName: DATA_CACHE, networkTimeoutSeconds: 8, cacheableResponse: { statuses: [200] } },
      },
    ],
  });
  for (const warning of warnings) console.warn(`sw.js: ${warning}`);
  console.log(`sw.js: ${count} files precached (${Math.round(size / 1024)} KiB)`);
}
