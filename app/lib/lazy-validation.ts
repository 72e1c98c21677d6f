/**
 * db/domain/validation brings zod (~25 KB gzipped). Screens that validate only when a writer submits load
 * it on first use (and prefetch it when a form opens) instead of with the page.
 */
export const loadValidation = () => import("../../db/domain/validation");
