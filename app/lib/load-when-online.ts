/**
 * For a module loaded on demand (`React.lazy`) that every page may need, such as the toaster: when its file cannot be
 * fetched (no network, and the installed app's copy not yet on the device, e.g. the network went during a first
 * visit), the page goes on without it instead of failing whole, and asks again when the network returns.
 *
 * Chromium keeps a failed module load for the page's life (asked again, the same file fails at once), so with no
 * network and no service worker holding the page it is not asked for at all until the network is back: then it
 * loads in this page. A page the installed app's service worker holds asks at once (its copy answers offline).
 */
export function loadWhenOnline<T>(load: () => Promise<T>): () => Promise<T> {
  const online = () =>
    new Promise<void>((resolve) => {
      window.addEventListener("online", () => resolve(), { once: true });
    });
  const canFetch = () => navigator.onLine || Boolean(navigator.serviceWorker?.controller);
  const attempt = (): Promise<T> => (canFetch() ? load().catch(() => online().then(attempt)) : online().then(attempt));
  return attempt;
}
