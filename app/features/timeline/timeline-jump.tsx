import { useState } from "react";
import type { EventView } from "../../../worker/services/events";

/** 'Jump to event': the view's events whose title matches, the chosen one scrolled into the window. */
export function TimelineJump({
  events,
  complete,
  onJump,
}: {
  /** The view's events, in the order shown. */
  events: EventView[];
  complete: boolean;
  onJump: (event: EventView) => void;
}) {
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const matches = needle ? events.filter((e) => e.title.toLowerCase().includes(needle)).slice(0, 8) : [];
  const jumpTo = (event: EventView) => {
    setQuery("");
    onJump(event);
  };
  return (
    <form
      aria-label="Jump to event"
      className="relative w-full max-w-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (matches[0]) jumpTo(matches[0]);
      }}
    >
      <label htmlFor="jump-to-event" className="sr-only">
        Jump to event
      </label>
      <input
        id="jump-to-event"
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder="Jump to event"
        autoComplete="off"
        className="h-9 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
      />
      {needle ? (
        <ul aria-label="Matching events" className="absolute z-20 mt-1 w-full rounded-md border border-stone-200 bg-white p-1 shadow-lg">
          {matches.length === 0 ? (
            <li className="px-2 py-1.5 text-sm text-stone-600">{complete ? "No matching event" : "Loading events..."}</li>
          ) : (
            matches.map((e) => (
              <li key={e.id}>
                <button
                  type="button"
                  onClick={() => jumpTo(e)}
                  className="w-full truncate rounded px-2 py-1.5 text-left text-sm hover:bg-brand-50"
                >
                  {e.title}
                </button>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </form>
  );
}
