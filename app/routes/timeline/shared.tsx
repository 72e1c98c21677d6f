/** A share link (/timeline/shared/{code}): the timeline route's module, which reads the code from the params. */
export { ErrorBoundary, action, default, loader, meta, shouldRevalidate } from "./detail";
