/**
 * For a module loaded on demand (`React.lazy`) that every page may need, such as the toaster: when its file cannot be
 * fetched (no network, and the installed app's copy not yet on the device, e.g. the network went during a first
 * visit), the page goes on without it instead of failing whole, and asks again when the network returns (Chromium
 * keeps a failed module load for the page's life, so there it comes with the next page).
 */
export function loadWhenOnline<T>(load: () => Promise<T>): () => Promise<T> {
  const attempt = (): Promise<T> =>
    load().catch(
      () =>
        new Promise<T>((resolve) => {
          window.addEventListener("online", () => resolve(attempt()), { once: true });
        }),
    );
  return attempt;
}
