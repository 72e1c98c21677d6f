import { forgetAllLocalDocs } from "~/lib/offline-docs";
import { DATA_CACHE, OUTBOX_DB, PAGE_CACHE, PAGES_SEEN } from "./cache-names";
import { forgetRefused } from "./not-saved-store";

// The installable app's service worker (/sw.js, built by build-sw.ts): registered on every page of the production
// build; the caches it keeps of the signed-in writer's pages are deleted at logout and when another account signs in.

/** Registers /sw.js once the page has loaded (production only: dev serves modules Vite rebuilds). */
export function registerServiceWorker() {
  if (import.meta.env.DEV || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {
    // No service worker (private mode, blocked): the app works online as before.
  });
}

/** Logout: the pages and loader data the service worker kept of this account. The app's own code stays. */
export async function forgetCachedPages() {
  try {
    localStorage.removeItem(PAGES_SEEN);
  } catch {
    // Storage unavailable: nothing was kept there.
  }
  if (typeof caches === "undefined") return;
  const names = await caches.keys().catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name === PAGE_CACHE || name === DATA_CACHE).map((name) => caches.delete(name)));
}

/** The client data layer's kept lists and queued changes (loaded on demand: the outbox is not first-paint code). */
const forgetOutbox = () => import("./outbox").then((m) => m.forgetOutbox()).catch(() => undefined);

/**
 * Whose pages, loader data and scene copies this browser keeps: an account id, NOBODY after a logout (all deleted),
 * none when not known. Workbox's generated worker names its caches at build time and cannot tell accounts apart,
 * so the caches are one account's by this mark instead: when a page shows another account signed in (a session
 * that ended without Logout, e.g. expired or signed out elsewhere), the previous account's copies go first.
 */
const DEVICE_ACCOUNT = "storyweave-device-account";
const NOBODY = "";

function deviceAccount() {
  try {
    return { held: localStorage.getItem(DEVICE_ACCOUNT) };
  } catch {
    return null; // storage unavailable (private mode): nothing to compare with
  }
}

function markDevice(value: string) {
  try {
    localStorage.setItem(DEVICE_ACCOUNT, value);
  } catch {
    // Storage unavailable: the next page compares again.
  }
}

/**
 * Every signed-in page: the copies belong to `userId` from now on. Another account's (or copies kept before the
 * mark existed: pages only, scene copies may hold this writer's unsent text) are deleted first.
 */
export async function claimDeviceFor(userId: number) {
  const device = deviceAccount();
  const me = String(userId);
  if (!device || device.held === me) return;
  if (device.held === null) await forgetCachedPages();
  else if (device.held !== NOBODY) {
    forgetRefused();
    await Promise.all([forgetCachedPages(), forgetAllLocalDocs(), forgetOutbox()]);
  }
  markDevice(me);
}

/** Logout: everything was deleted, so the next account to sign in starts from nothing and need not clear again. */
export async function releaseDevice() {
  forgetRefused();
  await Promise.all([forgetAllLocalDocs(), forgetCachedPages(), forgetOutbox()]);
  markDevice(NOBODY);
}

/**
 * Changes this account queued on the device (the outbox) are sent from whatever page is open, not only from a
 * timeline screen: restored on every signed-in page once the device is this account's. The outbox's code loads only
 * when something was kept.
 */
export async function resumeKeptChanges(userId: number) {
  if (typeof indexedDB === "undefined") return;
  const listed = typeof indexedDB.databases === "function" ? await indexedDB.databases().catch(() => null) : null;
  if (listed && !listed.some((d) => d.name === OUTBOX_DB)) return;
  const { resumeOutbox } = await import("./resume-outbox");
  await resumeOutbox(userId);
}
