import { useDraggable, useDroppable } from "@dnd-kit/core";
import { ChevronDown, ChevronLeft, ChevronRight, ChevronUp, Plus } from "lucide-react";
import type { KeyboardEvent, ReactNode } from "react";
import { cn } from "~/lib/cn";
import { SceneStatusBadge } from "~/features/timeline/scene-status";
import type { EventView } from "../../../worker/services/events";
import type { PlotlineView } from "../../../worker/services/plotlines";
import type { GridColumn, GridRow } from "./grid-model";

export const COLUMN_WIDTH = 200; // px
export const HEAD_HEIGHT = 44; // px: the chapters' header row
export const CARD_HEIGHT = 76; // px: one compact card and its gap
export const CELL_TOP = 36; // px: room for the cell's '+' above its cards

/** The data a card carries while dragged: the scene and the row it was picked up from. */
export type DragData = { event: EventView; from: number | null };
/** The data a cell offers as a drop target. */
export type DropData = { row: number; column: number; name: string };

/** A compact card: title, story date and plotline chips; draggable (pointer and touch) for editors. */
export function GridCard({
  event,
  row,
  rowIndex,
  columnIndex,
  top,
  plotlines,
  canEdit,
  tabbable,
  carried,
  onKeyDown,
  onFocus,
  onOpen,
}: {
  event: EventView;
  row: GridRow;
  rowIndex: number;
  columnIndex: number;
  top: number;
  plotlines: Map<number, PlotlineView>;
  canEdit: boolean;
  tabbable: boolean;
  carried: boolean;
  onKeyDown: (e: KeyboardEvent) => void;
  onFocus: () => void;
  onOpen: () => void;
}) {
  const { setNodeRef, listeners, isDragging } = useDraggable({
    id: `${row.id ?? "none"}|${event.id}`,
    data: { event, from: row.id } satisfies DragData,
    disabled: !canEdit,
  });
  const chips = (event.plotlineIds ?? []).map((id) => plotlines.get(id)).filter((p): p is PlotlineView => Boolean(p));
  return (
    <button
      ref={setNodeRef}
      type="button"
      {...listeners}
      tabIndex={tabbable ? 0 : -1}
      data-card={`${rowIndex}:${columnIndex}:${event.id}`}
      data-testid="grid-card"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onClick={onOpen}
      className={cn(
        "absolute inset-x-2 flex h-[68px] touch-manipulation flex-col items-start gap-0.5 overflow-hidden rounded-md border border-stone-200 bg-white px-2 py-1.5 text-left text-sm shadow-sm hover:bg-stone-50",
        (isDragging || carried) && "opacity-40",
      )}
      style={{ top, borderLeft: `3px solid ${row.color}` }}
    >
      <span className="flex w-full min-w-0 items-center gap-1">
        <span className="min-w-0 flex-1 truncate font-medium">{event.title}</span>
        <SceneStatusBadge status={event.status} className="shrink-0 px-1.5 py-0 text-[10px]" />
      </span>
      {event.storyLabel || event.storyStart ? (
        <span className="w-full truncate text-xs text-stone-600">{event.storyLabel ?? event.storyStartDisplay ?? event.storyStart}</span>
      ) : null}
      {chips.length ? (
        <span className="flex w-full gap-1 overflow-hidden">
          <span className="sr-only">Plotlines: </span>
          {chips.map((p) => (
            <span
              key={p.id}
              className="truncate rounded px-1 text-[11px] leading-4 font-medium text-white"
              style={{ backgroundColor: p.color }}
            >
              {p.title}
            </span>
          ))}
        </span>
      ) : null}
    </button>
  );
}

