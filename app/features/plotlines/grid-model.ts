import type { EventView } from "../../../worker/services/events";
import type { PlotlineView } from "../../../worker/services/plotlines";

/** A row of the grid: a plotline, or (null) the scenes in none. */
export type GridRow = { id: number | null; title: string; color: string };
/** A column of the grid: a chapter, or (null) the scenes in none. */
export type GridColumn = { id: number | null; title: string };

export const NO_PLOTLINE = "No plotline";
export const NO_CHAPTER = "No chapter";

export const cellKey = (row: number | null, column: number | null) => `${row ?? "none"}:${column ?? "none"}`;

/**
 * The plotline grid: rows are the plotlines in order and 'No plotline', columns the chapters in order and
 * 'No chapter'. A scene sits in the column of its chapter and in the row of each of its plotlines (so in
 * several rows when it is in several plotlines); each cell keeps the story order.
 */
export function buildGrid(events: EventView[], plotlines: PlotlineView[], chapters: { id: number; title: string }[]) {
  const rows: GridRow[] = [
    ...plotlines.map((p) => ({ id: p.id, title: p.title, color: p.color })),
    { id: null, title: NO_PLOTLINE, color: "#a8a29e" },
  ];
  const columns: GridColumn[] = [...chapters.map((c) => ({ id: c.id, title: c.title })), { id: null, title: NO_CHAPTER }];
  const knownRows = new Set(plotlines.map((p) => p.id));
  const knownColumns = new Set(chapters.map((c) => c.id));
  const cells = new Map<string, EventView[]>();
  for (const event of events) {
    const column = event.chapterId != null && knownColumns.has(event.chapterId) ? event.chapterId : null;
    const mine = (event.plotlineIds ?? []).filter((id) => knownRows.has(id));
    for (const row of mine.length ? mine : [null]) {
      const key = cellKey(row, column);
      const list = cells.get(key);
      if (list) list.push(event);
      else cells.set(key, [event]);
    }
  }
  return { rows, columns, cells };
}

export type Grid = ReturnType<typeof buildGrid>;

/**
 * A card moved from one row to a cell: its chapter becomes the cell's, and the source row's plotline is
 * replaced by the target row's (to 'No plotline': the source's is removed, the others stay).
 */
export function moveInGrid(event: EventView, from: number | null, to: { row: number | null; column: number | null }) {
  const kept = (event.plotlineIds ?? []).filter((id) => id !== from && id !== to.row);
  const plotlineIds = to.row === null ? kept : [...kept, to.row];
  return { chapterId: to.column, plotlineIds };
}

/** The words a screen reader hears for a cell: 'Main plot, Chapter 2'. */
export const cellName = (row: GridRow, column: GridColumn) => `${row.title}, ${column.title}`;
