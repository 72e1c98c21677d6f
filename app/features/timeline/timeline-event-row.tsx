import { type ButtonHTMLAttributes, memo, useCallback, useSyncExternalStore } from "react";
import { type CardCodex, DragHandleIcon, EventCard, type StoryHints } from "~/features/timeline/event-card";
import { cn } from "~/lib/cn";
import { useEventActions } from "~/features/timeline/event-actions";
import type { EventView } from "../../../worker/services/events";
import type { RowStore } from "./timeline-row-store";

export type RowProps = {
  event: EventView;
  measureRef?: (node: HTMLLIElement | null) => void;
  highlighted: boolean;
  index: number;
  vertical: boolean;
  canEdit: boolean;
  canReorder: boolean;
  /** A disabled handle in the card's handle column until the card can be dragged. */
  reorderLater?: boolean;
  canDelete: boolean;
  codex: CardCodex;
  hints?: StoryHints;
  writingHere: string | null;
};

type HandleProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  title: string;
  eventId: number;
  buttonRef?: (node: HTMLElement | null) => void;
};

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

/**
 * A row of the list: its dot on the line and the card. Until drag and drop is loaded its handle only keeps a press for dnd-kit (see use-list-dnd.ts);
 * then it takes the listeners its binding publishes. The row and its card are never remounted for it.
 */
export const ListedEvent = memo(function ListedEvent(props: RowProps & { store: RowStore }) {
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
        // Not prevented: dnd-kit ignores a press whose default was prevented.
        onKeyDown: (e: React.KeyboardEvent) => {
          if (e.key === " " || e.key === "Enter") store.press = { eventId: id, event: e };
        },
        onPointerDown: (e: React.PointerEvent) => {
          if (!e.isPrimary || e.button !== 0) return;
          const press = { eventId: id, event: e };
          store.press = press;
          // Released before dnd-kit was here: not a drag any more.
          const release = () => void (store.press === press && (store.press = null));
          document.addEventListener("pointerup", release, { capture: true, once: true });
        },
      })}
    />
  ) : props.reorderLater ? (
    <ReorderHandle title={event.title} eventId={id} disabled />
  ) : null;
  const { index, vertical } = props;
  const actions = useEventActions();
  const left = index % 2 === 0;
  return (
    <li
      ref={ref}
      style={sortable?.style}
      className={cn(
        "relative",
        sortable?.dragging && "z-10 opacity-40",
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
        canEdit={props.canEdit}
        canDelete={props.canDelete}
        codex={props.codex}
        hints={props.hints}
        writingHere={props.writingHere}
        highlighted={props.highlighted}
        dragHandle={handle}
        onSave={(changes) => actions.save(event, changes)}
        onDelete={() => actions.askDelete(event)}
      />
    </li>
  );
});
