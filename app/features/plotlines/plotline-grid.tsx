import {
  type CollisionDetection,
  DndContext,
  pointerWithin,
  rectIntersection,
  type DragEndEvent,
  DragOverlay,
  MeasuringStrategy,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { EventView } from "../../../worker/services/events";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import {
  CARD_HEIGHT,
  CELL_TOP,
  COLUMN_WIDTH,
  ColumnHeader,
  HEAD_HEIGHT,
  type DragData,
  type DropData,
  GridCard,
  GridCell,
  RowHeader,
} from "./grid-cell";
import { buildGrid, cellKey, cellName } from "./grid-model";
import { usePlotlines } from "./plotline-queries";
import { useGridKeyboard } from "./use-grid-keyboard";
import { type GridWriteProps, useGridWrites } from "./use-grid-writes";

const COLLAPSED_HEIGHT = 96; // px: a collapsed row shows its header only
const MIN_ROW_HEIGHT = CELL_TOP + CARD_HEIGHT + 8;

export type AddPreset = { chapterId: number | null; plotlineIds: number[]; where: string };

export type GridProps = GridWriteProps & {
  /** Already in the order to show and filtered. */
  events: EventView[];
  chapters: { id: number; title: string }[];
  onAdd: (preset: AddPreset) => void;
  onOpen: (event: EventView) => void;
};

/** The cell under the pointer (a card is smaller than a cell); else the one the card overlaps most. */
const underPointer: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length ? hits : rectIntersection(args);
};

/**
 * The Grid layout: plotlines as rows, chapters as columns. Windowed both ways (rows, columns, and the cards of a
 * tall cell), so a 1,000-scene book keeps only what is in view in the DOM. Editors drag a card to another cell
 * (pointer or touch), or pick it up with Space or Enter, choose a cell with the arrow keys and drop it with
 * Space or Enter (Escape cancels).
 */
