import { useMemo, useRef } from "react";
import type { TimelineSession } from "~/features/timeline/timeline-session";
import type { EventView } from "../../../worker/services/events";

/**
 * Attachments: the cards upload and remove on their own; the screen keeps the event list in step. One object for
 * the page's life: the session's client reads the room connection when a card sends, so a (re)connection does not
 * render every card again.
 */
export function useAttachmentsApi({
  session,
  events,
  patch,
}: {
  session: TimelineSession;
  events: EventView[];
  patch: (eventId: number, fields: (event: EventView) => Partial<EventView>) => void;
}) {
  const eventsNow = useRef(events);
  eventsNow.current = events;
  return useMemo(
    () => ({
      shareCode: session.shareCode,
      client: session.client,
      get scenes() {
        return eventsNow.current;
      },
      onChange: (eventId: number, update: (list: EventView["attachments"]) => EventView["attachments"]) =>
        patch(eventId, (e) => ({ attachments: update(e.attachments) })),
    }),
    [session, patch],
  );
}
