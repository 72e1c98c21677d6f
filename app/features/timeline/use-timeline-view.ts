import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { DEFAULT_LAYOUT, type TimelineLayout, layoutFromParams } from "~/features/timeline/timeline-view";
import { type EventFilter, filterFromParams, filterToParams, isFiltering } from "../../../db/domain/story-analysis";

/**
 * The timeline screen's view, kept in the address so it can be linked and survives a reload: the order
 * (`?order=chronological`), the filters and the layout (`?layout=horizontal|lanes|map|grid|ruler`).
 */
export function useTimelineView() {
  const [searchParams, setSearchParams] = useSearchParams();
  const chronological = searchParams.get("order") === "chronological";
  const layout = layoutFromParams(searchParams);
  const paramsKey = searchParams.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address's text is the filter's identity
  const filter = useMemo(() => filterFromParams(searchParams), [paramsKey]);

  // Each change builds on the latest address asked for, even before the address has caught up: two quick
  // clicks (or a layout and a filter set together) must not undo each other.
  const latest = useRef({ setSearchParams, searchParams });
  latest.current = { setSearchParams, searchParams };
  const asked = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    if (asked.current?.toString() === paramsKey) asked.current = null;
  }, [paramsKey]);
  const update = useCallback((change: (params: URLSearchParams) => URLSearchParams) => {
    const next = change(new URLSearchParams(asked.current ?? latest.current.searchParams));
    asked.current = next;
    latest.current.setSearchParams(next, { replace: true, preventScrollReset: true });
  }, []);
  const setParam = useCallback(
    (name: string, value: string | null) =>
      update((params) => {
        if (value === null) params.delete(name);
        else params.set(name, value);
        return params;
      }),
    [update],
  );
  const setOrder = useCallback((order: "chronological" | null) => setParam("order", order), [setParam]);
  const setLayout = useCallback((next: TimelineLayout) => setParam("layout", next === DEFAULT_LAYOUT ? null : next), [setParam]);
  const setFilter = useCallback(
    (change: EventFilter | ((current: EventFilter) => EventFilter)) =>
      update((params) => filterToParams(typeof change === "function" ? change(filterFromParams(params)) : change, params)),
    [update],
  );

  return { chronological, layout, filter, filtering: isFiltering(filter), setOrder, setLayout, setFilter, setParam, searchParams };
}
