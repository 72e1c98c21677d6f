import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { Card } from "~/ui/card";
import { LazyFormattedText } from "~/ui/lazy-formatted-text";
import { client, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import type { EventPage, EventView } from "../../../worker/services/events";

/** Two cards a row from md up (one a row below, stacked inside the row): the window holds only nearby rows. */
const PER_ROW = 2;
const ROW_ESTIMATE = 110;
const GAP = 12;

/**
 * The home screen's Events section: title and content per event, windowed. The server sends
 * the first screenful and the count; the rest comes from the events API after hydration.
 */
export function HomeEvents({ timelineId, page }: { timelineId: number; page: EventPage }) {
  const [events, setEvents] = useState<EventView[]>(page.events);
  useEffect(() => {
    setEvents(page.events);
    if (page.events.length >= page.all) return;
    let current = true;
    unwrap(client.api.timelines[":id"].events.$get({ param: { id: String(timelineId) }, query: { order: "position" } }))
      .then((list) => current && setEvents(list))
      .catch(() => errorToast("Failed to fetch events"));
    return () => {
      current = false;
    };
  }, [page, timelineId]);

  const listRef = useRef<HTMLOListElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (top !== margin) setMargin(top);
  });
  const total = Math.max(events.length, page.all);
  const rows = Math.ceil(total / PER_ROW);
  const list = useWindowVirtualizer<HTMLLIElement>({
    count: rows,
    estimateSize: () => ROW_ESTIMATE,
    gap: GAP,
    overscan: 4,
    scrollMargin: margin,
    initialRect: { width: 1024, height: 900 },
  });
  const items = list.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const before = first ? first.start - margin : 0;
  const after = last ? Math.max(0, list.getTotalSize() - (last.end - margin)) : 0;

  return (
    <ol ref={listRef} aria-label="Events" className="flex flex-col gap-3" style={{ paddingTop: before, paddingBottom: after }}>
      {items.map((row) => (
        <li key={row.key} ref={list.measureElement} data-index={row.index} className="grid grid-cols-1 gap-3 md:grid-cols-2">
          {Array.from({ length: PER_ROW }, (_, k) => {
            const index = row.index * PER_ROW + k;
            if (index >= total) return null;
            const e = events[index];
            return e ? (
              <Card key={e.id} className="p-4" data-testid="home-event">
                <h3 dir="auto" className="font-semibold">
                  {e.title}
                </h3>
                <LazyFormattedText
                  id={`home-event-${e.id}-text`}
                  text={e.content}
                  headingLevel={4}
                  className="mt-1 text-sm break-words text-stone-700"
                />
              </Card>
            ) : (
              <div key={`pending-${index}`} aria-hidden="true" className="h-24 rounded-xl bg-stone-100" />
            );
          })}
        </li>
      ))}
    </ol>
  );
}
