/** The service worker's runtime caches of the signed-in writer's pages and loader data, deleted at logout. */
export const PAGE_CACHE = "storyweave-pages";
export const DATA_CACHE = "storyweave-data";
