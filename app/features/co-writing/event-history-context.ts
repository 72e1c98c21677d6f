import { createContext, useContext } from "react";
import type { EventView } from "../../../worker/services/events";

/**
 * What an event card's History needs from its screen (a context, so the memoized card lists need no
 * extra props): the share code for reads, and the screen's restore, which updates its own list.
 */
export type EventHistoryActions = {
  shareCode: string | null;
  /** POST /api/event-versions/{id}/restore; resolves with the event as it is now, or null when it failed (toasted). */
  restore: (versionId: number) => Promise<EventView | null>;
};

export const EventHistoryContext = createContext<EventHistoryActions | null>(null);

export const useEventHistory = () => useContext(EventHistoryContext);
