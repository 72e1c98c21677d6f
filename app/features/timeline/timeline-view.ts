import { type EventFilter, filterEvents, filterFromParams } from "../../../db/domain/story-analysis";
import { FIRST_SCREEN_EVENTS, sortChronologically } from "../../../db/domain/story-order";
import type { EventOrder, EventPage, EventView } from "../../../worker/services/events";

/** How the timeline screen lays out its events; the list layouts are the vertical and the horizontal one. */
export type TimelineLayout = "vertical" | "horizontal" | "lanes" | "map" | "grid" | "ruler" | "relationships";

/** The default layout: not written in the address. */
export const DEFAULT_LAYOUT: TimelineLayout = "vertical";
const LAYOUTS = new Set<string>(["vertical", "horizontal", "lanes", "map", "grid", "ruler", "relationships"]);

/** The layout in the address (`?layout=horizontal`); anything else is the default. */
export function layoutFromParams(params: URLSearchParams): TimelineLayout {
  const value = params.get("layout");
  return value && LAYOUTS.has(value) ? (value as TimelineLayout) : DEFAULT_LAYOUT;
}

/** A filter the server's first screenful applies itself: none, or one codex entry. */
export const serverFilters = (f: EventFilter) =>
  !f.text.trim() && !f.dated && f.chapter === null && f.status === null && f.assignee === null && f.entityIds.length <= 1;

/** The view in the address: order and (when the server can apply it) the codex filter. */
export function eventViewOf(url: URL): { order: EventOrder; entityId: number | null } {
  const filter = filterFromParams(url.searchParams);
  return {
    order: url.searchParams.get("order") === "chronological" ? "chronological" : "position",
    entityId: serverFilters(filter) ? (filter.entityIds[0] ?? null) : null,
  };
}

/** The first screenful of a view from a full list (shared mode's service returns every event). */
export function firstScreenOf(all: EventView[], url: URL): EventPage {
  const { order } = eventViewOf(url);
  const shown = filterEvents(all, filterFromParams(url.searchParams));
  const sorted = order === "chronological" ? sortChronologically(shown) : shown;
  return { events: sorted.slice(0, FIRST_SCREEN_EVENTS), total: shown.length, all: all.length };
}

/** The Plotline filter in the address (`?plotline=3`): one plotline's scenes, or null for all. */
export function plotlineFromParams(params: URLSearchParams): number | null {
  const id = Number(params.get("plotline"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const VIEW_KEYS = new Set(["order", "entity", "match", "q", "dated", "chapter", "status", "assignee", "layout", "plotline"]);

/** Only the view changed (order, filter, layout): the screen already holds every event, nothing to reload. */
export function onlyViewChanged(current: URL, next: URL) {
  if (current.pathname !== next.pathname) return false;
  const keys = new Set([...current.searchParams.keys(), ...next.searchParams.keys()]);
  let changed = false;
  for (const key of keys) {
    if (current.searchParams.getAll(key).join() === next.searchParams.getAll(key).join()) continue;
    if (!VIEW_KEYS.has(key)) return false;
    changed = true;
  }
  return changed;
}
