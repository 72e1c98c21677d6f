/** The event list's sizes: a row's and a card's estimated size, the gap, and the window the server assumes. */
export const GAP = 24;
export const ROW = 96;
export const CARD = 288;
/** What the server renders before it knows the window: a laptop screen (the first client render matches). */
export const INITIAL_RECT = { width: 1024, height: 900 };
export const OVERSCAN = { vertical: 6, horizontal: 4 };

/**
 * The rows a virtualizer renders before it has measured anything (rows of one estimated size, scrolled to the
 * top, in a viewport of the given size, plus the overscan): what the server renders for the event list, and what
 * the browser shows until @tanstack/react-virtual is here.
 */
export function firstRows(
  count: number,
  size: number,
  gap: number,
  overscan: number,
  viewport: number,
  margin: number,
  key: (index: number) => string | number,
) {
  const step = size + gap;
  const items = Array.from({ length: Math.min(count, Math.ceil(viewport / step) + overscan) }, (_, index) => {
    const start = margin + index * step;
    return { key: key(index), index, start, end: start + size };
  });
  return { items, total: count ? count * step - gap : 0 };
}
