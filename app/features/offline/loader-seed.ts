import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { PAGES_SEEN } from "./cache-names";

/** The newest page of each timeline this device has shown (PAGES_SEEN): when the server made it, when first shown. */
const PAGES_KEPT = 50;
/** This tab's answers, so the screen's re-renders do not read the storage again. */
const answered = new Map<string, number>();
type Seen = Record<string, { madeAt: number; seenAt: number }>;

/** What the device kept, leaving out any entry that is not two times (storage written by something else). */
function readSeen(): Seen {
  let parsed: unknown;
  try {
    parsed = JSON.parse(localStorage.getItem(PAGES_SEEN) ?? "{}");
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== "object") return {};
  const seen: Seen = {};
  for (const [id, page] of Object.entries(parsed)) {
    const { madeAt, seenAt } = (page ?? {}) as Record<string, unknown>;
    if (Number.isFinite(madeAt) && Number.isFinite(seenAt)) seen[id] = { madeAt: madeAt as number, seenAt: seenAt as number };
  }
  return seen;
}

/**
 * When this device first had the lists of a page the server made at `madeAt` (the device's clock, as the kept
 * lists' dates are): now for a page not seen before, the first showing's time for a page seen again (the service
 * worker's copy), and 0 for a page older than one already seen (older than anything kept since). The server's
 * clock is compared only with itself, so a device whose clock is off decides the same.
 */
function firstSeenAt(timelineId: number, madeAt: number): number {
  if (typeof window === "undefined") return madeAt;
  const asked = `${timelineId}:${madeAt}`;
  const known = answered.get(asked);
  if (known !== undefined) return known;
  const seenAt = firstSeenOnDevice(timelineId, madeAt);
  answered.set(asked, seenAt);
  return seenAt;
}

function firstSeenOnDevice(timelineId: number, madeAt: number): number {
  const seen = readSeen();
  const last = seen[timelineId];
  if (last && last.madeAt === madeAt) return last.seenAt;
  if (last && last.madeAt > madeAt) return 0;
  const seenAt = Date.now();
  seen[timelineId] = { madeAt, seenAt };
  const newest = Object.entries(seen)
    .sort(([, a], [, b]) => b.seenAt - a.seenAt)
    .slice(0, PAGES_KEPT);
  try {
    localStorage.setItem(PAGES_SEEN, JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // Storage unavailable (private mode): this page counts as new each time, as it is for this tab.
  }
  return seenAt;
}

/**
 * A timeline's list that the page's loader brings (its plotlines, chapters, codex) and a TanStack query keeps.
 * The loader's list is the query's initial data, on the server too: the first paint has it, nothing is fetched at
 * mount, and no cache is written while rendering. A later list from the loader (a reload of the route's data: an
 * import, say) is written into the query.
 *
 * Which is newer, the page's list or the one kept on the device (the outbox's, restored after mount), is decided by
 * when the device first had each (`firstSeenAt`), not by whether the network is up: a page the service worker kept
 * is older than a list kept after it was shown, and loses to it (`navigator.onLine` can say online on a Wi-Fi with
 * no internet, and the server's probe answers only later).
 */
export function loaderSeed<T>(keyOf: (timelineId: number) => QueryKey) {
  const seeds = new Map<number, { list: T; seenAt: number }>();
  return {
    /** The query's options that start it from the loader's list, dated when the device first had it. */
    initial: (timelineId: number) => ({
      initialData: () => seeds.get(timelineId)?.list,
      initialDataUpdatedAt: () => seeds.get(timelineId)?.seenAt,
    }),
    /**
     * The screen's list from its loader, which the server made at `madeAt` (its clock, ms; none: the loader did not
     * bring it, the query fetches it).
     */
    useLoaded(timelineId: number, loaded: T | undefined, madeAt: number) {
      const queryClient = useQueryClient();
      const seenAt = loaded === undefined ? 0 : firstSeenAt(timelineId, madeAt);
      if (loaded !== undefined) seeds.set(timelineId, { list: loaded, seenAt });
      useEffect(() => {
        if (loaded === undefined) return;
        const key = keyOf(timelineId);
        const held = queryClient.getQueryState(key);
        // The same list as the query's (its initial data, at mount): nothing to write, nothing re-renders. A list
        // the query got after this one (kept on the device, fetched, changed here) is newer: it stays.
        if (held?.data === loaded || (held && held.dataUpdatedAt > seenAt)) return;
        queryClient.setQueryData(key, loaded, { updatedAt: seenAt });
      }, [queryClient, timelineId, loaded, seenAt, keyOf]);
    },
  };
}
