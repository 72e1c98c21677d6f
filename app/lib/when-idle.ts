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

/**
 * Runs `run` now when the browser is online, else once it is back online (a chunk or a fetch asked for while
 * offline only fails). Returns a cancel.
 */
export function whenOnline(run: () => void): () => void {
  if (navigator.onLine) {
    run();
    return () => undefined;
  }
  const back = () => {
    window.removeEventListener("online", back);
    run();
  };
  window.addEventListener("online", back);
  return () => window.removeEventListener("online", back);
}

/** `whenIdle`, then `whenOnline`: for code a page fetches after hydration. Returns a cancel. */
export function whenIdleOnline(run: () => void, timeout = 1000): () => void {
  let cancelOnline: (() => void) | null = null;
  const cancelIdle = whenIdle(() => {
    cancelOnline = whenOnline(run);
  }, timeout);
  return () => {
    cancelIdle();
    cancelOnline?.();
  };
}