export function PlotlineGrid(props: GridProps) {
  const { events, chapters, onAdd, onOpen } = props;
  // The plotlines (rows) and what the writer may do: the data layer's and the session's.
  const plotlines = usePlotlines();
  const { canEdit } = useTimelineSession();
  const id = useId();
  const writes = useGridWrites(props);
  const grid = useMemo(() => buildGrid(events, plotlines, chapters), [events, plotlines, chapters]);
  const { rows, columns, cells } = grid;
  const plotlineById = useMemo(() => new Map(plotlines.map((p) => [p.id, p])), [plotlines]);
  const [headerWidth, setHeaderWidth] = useState(160);
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 640px)");
    const apply = () => setHeaderWidth(wide.matches ? 160 : 112);
    apply();
    wide.addEventListener("change", apply);
    return () => wide.removeEventListener("change", apply);
  }, []);

  const counts = rows.map((row) => columns.map((column) => cells.get(cellKey(row.id, column.id))?.length ?? 0));
  const heights = rows.map((row, r) =>
    writes.collapsed.has(String(row.id ?? "none"))
      ? COLLAPSED_HEIGHT
      : Math.max(MIN_ROW_HEIGHT, CELL_TOP + Math.max(...counts[r]) * CARD_HEIGHT + 8),
  );
  const scrollRef = useRef<HTMLElement>(null);
  const rowWindow = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => heights[i],
    overscan: 2,
    initialRect: { width: 1024, height: 700 },
  });
  const columnWindow = useVirtualizer({
    count: columns.length,
    horizontal: true,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => COLUMN_WIDTH,
    overscan: 2,
    paddingStart: headerWidth,
    initialRect: { width: 1024, height: 700 },
  });
  const heightsKey = heights.join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows' heights (their cards, collapsed) are the trigger
  useLayoutEffect(() => rowWindow.measure(), [heightsKey, rowWindow]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the header's width is the trigger
  useLayoutEffect(() => columnWindow.measure(), [headerWidth, columnWindow]);

  const keys = useGridKeyboard({
    grid,
    scrollRef,
    rowWindow,
    headerWidth,
    canEdit,
    onOpen,
    setDragging: props.store.setDragging,
    move: writes.move,
  });
  const { stop, carry, announcement, drop, onCardKey, onGridKey, setActive } = keys;

  // Pointer and touch: dnd-kit. The store holds still (no one else's sync moves the card) until the drop.
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
  );
  const [dragged, setDragged] = useState<EventView | null>(null);
  const setDragging = props.store.setDragging;
  // Leaving the grid mid-move lets the list take the room's changes again.
  useEffect(() => () => setDragging(false), [setDragging]);
  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    setDragged(null);
    props.store.setDragging(false);
    const data = a.data.current as DragData | undefined;
    const to = over?.data.current as DropData | undefined;
    if (data && to) void drop(data.event, data.from, to.row, to.column);
  };

  const visibleRows = rowWindow.getVirtualItems();
  const visibleColumns = columnWindow.getVirtualItems();
  const scrollTop = rowWindow.scrollOffset ?? 0;
  const viewHeight = rowWindow.scrollRect?.height ?? 700;
  const width = columnWindow.getTotalSize();

  return (
    <DndContext
      id={id}
      sensors={sensors}
      collisionDetection={underPointer}
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={({ active: a }) => {
        setDragged((a.data.current as DragData).event);
        props.store.setDragging(true);
      }}
      onDragCancel={() => {
        setDragged(null);
        props.store.setDragging(false);
      }}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active: a }) => `Picked up ${(a.data.current as DragData).event.title}.`,
          onDragOver: ({ over }) => (over ? `Over ${(over.data.current as DropData).name}.` : "Not over a cell."),
          onDragEnd: () => "",
          onDragCancel: () => "Move cancelled.",
        },
      }}
    >
      <p className="sr-only" aria-live="assertive" data-testid="grid-announcement">
        {announcement}
      </p>
      <section
        ref={scrollRef}
        tabIndex={-1}
        onKeyDown={onGridKey}
        aria-label="Plotline grid"
        className="relative max-h-[75vh] overflow-auto overscroll-x-contain rounded-xl border border-stone-200 bg-white focus-visible:outline-2 focus-visible:outline-brand-500"
        data-testid="grid-scroll"
      >
        <table
          aria-label="Scenes by plotline and chapter"
          aria-describedby={`${id}-keys`}
          aria-rowcount={rows.length + 1}
          aria-colcount={columns.length + 1}
          className="block"
          style={{ width }}
        >
          <caption id={`${id}-keys`} className="sr-only">
            Plotlines as rows, chapters as columns. Arrow keys move between scenes, O opens one.
            {canEdit ? " Space or Enter picks a scene up; arrow keys choose a cell; Space or Enter drops it; Escape cancels." : ""}
          </caption>
          <thead className="sticky top-0 z-20 block">
            <tr aria-rowindex={1} className="relative flex" style={{ height: HEAD_HEIGHT, width }}>
              <th
                scope="col"
                aria-colindex={1}
                className="sticky left-0 z-30 flex shrink-0 items-center border-r border-b border-stone-200 bg-stone-100 px-2 text-left text-xs font-semibold text-stone-700"
                style={{ width: headerWidth }}
              >
                Plotline
              </th>
              {visibleColumns.map((v) => (
                <ColumnHeader
                  key={columns[v.index].id ?? "none"}
                  column={columns[v.index]}
                  index={v.index}
                  left={v.start}
                  canMove={canEdit && columns[v.index].id !== null}
                  first={v.index === 0}
                  last={v.index >= columns.length - 2}
                  onMove={(step) => void writes.moveChapter(columns[v.index].id as number, step)}
                />
              ))}
            </tr>
          </thead>
          <tbody className="relative block" style={{ height: rowWindow.getTotalSize() }}>
            {visibleRows.map((v) => {
              const row = rows[v.index];
              const collapsed = writes.collapsed.has(String(row.id ?? "none"));
              const plotline = row.id === null ? null : plotlineById.get(row.id);
              const total = new Set(columns.flatMap((c) => (cells.get(cellKey(row.id, c.id)) ?? []).map((e) => e.id))).size;
              // The cards of this row inside the vertical view (with a card's margin either side).
              const from = Math.floor((scrollTop - HEAD_HEIGHT - v.start - CELL_TOP) / CARD_HEIGHT) - 1;
              const to = Math.ceil((scrollTop + viewHeight - v.start - CELL_TOP) / CARD_HEIGHT) + 1;
              return (
                <tr
                  key={row.id ?? "none"}
                  aria-rowindex={v.index + 2}
                  className="absolute left-0 flex border-b border-stone-200"
                  style={{ top: v.start, height: heights[v.index], width }}
                  data-testid="grid-row"
                >
                  <RowHeader
                    row={row}
                    count={total}
                    collapsed={collapsed}
                    canMove={canEdit && plotline != null}
                    first={v.index === 0}
                    last={v.index >= rows.length - 2}
                    onToggle={() => writes.toggleRow(String(row.id ?? "none"))}
                    onMove={(step) => plotline && void writes.movePlotline(plotline, step)}
                  />
                  {collapsed
                    ? null
                    : visibleColumns.map((c) => {
                        const column = columns[c.index];
                        const list = cells.get(cellKey(row.id, column.id)) ?? [];
                        const name = cellName(row, column);
                        return (
                          <GridCell
                            key={column.id ?? "none"}
                            id={cellKey(row.id, column.id)}
                            rowIndex={v.index}
                            columnIndex={c.index}
                            left={c.start}
                            name={name}
                            targeted={carry?.target.row === v.index && carry.target.column === c.index}
                            canEdit={canEdit}
                            onAdd={() => onAdd({ chapterId: column.id, plotlineIds: row.id === null ? [] : [row.id], where: name })}
                          >
                            {list.slice(Math.max(0, from), Math.max(0, to)).map((event, i) => {
                              const index = Math.max(0, from) + i;
                              const spot = { row: v.index, column: c.index, eventId: event.id };
                              return (
                                <GridCard
                                  key={event.id}
                                  event={event}
                                  row={row}
                                  rowIndex={v.index}
                                  columnIndex={c.index}
                                  top={CELL_TOP + index * CARD_HEIGHT}
                                  plotlines={plotlineById}
                                  canEdit={canEdit}
                                  tabbable={stop?.row === v.index && stop.column === c.index && stop.eventId === event.id}
                                  carried={carry?.event.id === event.id}
                                  onKeyDown={(e) => onCardKey(e, spot, event)}
                                  onFocus={() => setActive(spot)}
                                  onOpen={() => onOpen(event)}
                                />
                              );
                            })}
                          </GridCell>
                        );
                      })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <DragOverlay>
        {dragged ? (
          <div
            className="w-44 rounded-md border border-brand-300 bg-white p-2 text-sm font-medium shadow-lg"
            data-testid="grid-drag-overlay"
          >
            {dragged.title}
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
