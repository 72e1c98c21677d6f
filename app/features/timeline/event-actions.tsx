import { createContext, useContext, useMemo, useRef } from "react";
import type { EventChanges, SaveResult } from "~/features/timeline/event-card";
import type { EventView } from "../../../worker/services/events";

/**
 * What a card may do to its event, from context: the card's row calls `useEventActions()` instead of receiving
 * `onSave`/`onDelete` through the screen, the body and the list.
 */
export type EventActions = {
  /** Saves the card's changes (the store shows the server's answer; a failure is toasted). */
  save: (event: EventView, changes: EventChanges) => Promise<SaveResult>;
  /** Asks to delete: the screen's confirmation dialog opens for it. */
  askDelete: (event: EventView) => void;
};

export const EventActionsContext = createContext<EventActions | null>(null);

/** The timeline screen's event actions; a card outside the screen has none (its row says so at once). */
export function useEventActions(): EventActions {
  const actions = useContext(EventActionsContext);
  if (!actions) throw new Error("useEventActions is used outside the timeline screen");
  return actions;
}

/**
 * One object for the page's life whose functions reach the latest handlers: cards are memoized (a timeline can
 * hold 1,000 events) and must not render again when the screen does.
 */
export function useEventActionsValue(handlers: EventActions): EventActions {
  const latest = useRef(handlers);
  latest.current = handlers;
  return useMemo(
    () => ({
      save: (event, changes) => latest.current.save(event, changes),
      askDelete: (event) => latest.current.askDelete(event),
    }),
    [],
  );
}
