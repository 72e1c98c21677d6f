/**
 * Runs `run` once the browser is idle, and within `timeout` ms however busy the page is (a timer where
 * requestIdleCallback is missing). For code a hydrated page loads but does not need at once: each piece waits
 * for a quiet moment instead of all of them lengthening the first task after hydration. Returns a cancel.
 */
export function whenIdle(run: () => void, timeout = 1000): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(run, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, Math.min(200, timeout));
  return () => window.clearTimeout(handle);
}

/** `whenIdle` as a promise (for `lazy(() => idle().then(() => import(…)))`). */
export const idle = (timeout = 1000) => new Promise<void>((resolve) => whenIdle(resolve, timeout));