/** A cell: a drop target for dragged cards, with its '+' (editors) and its cards. */
export function GridCell({
  id,
  rowIndex,
  columnIndex,
  left,
  name,
  targeted,
  canEdit,
  onAdd,
  children,
}: {
  id: string;
  rowIndex: number;
  columnIndex: number;
  left: number;
  name: string;
  /** The keyboard's drop target while a card is carried. */
  targeted: boolean;
  canEdit: boolean;
  onAdd: () => void;
  children: ReactNode;
}) {
  const { setNodeRef, isOver } = useDroppable({
    id,
    data: { row: rowIndex, column: columnIndex, name } satisfies DropData,
    disabled: !canEdit,
  });
  return (
    <td
      ref={setNodeRef}
      aria-colindex={columnIndex + 2}
      aria-label={name}
      data-cell={`${rowIndex}:${columnIndex}`}
      className={cn(
        "absolute top-0 h-full border-r border-stone-100",
        (isOver || targeted) && "bg-brand-50 ring-2 ring-brand-500 ring-inset",
      )}
      style={{ left, width: COLUMN_WIDTH }}
    >
      {canEdit ? (
        <button
          type="button"
          onClick={onAdd}
          aria-label={`Add a scene to ${name}`}
          title={`Add a scene to ${name}`}
          className="absolute top-1.5 right-2 rounded p-1 text-stone-500 hover:bg-stone-100 hover:text-stone-800"
        >
          <Plus aria-hidden="true" className="h-4 w-4" />
        </button>
      ) : null}
      {children}
    </td>
  );
}

const iconButton = "rounded p-0.5 text-stone-600 hover:bg-stone-200 disabled:opacity-30";

/** A row's header: the plotline's name and count, collapse, and (editors) move up and down. */
export function RowHeader({
  row,
  count,
  collapsed,
  canMove,
  first,
  last,
  onToggle,
  onMove,
}: {
  row: GridRow;
  count: number;
  collapsed: boolean;
  canMove: boolean;
  first: boolean;
  last: boolean;
  onToggle: () => void;
  onMove: (step: number) => void;
}) {
  return (
    <th
      scope="row"
      aria-colindex={1}
      className="sticky left-0 z-10 flex w-28 shrink-0 flex-col justify-start gap-1 border-r border-stone-200 bg-stone-50 px-2 py-2 text-left font-normal sm:w-40"
      style={{ borderLeft: `4px solid ${row.color}` }}
    >
      <span className="text-sm font-medium break-words">{row.title}</span>
      <span className="text-xs text-stone-600">
        {count} {count === 1 ? "scene" : "scenes"}
      </span>
      <span className="flex flex-wrap gap-0.5">
        <button
          type="button"
          aria-expanded={!collapsed}
          onClick={onToggle}
          className={iconButton}
          aria-label={`${collapsed ? "Expand" : "Collapse"} ${row.title}`}
        >
          {collapsed ? <ChevronRight aria-hidden="true" className="h-4 w-4" /> : <ChevronDown aria-hidden="true" className="h-4 w-4" />}
        </button>
        {canMove ? (
          <>
            <button type="button" disabled={first} onClick={() => onMove(-1)} className={iconButton} aria-label={`Move ${row.title} up`}>
              <ChevronUp aria-hidden="true" className="h-4 w-4" />
            </button>
            <button type="button" disabled={last} onClick={() => onMove(1)} className={iconButton} aria-label={`Move ${row.title} down`}>
              <ChevronDown aria-hidden="true" className="h-4 w-4" />
            </button>
          </>
        ) : null}
      </span>
    </th>
  );
}

/** A column's header: the chapter's title and (editors) move left and right. */
export function ColumnHeader({
  column,
  index,
  left,
  canMove,
  first,
  last,
  onMove,
}: {
  column: GridColumn;
  index: number;
  left: number;
  canMove: boolean;
  first: boolean;
  last: boolean;
  onMove: (step: number) => void;
}) {
  return (
    <th
      scope="col"
      aria-colindex={index + 2}
      className="absolute top-0 flex h-full items-center gap-1 border-r border-b border-stone-200 bg-stone-50 px-2 text-left text-sm font-semibold"
      style={{ left, width: COLUMN_WIDTH }}
    >
      <span className="min-w-0 flex-1 truncate">{column.title}</span>
      {canMove ? (
        <>
          <button type="button" disabled={first} onClick={() => onMove(-1)} className={iconButton} aria-label={`Move ${column.title} left`}>
            <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          </button>
          <button type="button" disabled={last} onClick={() => onMove(1)} className={iconButton} aria-label={`Move ${column.title} right`}>
            <ChevronRight aria-hidden="true" className="h-4 w-4" />
          </button>
        </>
      ) : null}
    </th>
  );
}
