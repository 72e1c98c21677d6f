import { DATA_CACHE, PAGE_CACHE } from "./cache-names";

// The installable app's service worker (/sw.js, built by build-sw.ts): registered on every page of the production
// build; the caches it keeps of the signed-in writer's pages are deleted at logout.

/** Registers /sw.js once the page has loaded (production only: dev serves modules Vite rebuilds). */
export function registerServiceWorker() {
  if (import.meta.env.DEV || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {
    // No service worker (private mode, blocked): the app works online as before.
  });
}

/** Logout: the pages and loader data the service worker kept of this account. The app's own code stays. */
export async function forgetCachedPages() {
  if (typeof caches === "undefined") return;
  const names = await caches.keys().catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name === PAGE_CACHE || name === DATA_CACHE).map((name) => caches.delete(name)));
}
