import { useMemo, useRef } from "react";
import type { EventView } from "../../../worker/services/events";

/**
 * Attachments: the cards upload and remove on their own; the screen keeps the event list in step. One object for
 * the page's life: the room's headers are read when a card sends, so a (re)connection does not render every card again.
 */
export function useAttachmentsApi({
  shareCode,
  roomHeaders,
  events,
  patch,
}: {
  shareCode?: string | null;
  roomHeaders: Record<string, string>;
  events: EventView[];
  patch: (eventId: number, fields: (event: EventView) => Partial<EventView>) => void;
}) {
  const writeHeaders = useRef(roomHeaders);
  writeHeaders.current = roomHeaders;
  const eventsNow = useRef(events);
  eventsNow.current = events;
  return useMemo(
    () => ({
      shareCode,
      get roomHeaders() {
        return writeHeaders.current;
      },
      get scenes() {
        return eventsNow.current;
      },
      onChange: (eventId: number, update: (list: EventView["attachments"]) => EventView["attachments"]) =>
        patch(eventId, (e) => ({ attachments: update(e.attachments) })),
    }),
    [shareCode, patch],
  );
}
