import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useId, useLayoutEffect, useReducer, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { CardCodex, StoryHints } from "~/features/timeline/event-card";
import { cn } from "~/lib/cn";
import { CARD, firstRows, GAP, INITIAL_RECT, OVERSCAN, ROW } from "~/features/timeline/first-rows";
import type { EventView } from "../../../worker/services/events";
import { ListedEvent } from "./timeline-event-row";
import { createRowStore } from "./timeline-row-store";
import { useListDnd } from "./use-list-dnd";

export type Layout = "vertical" | "horizontal";

type Props = {
  events: EventView[];
  layout: Layout;
  canEdit: boolean;
  /** False in chronological order or while filtered: the cards cannot be dragged. */
  canReorder?: boolean;
  /** The handles show (disabled) until the cards can be dragged. */
  reorderLater?: boolean;
  canDelete: boolean;
  codex: CardCodex;
  /** What the story model notices about an event; the same object while it says the same (memoized cards). */
  hints?: (event: EventView) => StoryHints;
  /** 'Mara is writing here' for an event (null: nobody else has its editor open). */
  writingHere?: (eventId: number) => string | null;
  onMove: (eventId: number, from: number, to: number) => void;
  /** A drag began (true) or ended, dropped or cancelled (false): the screen holds incoming data meanwhile. */
  onDragging?: (dragging: boolean) => void;
  /** Rows still loading after the events (placeholders, so the scroll height is right from the first paint). */
  pending?: number;
  /** 'Jump to event': the list registers a function that scrolls to one of its events (false if not here). */
  jumpers?: Set<(eventId: number) => boolean>;
};

type VirtualModule = typeof import("./timeline-virtualizer");
type Live<TScroll extends Element | Window> = Virtualizer<TScroll, HTMLLIElement>;

/**
 * @tanstack/react-virtual loads on the first scroll, press, key or focus on the page (or a jump): until then the
 * list is the rows a virtualizer shows at its first render, which is also what the server renders.
 */
let virtualModule: VirtualModule | undefined;
let loadingVirtual: Promise<VirtualModule> | undefined;
const loadVirtual = () => (loadingVirtual ??= import("./timeline-virtualizer").then((m) => (virtualModule = m)));
const loadEvents = ["scroll", "wheel", "touchstart", "pointerdown", "keydown", "focusin"] as const;

