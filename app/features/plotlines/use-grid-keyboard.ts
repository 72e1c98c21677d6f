import type { Virtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import type { EventView } from "../../../worker/services/events";
import { CARD_HEIGHT, CELL_TOP, COLUMN_WIDTH, HEAD_HEIGHT } from "./grid-cell";
import { type Grid, cellKey, cellName, moveInGrid } from "./grid-model";

export type Spot = { row: number; column: number; eventId: number };

/**
 * The grid's keyboard: one tab stop that the arrow keys move between cards, and a card carried to another cell
 * (Space or Enter picks it up, the arrow keys choose the cell, Space or Enter drops it, Escape cancels), each step
 * said in a live region. `drop` is the pointer's drop too.
 */
export function useGridKeyboard({
  grid,
  scrollRef,
  rowWindow,
  headerWidth,
  canEdit,
  onOpen,
  setDragging,
  move,
}: {
  grid: Grid;
  scrollRef: RefObject<HTMLElement | null>;
  rowWindow: Virtualizer<HTMLElement, Element>;
  headerWidth: number;
  canEdit: boolean;
  onOpen: (event: EventView) => void;
  setDragging: (active: boolean) => void;
  move: (event: EventView, change: { chapterId: number | null; plotlineIds: number[] }) => Promise<boolean>;
}) {
  const { rows, columns, cells } = grid;
  // The roving tab stop and the keyboard's carried card.
  const [active, setActive] = useState<Spot | null>(null);
  const [carry, setCarry] = useState<{ spot: Spot; event: EventView; target: { row: number; column: number } } | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const focusNext = useRef<Spot | "grid" | null>(null);
  const firstSpot = (): Spot | null => {
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < columns.length; c++) {
        const list = cells.get(cellKey(rows[r].id, columns[c].id));
        if (list?.length) return { row: r, column: c, eventId: list[0].id };
      }
    }
    return null;
  };
  const cardsAt = (r: number, c: number) => cells.get(cellKey(rows[r]?.id ?? null, columns[c]?.id ?? null)) ?? [];
  const stillThere = active && cardsAt(active.row, active.column).some((e) => e.id === active.eventId);
  const stop = stillThere ? active : firstSpot();

  /** Scrolls a card (or a cell's top) into view: both windows, and the card inside a tall row. */
  const reveal = (row: number, column: number, index = 0) => {
    const el = scrollRef.current;
    const rowItem = rowWindow.measurementsCache[row];
    if (!el || !rowItem) return;
    const top = HEAD_HEIGHT + rowItem.start + (index ? CELL_TOP + index * CARD_HEIGHT : 0);
    const bottom = HEAD_HEIGHT + rowItem.start + CELL_TOP + (index + 1) * CARD_HEIGHT;
    if (top - HEAD_HEIGHT < el.scrollTop) el.scrollTop = top - HEAD_HEIGHT;
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
    const left = headerWidth + column * COLUMN_WIDTH;
    if (left - headerWidth < el.scrollLeft) el.scrollLeft = left - headerWidth;
    else if (left + COLUMN_WIDTH > el.scrollLeft + el.clientWidth) el.scrollLeft = left + COLUMN_WIDTH - el.clientWidth;
  };

  // The focus follows the keyboard once the card is rendered (the windows may mount it a frame later).
  useEffect(() => {
    const want = focusNext.current;
    if (!want) return;
    let frame = 0;
    let tries = 0;
    const apply = () => {
      const target =
        want === "grid"
          ? scrollRef.current
          : scrollRef.current?.querySelector<HTMLElement>(`[data-card="${want.row}:${want.column}:${want.eventId}"]`);
      if (!target) {
        if (tries++ < 30) frame = requestAnimationFrame(apply);
        return;
      }
      focusNext.current = null;
      target.focus({ preventScroll: want === "grid" });
    };
    apply();
    return () => cancelAnimationFrame(frame);
  });

  const goTo = (spot: Spot) => {
    const index = cardsAt(spot.row, spot.column).findIndex((e) => e.id === spot.eventId);
    focusNext.current = spot;
    setActive(spot);
    reveal(spot.row, spot.column, Math.max(0, index));
  };

  function navigate(e: KeyboardEvent, spot: Spot) {
    const list = cardsAt(spot.row, spot.column);
    const at = list.findIndex((x) => x.id === spot.eventId);
    const across = (dr: number, dc: number) => {
      for (let r = spot.row + dr, c = spot.column + dc; r >= 0 && r < rows.length && c >= 0 && c < columns.length; r += dr, c += dc) {
        const there = cardsAt(r, c);
        if (there.length) return goTo({ row: r, column: c, eventId: there[Math.min(Math.max(at, 0), there.length - 1)].id });
      }
    };
    if (e.key === "ArrowDown" && at < list.length - 1) goTo({ ...spot, eventId: list[at + 1].id });
    else if (e.key === "ArrowUp" && at > 0) goTo({ ...spot, eventId: list[at - 1].id });
    else if (e.key === "ArrowDown") across(1, 0);
    else if (e.key === "ArrowUp") across(-1, 0);
    else if (e.key === "ArrowRight") across(0, 1);
    else if (e.key === "ArrowLeft") across(0, -1);
    else return false;
    return true;
  }

  const drop = async (event: EventView, from: number | null, row: number, column: number) => {
    const target = { row: rows[row].id, column: columns[column].id };
    const change = moveInGrid(event, from, target);
    const same = change.chapterId === (event.chapterId ?? null) && change.plotlineIds.join() === (event.plotlineIds ?? []).join();
    const where = cellName(rows[row], columns[column]);
    if (same) return setAnnouncement(`${event.title} stays in ${where}.`);
    setAnnouncement(`Moved to ${where}`);
    focusNext.current = { row, column, eventId: event.id };
    setActive({ row, column, eventId: event.id });
    if (!(await move(event, change))) setAnnouncement(`${event.title} could not be moved.`);
  };

  function onCardKey(e: KeyboardEvent, spot: Spot, event: EventView) {
    if (carry) return;
    if (canEdit && (e.key === " " || e.key === "Enter")) {
      e.preventDefault();
      setDragging(true);
      setCarry({ spot, event, target: { row: spot.row, column: spot.column } });
      setAnnouncement(
        `Picked up ${event.title} in ${cellName(rows[spot.row], columns[spot.column])}. Arrow keys choose a cell, Space or Enter drops it, Escape cancels.`,
      );
      focusNext.current = "grid";
      return;
    }
    if (!canEdit && e.key === "Enter") return onOpen(event);
    if (e.key.toLowerCase() === "o" && !e.ctrlKey && !e.metaKey) return onOpen(event);
    if (navigate(e, spot)) e.preventDefault();
  }

  function onGridKey(e: KeyboardEvent) {
    if (!carry) return;
    const { row, column } = carry.target;
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const step = moves[e.key];
    e.preventDefault();
    if (step) {
      const next = {
        row: Math.min(rows.length - 1, Math.max(0, row + step[0])),
        column: Math.min(columns.length - 1, Math.max(0, column + step[1])),
      };
      setCarry({ ...carry, target: next });
      setAnnouncement(cellName(rows[next.row], columns[next.column]));
      reveal(next.row, next.column);
    } else if (e.key === " " || e.key === "Enter") {
      setCarry(null);
      setDragging(false);
      void drop(carry.event, rows[carry.spot.row].id, row, column);
    } else if (e.key === "Escape") {
      setCarry(null);
      setDragging(false);
      setAnnouncement(`Move cancelled. ${carry.event.title} is back in ${cellName(rows[carry.spot.row], columns[carry.spot.column])}.`);
      goTo(carry.spot);
    }
  }

  return { stop, carry, announcement, drop, onCardKey, onGridKey, setActive };
}
