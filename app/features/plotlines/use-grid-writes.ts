import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { useChapterActions } from "~/features/chapters/chapter-queries";
import { queueEventChange, shouldQueue } from "~/features/timeline/event-changes";
import { usePlotlineActions } from "~/features/plotlines/plotline-queries";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import type { LocalChange } from "~/features/timeline/timeline-store";
import { errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import type { MutationOutcome } from "~/lib/use-mutation";
import type { EventView } from "../../../worker/services/events";
import type { PlotlineView } from "../../../worker/services/plotlines";

type Write = <T>(
  run: () => Promise<MutationOutcome<T>>,
  options?: { change?: LocalChange; result?: (data: T) => LocalChange | undefined },
) => Promise<MutationOutcome<T>>;

export type GridWriteProps = {
  store: { write: Write; setDragging: (active: boolean) => void };
  refresh: () => void;
};

async function attempt<T>(run: () => Promise<T>, fallback: string): Promise<MutationOutcome<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    errorToast(errorMessage(error, fallback));
    return { ok: false, error };
  }
}

const collapsedKey = (timelineId: number) => `storyweave:collapsed-plotlines:${timelineId}`;

function readCollapsed(timelineId: number): Set<string> {
  try {
    const saved = JSON.parse(window.localStorage.getItem(collapsedKey(timelineId)) ?? "[]");
    return new Set(Array.isArray(saved) ? saved.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/**
 * The grid's writes: a card's move (chapter and plotlines in one PATCH, shown at once and undone if refused),
 * the rows' and columns' order, and which rows this browser keeps collapsed. With no network (or changes still
 * waiting before it) a move goes into the outbox as the list's moves do (event-changes.ts): shown at once, kept on
 * the device, sent in its turn, a refusal shown under 'Changes not saved'.
 */
export function useGridWrites({ store, refresh }: GridWriteProps) {
  // The session's client names this page's room connection on every write.
  const { client, timelineId, shareCode } = useTimelineSession();
  const latest = useRef({ store, refresh });
  latest.current = { store, refresh };
  const query = shareParam(shareCode);
  const queryClient = useQueryClient();

  const move = useCallback(
    async (event: EventView, change: { chapterId: number | null; plotlineIds: number[] }) => {
      // A scene added offline has no id on the server yet: its move waits behind its create.
      if (shouldQueue() || event.id < 0) {
        queueEventChange(queryClient, { timelineId, shareCode, kind: "event.move", eventId: event.id, ...change });
        return true;
      }
      const { store, refresh } = latest.current;
      const outcome = await store.write(
        () =>
          attempt(
            () => unwrap(client.api.events[":id"].$patch({ param: { id: String(event.id) }, query, json: change })),
            "Failed to update event",
          ),
        { change: { kind: "event", event: { ...event, ...change } }, result: (data) => ({ kind: "event", event: data }) },
      );
      // The other scenes' places in the story order changed too.
      if (outcome.ok) refresh();
      return outcome.ok;
    },
    [client, query, queryClient, timelineId, shareCode],
  );

  const plotlineActions = usePlotlineActions();
  const movePlotline = (plotline: PlotlineView, step: number) => plotlineActions.move(plotline, step);

  const chapterActions = useChapterActions();
  const moveChapter = (chapterId: number, step: number) => chapterActions.move(chapterId, step);

  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() =>
    typeof window === "undefined" ? new Set() : readCollapsed(timelineId),
  );
  const toggleRow = (key: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      try {
        window.localStorage.setItem(collapsedKey(timelineId), JSON.stringify([...next]));
      } catch {
        // Private mode: collapsed for this visit only.
      }
      return next;
    });

  return { move, movePlotline, moveChapter, collapsed, toggleRow };
}
