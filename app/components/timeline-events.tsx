import {
  type CSSProperties,
  type HTMLAttributes,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { type CardCodex, DragHandleIcon, EventCard, type EventChanges, type SaveResult, type StoryHints } from "~/components/event-card";
import { cn } from "~/lib/cn";
import { useLazyVirtualizer } from "~/lib/lazy-virtualizer";
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
  /** What the story model notices about an event; the same object while it says the same (memoized cards). */
  hints?: (event: EventView) => StoryHints;
  /** 'Mara is writing here' for an event (null: nobody else has its editor open). */
  writingHere?: (eventId: number) => string | null;
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
  hints,
  writingHere,
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
  const listRef = useRef<HTMLOListElement>(null);
  const [store] = useState(createRowStore);
  const dnd = useDragAndDrop(listRef, store, canEdit && canReorder);

  const vertical = layout === "vertical";
  const count = events.length + pending;
  const scrollerRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the window virtualizer counts from the document's top.
  const [margin, setMargin] = useState(0);
  const getItemKey = useCallback((index: number) => idsRef.current[index] ?? `pending-${index}`, []);
  // The virtualizer's core loads on the first scroll or interaction (issue 11): until then the rows of its first render.
  const windowList = useLazyVirtualizer<Window, HTMLLIElement>(true, {
    count,
    enabled: vertical,
    estimateSize: () => CARD_HEIGHT_ESTIMATE,
    gap: GAP,
    overscan: 6,
    scrollMargin: margin,
    initialRect: INITIAL_RECT,
    getItemKey,
  });
  const rowList = useLazyVirtualizer<HTMLDivElement, HTMLLIElement>(false, {
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
  // Measured once the virtualizer's core is here (its stand-in's rows do not depend on it): measuring right
  // after hydration would force a layout of the whole page inside the hydration's commit (issue 11).
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || !vertical || list.live === false) return;
    const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (top !== margin) setMargin(top);
  });
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

  const visibleIds = dnd.module ? items.flatMap((item) => (events[item.index] ? [events[item.index].id] : [])) : [];
  const Area = dnd.module?.SortableArea;
  return (
    <>
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
              <ListedEvent
                key={item.key}
                store={store}
                measureRef={vertical ? list.measureElement : undefined}
                event={event}
                index={item.index}
                vertical={vertical}
                canEdit={canEdit}
                canReorder={canEdit && canReorder}
                canDelete={canDelete}
                codex={codex}
                hints={hints?.(event)}
                writingHere={writingHere?.(event.id) ?? null}
                highlighted={jumped === event.id}
                onSave={save}
                onDelete={remove}
                onTyping={onTyping ? typing : undefined}
              />
            );
          })}
        </ol>
      </div>
      {Area ? (
        <Area
          id={dndId}
          events={events}
          visibleIds={visibleIds}
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
  hints?: StoryHints;
  writingHere: string | null;
  onSave: Props["onSave"];
  onDelete: Props["onDelete"];
  onTyping?: NonNullable<Props["onTyping"]>;
};

type RowProps = CardProps;

/** One row of the list: its dot on the line and the card. The sortable row (timeline-dnd.tsx) adds the drag. */
function EventRow({
  event,
  highlighted,
  index,
  vertical,
  canEdit,
  canDelete,
  codex,
  hints,
  writingHere,
  onSave,
  onDelete,
  onTyping,
  rowRef,
  style,
  dragging = false,
  handle,
}: CardProps & { rowRef: (node: HTMLLIElement | null) => void; style?: CSSProperties; dragging?: boolean; handle: ReactNode }) {
  const left = index % 2 === 0;
  return (
    <li
      ref={rowRef}
      style={style}
      className={cn(
        "relative",
        dragging && "z-10 opacity-40",
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
        hints={hints}
        writingHere={writingHere}
        highlighted={highlighted}
        dragHandle={handle}
        onSave={(changes) => onSave(event, changes)}
        onDelete={() => onDelete(event)}
        onTyping={onTyping ? (change) => onTyping(event, change) : undefined}
      />
    </li>
  );
}

type HandleProps = HTMLAttributes<HTMLButtonElement> & { title: string; eventId: number; buttonRef?: (node: HTMLElement | null) => void };

function ReorderHandle({ title, eventId, buttonRef, ...rest }: HandleProps) {
  return (
    <button
      type="button"
      ref={buttonRef}
      {...rest}
      aria-label={`Reorder ${title}`}
      data-reorder={eventId}
      className="mt-0.5 cursor-grab touch-none rounded p-1 text-stone-500 hover:bg-stone-100 active:cursor-grabbing"
    >
      <DragHandleIcon />
    </button>
  );
}

/** What a row's sortable binding (timeline-dnd.tsx) hands it: the handle's listeners and the row's movement. */
type Sortable = { handleProps: Record<string, unknown>; style: CSSProperties; dragging: boolean };

export type RowStore = ReturnType<typeof createRowStore>;

/** Rows register their nodes here and read their sortable state from here (one store per list). */
function createRowStore() {
  const states = new Map<number, Sortable>();
  const listeners = new Map<number, Set<() => void>>();
  return {
    nodes: new Map<number, HTMLLIElement>(),
    handles: new Map<number, HTMLElement>(),
    get: (id: number) => states.get(id),
    set(id: number, state: Sortable | undefined) {
      if (state) states.set(id, state);
      else states.delete(id);
      for (const notify of listeners.get(id) ?? []) notify();
    },
    subscribe(id: number, notify: () => void) {
      const set = listeners.get(id) ?? new Set();
      listeners.set(id, set);
      set.add(notify);
      return () => void set.delete(notify);
    },
  };
}

/**
 * A row of the list. Until drag and drop is loaded its handle only remembers a press (handed over once it is);
 * then it takes the listeners its binding publishes. The row and its card are never remounted for it.
 */
const ListedEvent = memo(function ListedEvent(props: RowProps & { store: RowStore }) {
  const { event, measureRef, canReorder, store } = props;
  const id = event.id;
  const sortable = useSyncExternalStore(
    useCallback((notify: () => void) => store.subscribe(id, notify), [store, id]),
    () => store.get(id),
    () => undefined,
  );
  const ref = useCallback(
    (node: HTMLLIElement | null) => {
      if (node) store.nodes.set(id, node);
      else store.nodes.delete(id);
      measureRef?.(node);
    },
    [store, id, measureRef],
  );
  const handleRef = useCallback(
    (node: HTMLElement | null) => {
      if (node) store.handles.set(id, node);
      else store.handles.delete(id);
    },
    [store, id],
  );
  const handle = canReorder ? (
    <ReorderHandle
      title={event.title}
      eventId={id}
      buttonRef={handleRef}
      {...(sortable?.handleProps ?? {
        "aria-roledescription": "sortable",
        onKeyDown: (e: React.KeyboardEvent) => {
          if (e.key !== " " && e.key !== "Enter") return;
          e.preventDefault();
          dndLoader.press({ kind: "key", eventId: id, key: e.key, code: e.code });
        },
        onPointerDown: (e: React.PointerEvent) => {
          if (!e.isPrimary || e.button !== 0) return;
          dndLoader.press({
            kind: "pointer",
            eventId: id,
            init: {
              clientX: e.clientX,
              clientY: e.clientY,
              pointerId: e.pointerId,
              pointerType: e.pointerType,
              isPrimary: true,
              button: 0,
              buttons: 1,
            },
          });
        },
      })}
    />
  ) : null;
  return <EventRow {...props} rowRef={ref} style={sortable?.style} dragging={sortable?.dragging} handle={handle} />;
});

type DndModule = typeof import("./timeline-dnd");
type Press = { kind: "key"; eventId: number; key: string; code: string } | { kind: "pointer"; eventId: number; init: PointerEventInit };

/**
 * Loads drag and drop once, on the first sign of use (pointer over the list, focus, touch or key), and keeps the
 * press that asked for it so it still starts a drag when the module arrives.
 */
const dndLoader = {
  module: null as DndModule | null,
  loading: null as Promise<DndModule> | null,
  pending: null as Press | null,
  load() {
    this.loading ??= import("./timeline-dnd").then((m) => {
      this.module = m;
      return m;
    });
    return this.loading;
  },
  press(press: Press) {
    this.pending = press;
    void this.load();
  },
};

function useDragAndDrop(listRef: React.RefObject<HTMLOListElement | null>, store: RowStore, wanted: boolean) {
  const [module, setModule] = useState<DndModule | null>(dndLoader.module);
  useEffect(() => {
    if (!wanted || module) return;
    const list = listRef.current;
    if (!list) return;
    let cancelled = false;
    const start = () => {
      dndLoader.load().then((m) => {
        if (!cancelled) setModule(m);
      });
    };
    const triggers = ["pointerover", "focusin", "touchstart", "keydown"] as const;
    for (const t of triggers) list.addEventListener(t, start, { once: true, passive: true });
    // A press released before the module arrived is not a drag any more.
    const release = () => {
      if (dndLoader.pending?.kind === "pointer") dndLoader.pending = null;
    };
    document.addEventListener("pointerup", release, true);
    return () => {
      cancelled = true;
      for (const t of triggers) list.removeEventListener(t, start);
      document.removeEventListener("pointerup", release, true);
    };
  }, [wanted, module, listRef]);
  // Hand the press that loaded it over to the handle, once its binding has given it dnd-kit's listeners.
  useEffect(() => {
    if (!module) return;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const replay = () => {
      const press = dndLoader.pending;
      if (!press) return;
      const handle = store.handles.get(press.eventId);
      if (!handle || !store.get(press.eventId)) {
        if (tries++ < 20) timer = setTimeout(replay, 25);
        return;
      }
      dndLoader.pending = null;
      if (press.kind === "key") {
        handle.focus();
        handle.dispatchEvent(new KeyboardEvent("keydown", { key: press.key, code: press.code, bubbles: true, cancelable: true }));
      } else {
        handle.dispatchEvent(new PointerEvent("pointerdown", { ...press.init, bubbles: true, cancelable: true }));
      }
    };
    timer = setTimeout(replay, 0);
    return () => clearTimeout(timer);
  }, [module, store]);
  return { module };
}

/** The list with `from` moved to `to` (what a drop does). */
export function arrayMove<T>(list: T[], from: number, to: number): T[] {
  const next = list.slice();
  next.splice(to < 0 ? next.length + to : to, 0, next.splice(from, 1)[0]);
  return next;
}
