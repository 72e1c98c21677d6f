import type { LocalChange } from "~/features/timeline/timeline-store";
import { type ApiClient, errorMessage, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import type { MutationOutcome } from "~/lib/use-mutation";
import type { EventView } from "../../../worker/services/events";
import type { ChapterContext } from "./chapter-context";
import { type ApiContext, type Scene, queryOf } from "./chapters-api";
import { queueEventChange, shouldQueue } from "~/features/timeline/event-changes";
import { timelineQueryClient } from "~/features/timeline/timeline-query";
import { chaptersKey } from "./chapter-queries";

// The screen's chapter context and scene moves, apart from the chapters' parts of the screen (chapter-parts.tsx) (the grid uses them too).

export type Write = <T>(
  run: () => Promise<MutationOutcome<T>>,
  options?: { change?: LocalChange; result?: (data: T) => LocalChange | undefined },
) => Promise<MutationOutcome<T>>;

type Held = {
  context: ChapterContext;
  latest: { write: Write; refresh: () => void };
};
const held = new Map<number, Held>();

/**
 * The screen's chapter context: one per timeline for the page's life (the chapters are a query: chapter-queries.ts). Called on every render of the
 * screen (not a hook): it keeps the screen's latest write and refresh.
 */
export function chapterContext(options: {
  timelineId: number;
  shareCode?: string | null;
  /** The session's typed client (one object for the page's life). */
  client: ApiClient;
  write: Write;
  refresh: () => void;
}): ChapterContext {
  const { timelineId, shareCode, client, write, refresh } = options;
  let entry = held.get(timelineId);
  if (!entry) {
    const latest = { write, refresh };
    const api: ApiContext = { shareCode, client };
    const moveScene = async (scene: Scene, chapterId: number | null, to?: number) => {
      // With no network (or changes waiting before it): into the outbox, shown at once.
      if (shouldQueue()) {
        queueEventChange(timelineQueryClient(), { timelineId, shareCode, kind: "event.move", eventId: scene.id, chapterId, to });
        return;
      }
      const body = to === undefined ? { chapterId } : { chapterId, position: to };
      const outcome = await latest.write(
        async (): Promise<MutationOutcome<EventView>> => {
          try {
            const request = api.client.api.events[":id"].$patch({ param: { id: String(scene.id) }, query: queryOf(api), json: body });
            return { ok: true, data: await unwrap(request) };
          } catch (error) {
            errorToast(errorMessage(error, "Failed to update event"));
            return { ok: false, error };
          }
        },
        { change: to === undefined ? undefined : { kind: "move", eventId: scene.id, to }, result: (event) => ({ kind: "event", event }) },
      );
      if (outcome.ok) {
        latest.refresh();
        // The chapters' word counts follow their scenes.
        void timelineQueryClient().invalidateQueries({ queryKey: chaptersKey(timelineId) });
      }
    };
    entry = { context: { timelineId, api, moveScene }, latest };
    held.set(timelineId, entry);
  }
  Object.assign(entry.latest, { write, refresh });
  return entry.context;
}
