import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { useStoryTime } from "~/features/timeline/use-story-hints";
import { Card } from "~/ui/card";
import { minutesPerDay } from "../../../db/domain/calendar/arithmetic";
import { storySpan } from "../../../db/domain/story-gaps";
import {
  DEFAULT_ZOOM,
  layoutRuler,
  minuteAt,
  placeScenes,
  type TickUnit,
  ticksBetween,
  tickUnit,
  xOf,
  ZOOM_LEVELS,
} from "../../../db/domain/story-ruler";
import type { EventView } from "../../../worker/services/events";

const ROW = 48;
const TICKS = 40;
const LABEL = 168;
const OVERSCAN = 320;
const UNIT_WORDS: Record<TickUnit, string> = { year: "years", month: "months", day: "days" };

export type TimeRulerProps = {
  timelineId: number;
  shareCode?: string | null;
  /** Every shown event, in any order: the dated ones go on the ruler, the others in a list apart. */
  events: EventView[];
  onOpen: (event: EventView) => void;
};

/**
 * The time ruler: dated scenes at their true distance on a horizontal axis in the timeline's calendar, zoomed from
 * years to days; long empty stretches drawn short with their length in words. Only the scenes in view render.
 */
export function TimeRuler({ timelineId, shareCode, events, onOpen }: TimeRulerProps) {
  const time = useStoryTime(timelineId, shareCode, true, events);
  const calendar = time?.calendar;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ left: 0, top: 0, width: 1024, height: 480 });
  const [zoom, setZoom] = useState<number | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const anchor = useRef<number | null>(null);
  // A scene chosen by the keyboard: scrolled into the window (and so rendered), then focused.
  const [goal, setGoal] = useState<{ id: number } | null>(null);

  const { dated, undated } = useMemo(() => {
    if (!calendar) return { dated: [], undated: [] };
    const withSpan = events.map((event) => ({ event, span: storySpan(event, calendar) }));
    const dated = withSpan
      .flatMap(({ event, span }) => (span ? [{ id: event.id, event, ...span }] : []))
      .sort((a, b) => a.from - b.from || a.event.position - b.event.position || a.id - b.id);
    return { dated, undated: withSpan.filter((s) => !s.span).map((s) => s.event) };
  }, [events, calendar]);

  // The first zoom shows the whole story across the window (to scale, before any break).
  const level = zoom ?? fitZoom(dated, view.width, calendar ? minutesPerDay(calendar) : 1440);
  const pxPerDay = ZOOM_LEVELS[level] ?? DEFAULT_ZOOM;
  const layout = useMemo(
    () => (calendar ? layoutRuler(calendar, dated, pxPerDay, { maxGapPx: Math.max(480, view.width * 1.25) }) : null),
    [calendar, dated, pxPerDay, view.width],
  );
  const placed = useMemo(() => (layout ? placeScenes(layout, dated, LABEL) : []), [layout, dated]);
  const rows = placed.reduce((max, p) => Math.max(max, p.row + 1), 1);
  const unit = calendar ? tickUnit(calendar, pxPerDay).unit : "year";
  // The locale the server wrote the page's dates in (the request's Accept-Language).
  const locale = (useRouteLoaderData("root") as { locale?: string } | undefined)?.locale;
  const ticks = useMemo(
    () =>
      calendar && layout
        ? ticksBetween(calendar, layout, pxPerDay, view.left - OVERSCAN, view.left + view.width + OVERSCAN, undefined, locale)
        : [],
    [calendar, layout, pxPerDay, view.left, view.width, locale],
  );

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView({ left: el.scrollLeft, top: el.scrollTop, width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);

  // A zoom keeps the moment at the window's centre where it was.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !layout || anchor.current === null) return;
    el.scrollLeft = xOf(layout, anchor.current) - el.clientWidth / 2;
    anchor.current = null;
  }, [layout]);

  const zoomBy = (delta: number) => {
    const next = Math.min(ZOOM_LEVELS.length - 1, Math.max(0, level + delta));
    if (next === level || !layout) return;
    const el = scroller.current;
    if (el) anchor.current = minuteAt(layout, el.scrollLeft + el.clientWidth / 2);
    setZoom(next);
  };

  // Ctrl/⌘ + wheel (and a trackpad's pinch) zooms; a two-finger pinch on a touch screen too.
  const zoomRef = useRef(zoomBy);
  zoomRef.current = zoomBy;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoomRef.current(e.deltaY < 0 ? 1 : -1);
    };
    const touches = new Map<number, { x: number; y: number }>();
    let baseline = 0;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    };
    const down = (e: PointerEvent) => {
      if (e.pointerType !== "touch") return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      baseline = spread();
    };
    const move = (e: PointerEvent) => {
      if (!touches.has(e.pointerId)) return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const now = spread();
      if (!baseline || !now) return;
      if (now / baseline > 1.3 || now / baseline < 0.77) {
        zoomRef.current(now > baseline ? 1 : -1);
        baseline = now;
      }
    };
    const up = (e: PointerEvent) => {
      touches.delete(e.pointerId);
      baseline = spread();
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    el.addEventListener("pointerdown", down);
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    return () => {
      el.removeEventListener("wheel", onWheel);
      el.removeEventListener("pointerdown", down);
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
    };
  }, []);

  const current = active !== null && dated.some((d) => d.id === active) ? active : (dated[0]?.id ?? null);
  const placeOf = useMemo(() => new Map(placed.map((p) => [p.id, p])), [placed]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per keyboard move, with the places of that moment.
  useLayoutEffect(() => {
    const el = scroller.current;
    const place = goal ? placeOf.get(goal.id) : undefined;
    if (!el || !goal || !place) return;
    if (place.x < el.scrollLeft || place.x + LABEL > el.scrollLeft + el.clientWidth) el.scrollLeft = place.x - el.clientWidth / 3;
    const y = TICKS + place.row * ROW;
    if (y < el.scrollTop || y + ROW > el.scrollTop + el.clientHeight) el.scrollTop = y - ROW;
    setView({ left: el.scrollLeft, top: el.scrollTop, width: el.clientWidth, height: el.clientHeight });
    el.querySelector<HTMLElement>(`[data-scene="${goal.id}"]`)?.focus();
  }, [goal]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "+" || e.key === "=") zoomBy(1);
    else if (e.key === "-" || e.key === "_") zoomBy(-1);
    else if (["ArrowRight", "ArrowLeft", "Home", "End"].includes(e.key) && dated.length) {
      const at = Math.max(
        0,
        dated.findIndex((d) => d.id === current),
      );
      const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: dated.length - 1 }[e.key] ?? at;
      const target = dated[Math.min(dated.length - 1, Math.max(0, next))];
      setActive(target.id);
      setGoal({ id: target.id });
    } else return;
    e.preventDefault();
  };

  if (!calendar || !layout) return <Card className="p-10 text-center text-stone-700">Loading ruler...</Card>;
  const left = view.left - OVERSCAN;
  const right = view.left + view.width + OVERSCAN;
  const firstRow = Math.floor((view.top - TICKS) / ROW) - 2;
  const lastRow = Math.ceil((view.top + view.height - TICKS) / ROW) + 2;
  const shown = dated.filter((d) => {
    const p = placeOf.get(d.id);
    // The scene with the tab stop always renders: the ruler can always be reached by Tab.
    return p && (d.id === current || (p.x + Math.max(p.width, LABEL) >= left && p.x <= right && p.row >= firstRow && p.row <= lastRow));
  });

  return (
    <section aria-label="Time ruler" className="rounded-lg border border-stone-200 bg-white">
      <div className="flex flex-wrap items-center gap-2 border-b border-stone-200 p-2">
        <p className="mr-auto text-sm text-stone-700" aria-live="polite">
          {dated.length} dated {dated.length === 1 ? "scene" : "scenes"}, ticks in {UNIT_WORDS[unit]}.{" "}
          <span className="text-stone-600">Arrow keys move between scenes; + and − zoom.</span>
        </p>
        <button
          type="button"
          title="Zoom out (−)"
          disabled={level === 0}
          onClick={() => zoomBy(-1)}
          className="inline-flex h-9 items-center gap-1 rounded border border-stone-300 px-2 text-sm font-medium text-stone-800 hover:bg-stone-100 disabled:text-stone-500"
        >
          <span aria-hidden="true" className="text-lg leading-none">
            −
          </span>
          Zoom out
        </button>
        <button
          type="button"
          title="Zoom in (+)"
          disabled={level === ZOOM_LEVELS.length - 1}
          onClick={() => zoomBy(1)}
          className="inline-flex h-9 items-center gap-1 rounded border border-stone-300 px-2 text-sm font-medium text-stone-800 hover:bg-stone-100 disabled:text-stone-500"
        >
          <span aria-hidden="true" className="text-lg leading-none">
            +
          </span>
          Zoom in
        </button>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: its scene buttons' arrow keys and + / − bubble here. */}
      <div
        ref={scroller}
        data-testid="time-ruler"
        data-unit={unit}
        onKeyDown={onKeyDown}
        className="relative max-h-[60vh] min-h-48 touch-pan-x touch-pan-y overflow-auto focus:outline-2 focus:outline-brand-600"
      >
        {dated.length === 0 ? (
          <p className="absolute inset-x-0 top-12 px-4 text-center text-sm text-stone-600">
            No dated scenes yet. Give a scene a story start in its edit form to place it on the ruler.
          </p>
        ) : null}
        <div className="relative" style={{ width: layout.width, height: TICKS + rows * ROW + 16 }}>
          <div aria-hidden="true" className="absolute inset-x-0 top-0 h-8 border-b border-stone-300">
            {ticks.map((tick) => (
              <span
                key={`${tick.x}-${tick.label}`}
                data-testid="ruler-tick"
                className={`absolute top-0 h-full border-l pl-1 text-xs whitespace-nowrap ${tick.major ? "border-stone-500 font-semibold text-stone-800" : "border-stone-300 text-stone-600"}`}
                style={{ left: tick.x }}
              >
                {tick.label}
              </span>
            ))}
          </div>
          {layout.breaks.map((gap) => (
            <div
              key={gap.x}
              data-testid="ruler-break"
              className="absolute top-0 bottom-0 flex items-start justify-center border-x-2 border-dashed border-stone-300 bg-stone-50 pt-10 text-xs font-medium text-stone-700"
              style={{ left: gap.x, width: gap.width }}
            >
              <span className="px-1 text-center">{gap.label}</span>
            </div>
          ))}
          <ol aria-label="Dated scenes in time order" className="absolute inset-0">
            {shown.map(({ id, event }) => {
              const p = placeOf.get(id)!;
              return (
                <li key={id} className="absolute" style={{ left: p.x, top: TICKS + p.row * ROW }}>
                  <span aria-hidden="true" className="absolute top-0 left-0 h-1.5 rounded bg-brand-600" style={{ width: p.width }} />
                  <button
                    type="button"
                    data-scene={id}
                    data-testid="ruler-scene"
                    tabIndex={id === current ? 0 : -1}
                    onFocus={() => setActive(id)}
                    onClick={() => onOpen(event)}
                    className="mt-2 block rounded border border-stone-300 bg-white px-2 py-0.5 text-left text-sm shadow-sm hover:border-brand-600 focus:outline-2 focus:outline-brand-600"
                    style={{ width: LABEL - 8 }}
                  >
                    <span className="block truncate font-medium text-stone-900">{event.title || "Untitled scene"}</span>
                    <span className="block truncate text-xs text-stone-600">{event.storyStartDisplay ?? event.storyStart}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        </div>
      </div>
      {undated.length ? (
        <div className="border-t border-stone-200 p-3">
          <h3 className="mb-2 text-sm font-semibold text-stone-700">Undated</h3>
          <ul className="flex flex-wrap gap-2">
            {undated.map((event) => (
              <li key={event.id}>
                <button
                  type="button"
                  onClick={() => onOpen(event)}
                  className="rounded border border-stone-300 px-2 py-0.5 text-sm text-stone-800 hover:border-brand-600"
                >
                  {event.title || "Untitled scene"}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** The finest zoom at which the whole dated story fits the window. */
function fitZoom(spans: Array<{ from: number; to: number }>, width: number, perDay: number) {
  if (spans.length < 2) return ZOOM_LEVELS.indexOf(DEFAULT_ZOOM);
  const days = (Math.max(...spans.map((s) => s.to)) - spans[0].from) / perDay;
  let level = 0;
  while (level + 1 < ZOOM_LEVELS.length && ZOOM_LEVELS[level + 1] * days <= width - 120) level++;
  return level;
}
