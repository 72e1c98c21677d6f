/**
 * Drag and drop for the event list (dnd-kit), loaded when a pointer or the focus first reaches the list rather
 * than with the page: at 1,000 events its context and measuring were the largest part of the page's main-thread
 * work, and a reader who only scrolls never needs it. timeline-events.tsx renders the same rows without it
 * until then.
 */
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  useDndContext,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  horizontalListSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { EventView } from "../../../worker/services/events";
import type { RowStore } from "./timeline-row-store";

type SortableAreaProps = {
  id: string;
  events: EventView[];
  /** The events whose rows are in the DOM now (the window): each gets its sortable binding. */
  visibleIds: number[];
  /** Changes whenever rows move on the page without mounting or unmounting (a row measured, the space above it). */
  layout: string;
  canReorder: boolean;
  vertical: boolean;
  store: RowStore;
  onMove: (eventId: number, from: number, to: number) => void;
  onDragging?: (dragging: boolean) => void;
};

/**
 * Rendered beside the list, not around it, so adding it later remounts nothing (a card keeps its state and the
 * keyboard focus stays put): each visible row gets a binding that runs dnd-kit's sortable hook on the row's own
 * DOM node and hands the handle's listeners and the row's transform to the row through `store`.
 */
export function SortableArea({ id, events, visibleIds, layout, canReorder, vertical, store, onMove, onDragging }: SortableAreaProps) {
  const ids = events.map((e) => e.id);
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>((event, args) => oneStep(event, args, idsRef.current), []);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    // A keyboard step that takes the card past the middle of the window scrolls it at once: dnd-kit moves the card
    // as if the scroll were done, and a smooth scroll that the list's own scroll correction cut short (a row above
    // measured) left it between two rows, so the next step went back up.
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates, scrollBehavior: "auto" }),
  );
  const titleOf = (eventId: unknown) => events.find((e) => e.id === eventId)?.title ?? "event";
  const positionOf = (eventId: unknown) => ids.indexOf(eventId as number) + 1;
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

  // The dragged card may scroll out of the window and unmount: the overlay stands in for it meanwhile.
  const [activeId, setActiveId] = useState<number | null>(null);
  function handleDragEnd({ active, over }: DragEndEvent) {
    setActiveId(null);
    onDragging?.(false);
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(active.id as number);
    const to = ids.indexOf(over.id as number);
    if (from < 0 || to < 0) return;
    onMove(active.id as number, from, to);
  }
  const activeEvent = activeId === null ? null : events.find((e) => e.id === activeId);

  return (
    <DndContext
      id={id}
      sensors={sensors}
      collisionDetection={closestCenter}
      // Rows mount and unmount while a drag scrolls the list: measure the drop targets all along.
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={({ active }: DragStartEvent) => {
        setActiveId(active.id as number);
        onDragging?.(true);
      }}
      onDragCancel={() => {
        setActiveId(null);
        onDragging?.(false);
      }}
      onDragEnd={handleDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            "To reorder an event, press space or enter to pick it up. Use the arrow keys to move it, then space or enter to drop it, or escape to cancel.",
        },
      }}
    >
      <MeasureAfterLayout layout={layout} />
      <SortableContext items={ids} strategy={vertical ? verticalListSortingStrategy : horizontalListSortingStrategy}>
        {visibleIds.map((eventId) => (
          <SortableBinding key={eventId} id={eventId} disabled={!canReorder} store={store} />
        ))}
      </SortableContext>
      <DragOverlay>
        {activeEvent ? (
          <div className="rounded-lg border border-brand-300 bg-white p-4 shadow-lg" data-testid="drag-overlay">
            <p className="font-semibold break-words">{activeEvent.title}</p>
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

/**
 * dnd-kit measures the drop targets while it renders, and it renders with the list, before the list's new layout is
 * in the DOM: after a row is measured or the space above the window changes, its rects lag one layout behind until
 * something renders it again, and a keyboard step aims at where the rows were. Asked once the layout is committed,
 * it measures them where they are.
 */
function MeasureAfterLayout({ layout }: { layout: string }) {
  const { active, measureDroppableContainers } = useDndContext();
  const dragging = active !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the layout changes (committed by now).
  useEffect(() => {
    if (dragging) measureDroppableContainers([]);
  }, [layout, dragging, measureDroppableContainers]);
  return null;
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

function SortableBinding({ id, disabled, store }: { id: number; disabled: boolean; store: RowStore }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  // The row registered its nodes when it mounted (rows come before this area in the tree, so first).
  useLayoutEffect(() => {
    setNodeRef(store.nodes.get(id) ?? null);
    setActivatorNodeRef(store.handles.get(id) ?? null);
  });
  const moved = CSS.Transform.toString(transform);
  useLayoutEffect(() => {
    // On the node at once as well (the row's own render follows): dnd-kit measures in its effects, after ours.
    const node = store.nodes.get(id);
    if (node) {
      node.style.transform = moved ?? "";
      node.style.transition = transition ?? "";
    }
    store.set(id, { handleProps: { ...attributes, ...listeners }, style: { transform: moved, transition }, dragging: isDragging });
    // A press on this handle that came before dnd-kit: the same event goes to its listener now.
    const press = store.press;
    if (press?.eventId !== id || !listeners) return;
    queueMicrotask(() => {
      if (store.press !== press) return;
      store.press = null;
      listeners[press.event.type === "keydown" ? "onKeyDown" : "onPointerDown"]?.(press.event);
    });
  }, [store, id, attributes, listeners, moved, transition, isDragging]);
  useLayoutEffect(() => () => store.set(id, undefined), [store, id]);
  return null;
}
