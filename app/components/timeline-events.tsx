import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  MeasuringStrategy,
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
import { useVirtualizer, useWindowVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
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
  /** A drag began (true) or ended, dropped or cancelled (false): the screen holds incoming data meanwhile. */
  onDragging?: (dragging: boolean) => void;
  onSave: (event: EventView, changes: EventChanges) => Promise<SaveResult>;
  onDelete: (event: EventView) => void;
  onTyping?: (event: EventView, change: { type: "title" | "content"; value: string }) => void;
  /** Rows still loading after the events (placeholders, so the scroll height is right from the first paint). */
  pending?: number;
  /** 'Jump to event': the list registers a function that scrolls to one of its events (false if not here). */
  jumpers?: Set<(eventId: number) => boolean>;
};

/** What the server renders before it knows the window: a laptop screen (the first client render matches). */
const INITIAL_RECT = { width: 1024, height: 900 };
const GAP = 24;
const CARD_WIDTH = 288;
const CARD_HEIGHT_ESTIMATE = 96;

export function TimelineEvents({
  events,
  layout,
  canEdit,
  canReorder = true,
  canDelete,
  codex,
  editedByOthers,
  onMove,
  onDragging,
  onSave,
  onDelete,
  onTyping,
  pending = 0,
  jumpers,
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

  const vertical = layout === "vertical";
  const count = events.length + pending;
  const listRef = useRef<HTMLOListElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the window virtualizer counts from the document's top.
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || !vertical) return;
    const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (top !== margin) setMargin(top);
  });
  const getItemKey = useCallback((index: number) => idsRef.current[index] ?? `pending-${index}`, []);
  const windowList = useWindowVirtualizer<HTMLLIElement>({
    count,
    enabled: vertical,
    estimateSize: () => CARD_HEIGHT_ESTIMATE,
    gap: GAP,
    overscan: 6,
    scrollMargin: margin,
    initialRect: INITIAL_RECT,
    getItemKey,
  });
  const rowList = useVirtualizer<HTMLDivElement, HTMLLIElement>({
    count,
    enabled: !vertical,
    horizontal: true,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => CARD_WIDTH,
    gap: GAP,
    overscan: 4,
    initialRect: INITIAL_RECT,
    getItemKey,
  });
  const list = vertical ? windowList : rowList;
  const items = list.getVirtualItems();
  const offset = vertical ? margin : 0;
  const first = items[0];
  const last = items[items.length - 1];
  const before = first ? first.start - offset : 0;
  const after = last ? Math.max(0, list.getTotalSize() - (last.end - offset)) : 0;

  // 'Jump to event': scroll its row into the window, then move focus to the card.
  const [jumped, setJumped] = useState<number | null>(null);
  const listNow = useRef(list);
  listNow.current = list;
  useEffect(() => {
    if (!jumpers) return;
    const jump = (eventId: number) => {
      const index = idsRef.current.indexOf(eventId);
      if (index < 0) return false;
      listNow.current.scrollToIndex(index, { align: "center" });
      setJumped(eventId);
      return true;
    };
    jumpers.add(jump);
    return () => void jumpers.delete(jump);
  }, [jumpers]);
  useEffect(() => {
    if (jumped === null) return;
    let frames = 0;
    const focus = () => {
      const card = listRef.current?.querySelector<HTMLElement>(`[data-event-id="${jumped}"]`);
      if (card) card.focus({ preventScroll: frames > 0 });
      else if (frames++ < 30) requestAnimationFrame(focus);
    };
    requestAnimationFrame(focus);
  }, [jumped]);

  const activeEvent = activeId === null ? null : events.find((e) => e.id === activeId);
  return (
    <DndContext
      id={dndId}
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
      <SortableContext items={ids} strategy={vertical ? verticalListSortingStrategy : horizontalListSortingStrategy}>
        <div ref={scrollerRef} className={cn("relative", vertical ? "" : "overflow-x-auto pb-4")}>
          <div
            aria-hidden="true"
            className={cn(
              "absolute bg-brand-100",
              vertical ? "top-0 bottom-0 left-4 w-1 md:left-1/2 md:-ml-0.5" : "top-1/2 right-0 left-0 h-1",
            )}
            style={vertical ? undefined : { width: list.getTotalSize() }}
          />
          <ol
            ref={listRef}
            className={cn("relative flex", vertical ? "flex-col gap-6" : "min-w-max gap-6 py-4")}
            style={vertical ? { paddingTop: before, paddingBottom: after } : { paddingLeft: before, paddingRight: after }}
            aria-label="Events"
          >
            {items.map((item) => {
              const event = events[item.index];
              if (!event) {
                return (
                  <li
                    key={item.key}
                    ref={vertical ? list.measureElement : undefined}
                    data-index={item.index}
                    aria-hidden="true"
                    className={cn("rounded-lg bg-stone-100", vertical ? "h-32 pl-10 md:w-1/2" : "h-40 w-72 shrink-0 self-center")}
                  />
                );
              }
              return (
                <SortableEvent
                  key={item.key}
                  measureRef={vertical ? list.measureElement : undefined}
                  event={event}
                  index={item.index}
                  vertical={vertical}
                  canEdit={canEdit}
                  canReorder={canEdit && canReorder}
                  canDelete={canDelete}
                  codex={codex}
                  editedByOthers={editedByOthers?.(event.id) ?? false}
                  highlighted={jumped === event.id}
                  onSave={save}
                  onDelete={remove}
                  onTyping={onTyping ? typing : undefined}
                />
              );
            })}
          </ol>
        </div>
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
  measureRef?: (node: HTMLLIElement | null) => void;
  highlighted: boolean;
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
  measureRef,
  highlighted,
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
  const ref = useCallback(
    (node: HTMLLIElement | null) => {
      setNodeRef(node);
      measureRef?.(node);
    },
    [setNodeRef, measureRef],
  );
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
      ref={ref}
      style={style}
      className={cn(
        "relative",
        isDragging && "z-10 opacity-40",
        vertical ? cn("pl-10 md:w-1/2 md:pl-0", left ? "md:pr-8" : "md:ml-auto md:pl-8") : cn("w-72 shrink-0", left ? "mb-32" : "mt-32"),
      )}
      data-position={index}
      data-index={index}
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
        highlighted={highlighted}
        dragHandle={handle}
        onSave={(changes) => onSave(event, changes)}
        onDelete={() => onDelete(event)}
        onTyping={onTyping ? (change) => onTyping(event, change) : undefined}
      />
    </li>
  );
});

export { arrayMove };
