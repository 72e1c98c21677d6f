import { useMutationState } from "@tanstack/react-query";
import { startTransition, useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { EVENT_CHANGES, type EventChange, applyEventChange } from "~/features/timeline/event-changes";
import type { MutationOutcome } from "~/lib/use-mutation";
import { client, shareParam, unwrap } from "~/lib/client";
import { type LocalChange, initEvents, reduceEvents } from "~/features/timeline/timeline-store";
import { errorToast } from "~/lib/toast";
import type { EventPage, EventView } from "../../../worker/services/events";

type Options = {
  timelineId: number;
  shareCode?: string | null;
  /** The route's first screen (or the list itself when it holds every event); a new one after each reload. */
  page: EventPage;
  /** The route's loader state: "idle" when no reload is on its way. */
  loadState: string;
  /** Reload the route's data. */
  refresh: () => void;
};

/**
 * The events of a timeline screen, in one store (`reduceEvents`): the server's list (the loader's first
 * screen, then the whole list fetched after hydration, again after every reload) and the screen's own
 * writes on top of it until a list asked for after they landed has them.
 */
export function useTimelineEvents({ timelineId, shareCode, page, loadState, refresh }: Options) {
  const [state, dispatch] = useReducer(reduceEvents, page, initEvents);
  // The write clock: ticks when a write starts and when it lands.
  const clock = useRef(0);
  const nextWrite = useRef(0);
  const inFlight = useRef(0);
  const loadSeq = useRef(0);
  // The clock when the latest reload began: the loader's list was read no earlier.
  const reloadAsOf = useRef(0);
  const reloading = useRef(false);
  if (loadState !== "idle" && !reloading.current) reloadAsOf.current = clock.current;
  reloading.current = loadState !== "idle";
  const latest = useRef({ refresh, loadState });
  latest.current = { refresh, loadState };

  // A transition (rendered in slices, never one long task); events that did not change keep their objects,
  // so their memoized cards do not render again.
  const serverList = useCallback((list: EventView[], asOf: number) => {
    startTransition(() => dispatch({ type: "server", list, asOf }));
  }, []);

  // A page that holds every event is the whole list; otherwise the list comes from the API (ETag: a
  // refetch of an unchanged list is a 304).
  useEffect(() => {
    const seq = ++loadSeq.current;
    if (page.events.length === page.all) {
      serverList(page.events, reloadAsOf.current);
      return;
    }
    const asOf = clock.current;
    unwrap(
      client.api.timelines[":id"].events.$get({
        param: { id: String(timelineId) },
        query: { ...shareParam(shareCode), order: "position" },
      }),
    )
      .then((list) => {
        if (seq === loadSeq.current) serverList(list, asOf);
      })
      .catch(() => errorToast("Failed to fetch events"));
  }, [page, timelineId, shareCode, serverList]);

  /**
   * Our own write: `change` shows at once (a move), `result` is what the server's answer changes. No
   * reload for it (its result is on screen), unless a reload was on its way meanwhile.
   */
  const write = useCallback(
    async <T>(
      run: () => Promise<MutationOutcome<T>>,
      options: { change?: LocalChange; result?: (data: T) => LocalChange | undefined } = {},
    ): Promise<MutationOutcome<T>> => {
      const id = ++nextWrite.current;
      clock.current += 1;
      inFlight.current += 1;
      dispatch({ type: "write", id, change: options.change });
      try {
        const outcome = await run();
        clock.current += 1;
        if (outcome.ok) dispatch({ type: "landed", id, at: clock.current, change: options.result?.(outcome.data) });
        else dispatch({ type: "failed", id });
        return outcome;
      } finally {
        inFlight.current -= 1;
        if (inFlight.current === 0 && latest.current.loadState !== "idle") latest.current.refresh();
      }
    },
    [],
  );

  const patch = useCallback(
    (eventId: number, fields: Partial<EventView> | ((event: EventView) => Partial<EventView>)) =>
      dispatch({ type: "patch", eventId, fields }),
    [],
  );
  const setDragging = useCallback((active: boolean) => dispatch({ type: "drag", active }), []);

  /** A change from the outbox the server confirmed: kept on top until a list asked for after it has it. */
  const landed = useCallback((change: LocalChange) => {
    clock.current += 1;
    dispatch({ type: "landed", id: ++nextWrite.current, at: clock.current, change });
  }, []);

  // The outbox's scene changes still waiting (made offline, or kept on the device across a reload): shown at once.
  const queued = useMutationState({
    filters: { mutationKey: [EVENT_CHANGES], status: "pending" },
    select: (mutation) => mutation.state.variables as EventChange | undefined,
  });
  const mine = queued.filter((c): c is EventChange => c?.timelineId === timelineId);
  const queuedKey = JSON.stringify(mine);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the queued changes by value (a new array each cache change).
  const events = useMemo(() => mine.reduce(applyEventChange, state.events), [state.events, queuedKey]);

  return { events, complete: state.complete, write, patch, setDragging, landed };
}