export function TimelineEvents({
  events,
  layout,
  canEdit,
  canReorder = true,
  reorderLater,
  canDelete,
  codex,
  hints,
  writingHere,
  onMove,
  onDragging,
  pending = 0,
  jumpers,
}: Props) {
  // A stable id keeps dnd-kit's aria-describedby the same on the server and in the browser.
  const dndId = useId();
  const ids = events.map((e) => e.id);
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const listRef = useRef<HTMLOListElement>(null);
  const [store] = useState(createRowStore);
  const dnd = useListDnd(listRef, canEdit && canReorder);

  const vertical = layout === "vertical";
  const count = events.length + pending;
  const scrollerRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the window virtualizer counts from the document's top.
  const [margin, setMargin] = useState(0);
  const getItemKey = useCallback((index: number) => idsRef.current[index] ?? `pending-${index}`, []);

  // The virtualizers live in a component beside the rows and hand their instances up; the rows re-render here
  // on every change (synchronously while scrolling, as @tanstack/react-virtual does, never from a ref callback).
  const [module, setModule] = useState(virtualModule);
  const [windowLive, setWindowLive] = useState<Live<Window> | null>(null);
  const [rowLive, setRowLive] = useState<Live<HTMLDivElement> | null>(null);
  const rerender = useReducer((x: number) => x + 1, 0)[1];
  const measuring = useRef(false);
  const onChange = useCallback((_: unknown, sync: boolean) => (sync && !measuring.current ? flushSync(rerender) : rerender()), []);
  const measure = useCallback(
    (node: HTMLLIElement | null) => {
      measuring.current = true;
      try {
        windowLive?.measureElement(node);
      } finally {
        measuring.current = false;
      }
    },
    [windowLive],
  );
  const live = vertical ? windowLive : rowLive;
  const first = live
    ? undefined
    : vertical
      ? firstRows(count, ROW, GAP, OVERSCAN.vertical, INITIAL_RECT.height, margin, getItemKey)
      : firstRows(count, CARD, GAP, OVERSCAN.horizontal, INITIAL_RECT.width, 0, getItemKey);
  const items = live ? live.getVirtualItems() : (first?.items ?? []);
  const totalSize = live ? live.getTotalSize() : (first?.total ?? 0);
  const measureRef = vertical && windowLive ? measure : undefined;

  // A list that shows everything at the first render never needs the virtualizer.
  const needed = !module && first !== undefined && first.items.length < count;
  useEffect(() => {
    if (!needed) return;
    const load = () => void loadVirtual().then(setModule);
    for (const name of loadEvents) globalThis.addEventListener(name, load, { capture: true, passive: true, once: true });
    return () => {
      for (const name of loadEvents) globalThis.removeEventListener(name, load, { capture: true });
    };
  }, [needed]);

  // Measured once the virtualizer is here (the first rows do not depend on it): measuring right after
  // hydration would force a layout of the whole page inside the hydration's commit.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || !vertical || !windowLive) return;
    const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (top !== margin) setMargin(top);
  });
  const offset = vertical ? margin : 0;
  const firstItem = items[0];
  const lastItem = items[items.length - 1];
  const before = firstItem ? firstItem.start - offset : 0;
  const after = lastItem ? Math.max(0, totalSize - (lastItem.end - offset)) : 0;

  // 'Jump to event': scroll its row into the window, then move focus to the card.
  const [jumped, setJumped] = useState<number | null>(null);
  const jumpTo = useRef<number | undefined>(undefined);
  const liveNow = useRef(live);
  liveNow.current = live;
  useEffect(() => {
    if (!jumpers) return;
    const jump = (eventId: number) => {
      const index = idsRef.current.indexOf(eventId);
      if (index < 0) return false;
      if (liveNow.current) liveNow.current.scrollToIndex(index, { align: "center" });
      else {
        // Asked before the virtualizer is here: it scrolls there when it arrives.
        jumpTo.current = index;
        void loadVirtual().then(setModule);
      }
      setJumped(eventId);
      return true;
    };
    jumpers.add(jump);
    return () => void jumpers.delete(jump);
  }, [jumpers]);
  useLayoutEffect(() => {
    if (!live || jumpTo.current === undefined) return;
    live.scrollToIndex(jumpTo.current, { align: "center" });
    jumpTo.current = undefined;
  }, [live]);
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

  const visibleIds = dnd ? items.flatMap((item) => (events[item.index] ? [events[item.index].id] : [])) : [];
  const Area = dnd?.SortableArea;
  return (
    <>
      <div ref={scrollerRef} className={cn("relative", vertical ? "" : "overflow-x-auto pb-4")}>
        <div
          aria-hidden="true"
          className={cn(
            "absolute bg-brand-100",
            vertical ? "top-0 bottom-0 left-4 w-1 md:left-1/2 md:-ml-0.5" : "top-1/2 right-0 left-0 h-1",
          )}
          style={vertical ? undefined : { width: totalSize }}
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
                  key={String(item.key)}
                  ref={measureRef}
                  data-index={item.index}
                  aria-hidden="true"
                  className={cn("rounded-lg bg-stone-100", vertical ? "h-32 pl-10 md:w-1/2" : "h-40 w-72 shrink-0 self-center")}
                />
              );
            }
            return (
              <ListedEvent
                key={String(item.key)}
                store={store}
                measureRef={measureRef}
                event={event}
                index={item.index}
                vertical={vertical}
                canEdit={canEdit}
                canReorder={canEdit && canReorder}
                reorderLater={canEdit && reorderLater}
                canDelete={canDelete}
                codex={codex}
                hints={hints?.(event)}
                writingHere={writingHere?.(event.id) ?? null}
                highlighted={jumped === event.id}
              />
            );
          })}
        </ol>
      </div>
      {module ? (
        <>
          <module.WindowVirtualizer
            count={count}
            enabled={vertical}
            margin={margin}
            getItemKey={getItemKey}
            onChange={onChange}
            onReady={setWindowLive}
          />
          <module.ElementVirtualizer
            count={count}
            enabled={!vertical}
            scroller={scrollerRef}
            getItemKey={getItemKey}
            onChange={onChange}
            onReady={setRowLive}
          />
        </>
      ) : null}
      {Area ? (
        <Area
          id={dndId}
          events={events}
          visibleIds={visibleIds}
          layout={`${before}/${totalSize}`}
          canReorder={canEdit && canReorder}
          vertical={vertical}
          store={store}
          onMove={onMove}
          onDragging={onDragging}
        />
      ) : null}
    </>
  );
}

/** The list with `from` moved to `to` (what a drop does). */
export function arrayMove<T>(list: T[], from: number, to: number): T[] {
  const next = list.slice();
  next.splice(to < 0 ? next.length + to : to, 0, next.splice(from, 1)[0]);
  return next;
}
