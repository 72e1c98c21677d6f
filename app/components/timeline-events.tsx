import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  horizontalListSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { memo, useCallback, useId, useRef } from "react";
import { type CardCodex, DragHandleIcon, EventCard, type EventChanges, type SaveResult } from "~/components/event-card";
import { cn } from "~/lib/cn";
import type { EventView } from "../../worker/services/events";

export type Layout = "vertical" | "horizontal";

type Props = {
  events: EventView[];
  layout: Layout;
  canEdit: boolean;
  /** False in chronological order or while filtered: the cards cannot be dragged. */
  canReorder?: boolean;
  canDelete: boolean;
  codex: CardCodex;
  editedByOthers?: (eventId: number) => boolean;
  onMove: (eventId: number, from: number, to: number) => void;
  onSave: (event: EventView, changes: EventChanges) => Promise<SaveResult>;
  onDelete: (event: EventView) => void;
  onTyping?: (event: EventView, change: { type: "title" | "content"; value: string }) => void;
};

export function TimelineEvents({
  events,
  layout,
  canEdit,
  canReorder = true,
  canDelete,
  codex,
  editedByOthers,
  onMove,
  onSave,
  onDelete,
  onTyping,
}: Props) {
  // A stable id keeps dnd-kit's aria-describedby the same on the server and in the browser.
  const dndId = useId();
  // Cards are memoized (a timeline can hold 1,000 events; presence and typing updates re-render the
  // screen often), so they get stable callbacks that always reach the latest handlers.
  const latest = useRef({ onSave, onDelete, onTyping });
  latest.current = { onSave, onDelete, onTyping };
  const save = useCallback<CardProps["onSave"]>((event, changes) => latest.current.onSave(event, changes), []);
  const remove = useCallback<CardProps["onDelete"]>((event) => latest.current.onDelete(event), []);
  const typing = useCallback<NonNullable<CardProps["onTyping"]>>((event, change) => latest.current.onTyping?.(event, change), []);
  const ids = events.map((e) => e.id);
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>((event, args) => oneStep(event, args, idsRef.current), []);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );
  const titleOf = (id: unknown) => events.find((e) => e.id === id)?.title ?? "event";
  const positionOf = (id: unknown) => ids.indexOf(id as number) + 1;

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}. It is at position ${positionOf(active.id)} of ${ids.length}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} moved to position ${positionOf(over.id)} of ${ids.length}.`
        : `${titleOf(active.id)} is no longer over a position.`,
    onDragEnd: ({ active, over }) =>
      over ? `${titleOf(active.id)} dropped at position ${positionOf(over.id)} of ${ids.length}.` : `${titleOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Reordering cancelled. ${titleOf(active.id)} returned to position ${positionOf(active.id)}.`,
  };

  function handleDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(active.id as number);
    const to = ids.indexOf(over.id as number);
    if (from < 0 || to < 0) return;
    onMove(active.id as number, from, to);
  }

  const vertical = layout === "vertical";
  return (
    <DndContext
      id={dndId}
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={handleDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            "To reorder an event, press space or enter to pick it up. Use the arrow keys to move it, then space or enter to drop it, or escape to cancel.",
        },
      }}
    >
      <SortableContext items={ids} strategy={vertical ? verticalListSortingStrategy : horizontalListSortingStrategy}>
        <div className={cn("relative", vertical ? "" : "overflow-x-auto pb-4")}>
          <div
            aria-hidden="true"
            className={cn(
              "absolute bg-brand-100",
              vertical ? "top-0 bottom-0 left-4 w-1 md:left-1/2 md:-ml-0.5" : "top-1/2 right-0 left-0 h-1",
            )}
          />
          <ol className={cn("relative", vertical ? "space-y-6" : "flex min-w-max gap-6 py-4")} aria-label="Events">
            {events.map((event, index) => (
              <SortableEvent
                key={event.id}
                event={event}
                index={index}
                vertical={vertical}
                canEdit={canEdit}
                canReorder={canEdit && canReorder}
                canDelete={canDelete}
                codex={codex}
                editedByOthers={editedByOthers?.(event.id) ?? false}
                onSave={save}
                onDelete={remove}
                onTyping={onTyping ? typing : undefined}
              />
            ))}
          </ol>
        </div>
      </SortableContext>
    </DndContext>
  );
}

const steps: Record<string, number> = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 };

/**
 * Arrow keys move a lifted event exactly one place in timeline order. (dnd-kit's default picks the
 * nearest card on screen in that direction, which in the alternating layout skips a place.)
 */
function oneStep(event: KeyboardEvent, args: Parameters<KeyboardCoordinateGetter>[1], ids: number[]) {
  const step = steps[event.code];
  const { active, over, collisionRect, droppableRects } = args.context;
  if (!step || !active || !collisionRect) return sortableKeyboardCoordinates(event, args);
  event.preventDefault();
  const from = ids.indexOf(Number(over?.id ?? active.id));
  const target = ids[from + step];
  const rect = target === undefined ? undefined : droppableRects.get(target);
  if (!rect) return undefined;
  // Centre the lifted card on the target so closest-center collision picks it.
  return {
    x: rect.left + (rect.width - collisionRect.width) / 2,
    y: rect.top + (rect.height - collisionRect.height) / 2,
  };
}

type CardProps = {
  event: EventView;
  index: number;
  vertical: boolean;
  canEdit: boolean;
  canReorder: boolean;
  canDelete: boolean;
  codex: CardCodex;
  editedByOthers: boolean;
  onSave: Props["onSave"];
  onDelete: Props["onDelete"];
  onTyping?: NonNullable<Props["onTyping"]>;
};

const SortableEvent = memo(function SortableEvent({
  event,
  index,
  vertical,
  canEdit,
  canReorder,
  canDelete,
  codex,
  editedByOthers,
  onSave,
  onDelete,
  onTyping,
}: CardProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: event.id,
    disabled: !canReorder,
  });
  const left = index % 2 === 0;
  const style = { transform: CSS.Transform.toString(transform), transition };
  const handle = canReorder ? (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={`Reorder ${event.title}`}
      className="mt-0.5 cursor-grab touch-none rounded p-1 text-stone-500 hover:bg-stone-100 active:cursor-grabbing"
    >
      <DragHandleIcon />
    </button>
  ) : null;

  return (
    <li
      ref={setNodeRef}
      style={style}
      className={cn(
        "relative",
        isDragging && "z-10 opacity-80",
        vertical ? cn("pl-10 md:w-1/2 md:pl-0", left ? "md:pr-8" : "md:ml-auto md:pl-8") : cn("w-72", left ? "mb-32" : "mt-32"),
      )}
      data-position={index}
    >
      <span
        aria-hidden="true"
        className={cn(
          "absolute h-3 w-3 rounded-full border-2 border-white bg-brand-600 shadow",
          vertical
            ? cn("top-5 left-[11px]", left ? "md:right-[-6px] md:left-auto" : "md:left-[-6px]")
            : cn("left-1/2 -ml-1.5", left ? "-bottom-[4.4rem]" : "-top-[4.4rem]"),
        )}
      />
      <EventCard
        event={event}
        canEdit={canEdit}
        canDelete={canDelete}
        codex={codex}
        editedByOthers={editedByOthers}
        dragHandle={handle}
        onSave={(changes) => onSave(event, changes)}
        onDelete={() => onDelete(event)}
        onTyping={onTyping ? (change) => onTyping(event, change) : undefined}
      />
    </li>
  );
});

export { arrayMove };
