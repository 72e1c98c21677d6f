import { useVirtualizer } from "@tanstack/react-virtual";
import { Eye } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { ColorDot } from "~/features/codex/codex";
import type { SceneOption } from "~/features/codex/progressions";
import { useCodexProgressions } from "~/features/codex/use-codex-progressions";
import { cn } from "~/lib/cn";
import { ageAt } from "../../../db/domain/lifespans";
import { statesAsOf } from "../../../db/domain/progressions";
import { buildLanes } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";
import type { EventChanges } from "~/features/timeline/event-card";

export type LaneKind = "character" | "place";

const COLUMN_WIDTH = 208; // px: one scene per column, the same column in every lane
const HEADER_WIDTH = 144; // px: the lane's name, color and count, kept in view while the columns scroll
const laneNames: Record<LaneKind, { none: string; label: string }> = {
  character: { none: "No character", label: "character" },
  place: { none: "No place", label: "place" },
};

type Props = {
  /** Already in the order to show (story or chronological) and filtered. */
  events: EventView[];
  entities: EntityView[];
  /** The timeline's chapters: a card names its scene's chapter. */
  chapters?: { id: number; title: string }[];
  kind: LaneKind;
  /** Every scene of the timeline in story order: an entry's lane reads it as of each scene (its progressions). */
  scenes: SceneOption[];
  onOpenEvent: (event: EventView) => void;
  /** Editors: a scene dropped into an entry's lane is linked to it. */
  onLink?: (event: EventView, entity: EntityView) => void;
  /** With `onLink` (editors): a scene dropped into the 'No character' / 'No place' lane loses its links of that kind. */
  onSave?: (event: EventView, changes: EventChanges) => unknown;
};

/**
 * The lanes layout: one row per character or place, each event in the lane of every entry it links,
 * its point-of-view lane highlighted. A table with one tab stop: arrow keys move between scenes (left/right in a lane, up/down to
 * the nearest scene of the next lane), Home/End to a lane's ends, Enter opens the event. Columns are windowed, so a
 * 1,000-event timeline keeps only the visible columns in the DOM.
 */
