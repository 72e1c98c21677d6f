/**
 * The service worker's runtime caches of the signed-in writer's pages and loader data. Named at build time (Workbox
 * generateSW), so not per account: they are deleted at logout and when another account signs in (service-worker.ts).
 */
export const PAGE_CACHE = "storyweave-pages";
export const DATA_CACHE = "storyweave-data";
/** The client data layer's kept lists and queued changes (outbox.ts). */
export const OUTBOX_DB = "storyweave-outbox";
/** When this device first showed each timeline's newest page (loader-seed.ts): forgotten with the pages. */
export const PAGES_SEEN = "storyweave-pages-seen";
