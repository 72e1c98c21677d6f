import { storySortKey } from "./story-date";

// The orders a timeline's events are shown in, for the server's first screenful and the browser's lists alike.

/** How many events a server render carries: the first screenful (the rest comes from the API after hydration). */
export const FIRST_SCREEN_EVENTS = 24;

type Ordered = { id: number; position: number; storyStart: string | null };

/**
 * Chronological order: by the story start's sort key, undated last, then story order. The database sorts by the
 * same key (`events.story_sort`, written with `storySortKey`), so a list sorted here matches the server's.
 */
export function sortChronologically<T extends Ordered>(list: T[]): T[] {
  const keyed = list.map((event) => ({ event, key: storySortKey(event.storyStart) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else if (a.key !== b.key) return a.key - b.key;
    return a.event.position - b.event.position || a.event.id - b.event.id;
  });
  return keyed.map((k) => k.event);
}
