import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { isOnline } from "./outbox";

/**
 * When a list from the page's loader counts as read (a query's `initialDataUpdatedAt`): now online; with no network,
 * before anything (0), so the list kept on the device wins when it is restored (the page itself is the service
 * worker's copy, maybe older).
 */
const seedUpdatedAt = () => (isOnline() ? undefined : 0);

/**
 * A timeline's list that the page's loader brings (its plotlines, chapters, codex) and a TanStack query keeps.
 * The loader's list is the query's initial data, on the server too: the first paint has it, nothing is fetched at
 * mount, and no cache is written while rendering. A later list from the loader (a reload of the route's data: an
 * import, say) is written into the query. With no network the page is the copy last seen: the list kept on the
 * device (the outbox's) is as new or newer, and stays.
 */
export function loaderSeed<T>(keyOf: (timelineId: number) => QueryKey) {
  const seeds = new Map<number, T>();
  return {
    /** The query's options that start it from the loader's list. */
    initial: (timelineId: number) => ({ initialData: () => seeds.get(timelineId), initialDataUpdatedAt: seedUpdatedAt }),
    /** The screen's list from its loader (none: the loader did not bring it, the query fetches it). */
    useLoaded(timelineId: number, loaded: T | undefined) {
      const queryClient = useQueryClient();
      if (loaded !== undefined) seeds.set(timelineId, loaded);
      useEffect(() => {
        if (loaded === undefined || !isOnline()) return;
        const key = keyOf(timelineId);
        // The same list as the query's (its initial data, at mount): nothing to write, nothing re-renders.
        if (queryClient.getQueryData(key) !== loaded) queryClient.setQueryData(key, loaded);
      }, [queryClient, timelineId, loaded, keyOf]);
    },
  };
}