export function LanesView({ events, entities, chapters, kind, scenes, onOpenEvent, onLink, onSave: save }: Props) {
  const onSave = onLink && save;
  const id = useId();
  // Each entry as of each scene (DESIGN.md §12): the story bible's rule over the codex's progressions.
  const progressions = useCodexProgressions();
  const progressionsOf = useMemo(() => {
    const by = new Map<number, typeof progressions>();
    for (const p of progressions) by.set(p.entityId, [...(by.get(p.entityId) ?? []), p]);
    return by;
  }, [progressions]);
  const stateAt = (entityId: number, eventId: number) => {
    const list = progressionsOf.get(entityId);
    return list ? (statesAsOf(list, scenes, eventId).get(entityId) ?? null) : null;
  };
  const chapterTitles = useMemo(() => new Map(chapters?.map((c) => [c.id, c.title])), [chapters]);
  const lanes = useMemo(() => {
    const built = buildLanes(events, entities, kind);
    // An editor always has the 'No …' lane to drop a scene on, even when every scene has a link.
    return onSave && built.every((l) => l.entity) ? [...built, { entity: null, cells: [] }] : built;
  }, [events, entities, kind, onSave]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = useVirtualizer({
    count: events.length,
    horizontal: true,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => COLUMN_WIDTH,
    overscan: 4,
    paddingStart: HEADER_WIDTH,
    // The server renders the first screenful of columns.
    initialRect: { width: 1024, height: 600 },
  });
  const [active, setActive] = useState<{ lane: number; column: number } | null>(null);
  // A scene carried by the keyboard (Space) to another lane, or dragged by the pointer over one.
  const [carry, setCarry] = useState<{ event: EventView; lane: number; target: number } | null>(null);
  const [dropLane, setDropLane] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const laneName = (index: number) => lanes[index]?.entity?.name ?? laneNames[kind].none;
  function linkTo(event: EventView, laneIndex: number) {
    const lane = lanes[laneIndex];
    if (lane && !lane.entity) return unlinkAll(event);
    const entity = lane?.entity ? entities.find((e) => e.id === lane.entity!.id) : undefined;
    if (!entity || !onLink) return setAnnouncement(`${event.title} stays as it is.`);
    if (event.entityIds.includes(entity.id)) return setAnnouncement(`${event.title} is already linked to ${entity.name}.`);
    setAnnouncement(`Linked ${entity.name} to ${event.title}`);
    onLink(event, entity);
  }
  function unlinkAll(event: EventView) {
    const ofKind = new Set(entities.filter((e) => e.kind === kind).map((e) => e.id));
    const kept = event.entityIds.filter((entityId) => !ofKind.has(entityId));
    if (!onSave || kept.length === event.entityIds.length) return setAnnouncement(`${event.title} stays as it is.`);
    setAnnouncement(`${event.title} now has no ${laneNames[kind].label}.`);
    // Only the links are sent: the rest of the scene stays as it is (a POV among the removed ones is cleared).
    onSave(event, { entityIds: kept } as EventChanges);
  }
  const focusNext = useRef(false);

  // The roving tab stop: the active cell, else the first scene of the first lane that has one.
  const first = lanes.findIndex((l) => l.cells.length > 0);
  const stop = active ?? (first >= 0 ? { lane: first, column: lanes[first].cells[0].column } : null);

  // The keyboard stays on the active cell: after an arrow key once the cell is rendered (columns are windowed),
  // and after a re-render that replaced the focused cell (new data arriving mid-navigation drops focus to <body>).
  const focusedInside = useRef(false);
  useEffect(() => {
    // A click elsewhere (even on something that takes no focus) means the writer left the lanes.
    const away = (e: PointerEvent) => {
      if (!scrollRef.current?.contains(e.target as Node)) focusedInside.current = false;
    };
    document.addEventListener("pointerdown", away, true);
    return () => document.removeEventListener("pointerdown", away, true);
  }, []);
  useEffect(() => {
    if (!active) return;
    const lost = focusedInside.current && !scrollRef.current?.contains(document.activeElement);
    if (!focusNext.current && !lost) return;
    // The cell may mount a few frames later (a windowed column scrolled into view): keep looking briefly.
    let frame = 0;
    let tries = 0;
    const apply = () => {
      const cell = scrollRef.current?.querySelector<HTMLElement>(`[data-lane="${active.lane}"][data-column="${active.column}"]`);
      if (!cell) {
        if (tries++ < 30) frame = requestAnimationFrame(apply);
        return;
      }
      focusNext.current = false;
      if (document.activeElement !== cell) cell.focus();
    };
    apply();
    return () => cancelAnimationFrame(frame);
  });

  function moveTo(lane: number, column: number) {
    focusNext.current = true;
    setActive({ lane, column });
    columns.scrollToIndex(column, { align: "auto" });
  }

  function onKeyDown(e: KeyboardEvent, laneIndex: number, column: number, event: EventView) {
    if (carry) {
      e.preventDefault();
      if (e.key === "ArrowUp" || e.key === "ArrowDown") {
        const target = Math.min(lanes.length - 1, Math.max(0, carry.target + (e.key === "ArrowUp" ? -1 : 1)));
        setCarry({ ...carry, target });
        setAnnouncement(laneName(target));
      } else if (e.key === " " || e.key === "Enter") {
        setCarry(null);
        linkTo(carry.event, carry.target);
      } else if (e.key === "Escape") {
        setCarry(null);
        setAnnouncement("Cancelled.");
      }
      return;
    }
    if (onLink && e.key === " ") {
      e.preventDefault();
      setCarry({ event, lane: laneIndex, target: laneIndex });
      setAnnouncement(`Picked up ${event.title}. Up and down choose a lane, Space links it, Escape cancels.`);
      return;
    }
    const cells = lanes[laneIndex].cells;
    const at = cells.findIndex((c) => c.column === column);
    const nearestIn = (index: number) => {
      const target = lanes[index].cells;
      if (!target.length) return null;
      return target.reduce((best, c) => (Math.abs(c.column - column) < Math.abs(best.column - column) ? c : best)).column;
    };
    const verticalStep = (dir: 1 | -1) => {
      for (let i = laneIndex + dir; i >= 0 && i < lanes.length; i += dir) {
        const col = nearestIn(i);
        if (col !== null) return moveTo(i, col);
      }
    };
    if (e.key === "ArrowRight" && at < cells.length - 1) moveTo(laneIndex, cells[at + 1].column);
    else if (e.key === "ArrowLeft" && at > 0) moveTo(laneIndex, cells[at - 1].column);
    else if (e.key === "Home") moveTo(laneIndex, cells[0].column);
    else if (e.key === "End") moveTo(laneIndex, cells[cells.length - 1].column);
    else if (e.key === "ArrowDown") verticalStep(1);
    else if (e.key === "ArrowUp") verticalStep(-1);
    else return;
    e.preventDefault();
  }

  const visible = columns.getVirtualItems();
  const from = visible[0]?.index ?? 0;
  const to = visible[visible.length - 1]?.index ?? -1;

  return (
    <div ref={scrollRef} className="overflow-x-auto rounded-xl border border-stone-200 bg-white" data-testid="lanes-scroll">
      <p className="sr-only" aria-live="assertive" data-testid="lanes-announcement">
        {announcement}
      </p>
      <table
        aria-label={`Lanes by ${laneNames[kind].label}`}
        aria-describedby={`${id}-keys`}
        aria-rowcount={lanes.length}
        aria-colcount={events.length + 1}
        className="relative block"
        style={{ width: columns.getTotalSize() }}
      >
        <caption id={`${id}-keys`} className="sr-only">
          Arrow keys move between scenes, Home and End to a lane's ends, Enter opens a scene.
          {onLink ? ` Space picks a scene up; up and down choose a ${laneNames[kind].label}'s lane; Space links it; Escape cancels.` : ""}
        </caption>
        <tbody className="block">
          {lanes.map((lane, laneIndex) => {
            const color = lane.entity ? (entities.find((e) => e.id === lane.entity!.id)?.color ?? "#78716c") : "#a8a29e";
            const name = lane.entity?.name ?? laneNames[kind].none;
            const shownCells = lane.cells.filter((c) => c.column >= from && c.column <= to);
            const born = kind === "character" && lane.entity ? entities.find((e) => e.id === lane.entity?.id)?.born : null;
            return (
              <tr
                key={lane.entity?.id ?? "none"}
                aria-rowindex={laneIndex + 1}
                className={cn(
                  "relative flex h-28 border-b border-stone-100 last:border-b-0",
                  (carry?.target === laneIndex || dropLane === laneIndex) && "bg-brand-50 outline-2 -outline-offset-2 outline-brand-500",
                )}
                data-testid="lane"
                onDragOver={(e) => {
                  if (lane.entity ? !onLink : !onSave) return;
                  e.preventDefault();
                  e.dataTransfer.dropEffect = "link";
                  setDropLane(laneIndex);
                }}
                onDragLeave={() => setDropLane((current) => (current === laneIndex ? null : current))}
                onDrop={(e) => {
                  e.preventDefault();
                  setDropLane(null);
                  const dropped = events.find((x) => String(x.id) === e.dataTransfer.getData("text/x-storyweave-event"));
                  if (dropped) linkTo(dropped, laneIndex);
                }}
              >
                <th
                  scope="row"
                  aria-colindex={1}
                  className="sticky left-0 z-10 flex w-36 shrink-0 flex-col justify-center gap-1 border-r border-stone-200 bg-stone-50 px-3 text-left font-normal"
                  style={{ borderLeft: `4px solid ${color}` }}
                >
                  <span className="flex items-center gap-1.5 font-medium break-words">
                    <ColorDot color={color} /> {name}
                  </span>
                  <span className="text-xs text-stone-600">
                    {lane.cells.length} {lane.cells.length === 1 ? "event" : "events"}
                  </span>
                </th>
                {shownCells.map(({ event, column, isPov }) => {
                  const isStop = stop?.lane === laneIndex && stop.column === column;
                  const age = ageAt(born, event.storyStart);
                  const state = lane.entity ? stateAt(lane.entity.id, event.id) : null;
                  return (
                    <td
                      key={event.id}
                      aria-colindex={column + 2}
                      className="absolute top-0 p-2"
                      style={{ left: HEADER_WIDTH + column * COLUMN_WIDTH, width: COLUMN_WIDTH, height: "100%" }}
                    >
                      <button
                        type="button"
                        tabIndex={isStop ? 0 : -1}
                        data-lane={laneIndex}
                        data-column={column}
                        onKeyDown={(e) => onKeyDown(e, laneIndex, column, event)}
                        // Space picks up rather than opens (a button's click comes with the key's release).
                        onKeyUp={(e) => {
                          if (onLink && e.key === " ") e.preventDefault();
                        }}
                        draggable={Boolean(onLink)}
                        onDragStart={(e) => {
                          e.dataTransfer.setData("text/x-storyweave-event", String(event.id));
                          e.dataTransfer.effectAllowed = "link";
                        }}
                        onDragEnd={() => setDropLane(null)}
                        onFocus={() => {
                          focusedInside.current = true;
                          setActive({ lane: laneIndex, column });
                        }}
                        onBlur={(e) => {
                          // Focus moved on by the writer (not lost with a removed cell).
                          if (e.relatedTarget) focusedInside.current = false;
                        }}
                        onClick={() => onOpenEvent(event)}
                        className={cn(
                          "flex h-full w-full flex-col items-start gap-1 overflow-hidden rounded-lg border bg-white p-2 text-left text-sm shadow-sm hover:bg-stone-50",
                          isPov ? "border-2" : "border-stone-200",
                        )}
                        style={isPov ? { borderColor: color, backgroundColor: `${color}14` } : undefined}
                      >
                        {event.chapterId != null && chapterTitles.has(event.chapterId) ? (
                          <span className="max-w-full truncate text-xs font-medium text-stone-600" data-testid="lane-chapter">
                            <span className="sr-only">Chapter: </span>
                            {chapterTitles.get(event.chapterId)}
                          </span>
                        ) : null}
                        <span className="line-clamp-2 font-medium">{event.title}</span>
                        {state ? (
                          <span
                            className={cn(
                              "max-w-full truncate text-xs",
                              state.startsHere ? "font-semibold text-brand-800" : "text-stone-600",
                            )}
                            title={`${name} as of this scene: ${state.text}`}
                            data-testid="lane-state"
                          >
                            {state.startsHere ? "From here: " : "As of here: "}
                            {state.text}
                          </span>
                        ) : null}
                        {event.storyLabel || event.storyStart ? (
                          <span className="truncate text-xs text-stone-600">
                            {event.storyLabel ?? event.storyStartDisplay ?? event.storyStart}
                          </span>
                        ) : null}
                        {age !== null && age >= 0 ? (
                          <span className="text-xs text-stone-600" data-testid="lane-age">
                            {name} ({age})
                          </span>
                        ) : null}
                        {isPov ? (
                          <span className="mt-auto inline-flex items-center gap-1 text-xs font-semibold text-stone-800">
                            <Eye aria-hidden="true" className="h-3 w-3" /> POV<span className="sr-only"> (point of view)</span>
                          </span>
                        ) : null}
                      </button>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
