import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useRef } from "react";
import { queueEventChange, shouldQueue } from "~/features/timeline/event-changes";
import type { EventChanges, SaveResult } from "~/features/timeline/event-card";
import type { EventHistoryActions } from "~/features/co-writing/event-history-context";
import { linkedMentionsText } from "~/features/codex/link-mentions";
import { useMutation } from "~/lib/use-mutation";
import type { useTimelineEvents } from "~/features/timeline/use-timeline-events";
import { type ApiClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import type { LocalChange } from "~/features/timeline/timeline-store";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";

type Store = ReturnType<typeof useTimelineEvents>;

/** A write's answer: the event as the server has it now. */
const asEvent = (event: EventView): LocalChange => ({ kind: "event", event });

/**
 * The screen's writes to its events: move, save, restore a version, link a codex entry, delete. Each goes
 * through the store's `write`, so what the server answered stands on screen until a newer list has it.
 */
export function useEventWrites({
  timelineId,
  shareCode,
  client,
  store,
  refresh,
}: {
  timelineId: number;
  shareCode?: string | null;
  /** The session's client (the room connection already set). */
  client: ApiClient;
  store: Store;
  refresh: () => void;
}) {
  const query = shareParam(shareCode);
  const { write } = store;
  // With no network (or changes still waiting before it) a move, save or delete goes into the outbox (event-changes.ts).
  const queryClient = useQueryClient();
  const base = { timelineId, shareCode };
  const patchEvent = (eventId: number, json: { position: number } | EventChanges | { entityIds: number[] }) =>
    unwrap(client.api.events[":id"].$patch({ param: { id: String(eventId) }, query, json }));

  // The optimistic order stands; the room's sync brings everyone else's changes (and ours to them).
  const moveEvent = useMutation((eventId: number, to: number) => patchEvent(eventId, { position: to }), {
    error: () => "Failed to update event",
    revalidate: false,
  });
  const move = (eventId: number, _from: number, to: number) => {
    if (shouldQueue()) return queueEventChange(queryClient, { ...base, kind: "event.move", eventId, to });
    void write(() => moveEvent.run(eventId, to), { change: { kind: "move", eventId, to } });
  };

  // The server's returned event stands; no reload needed.
  const saveEvent = useMutation((event: EventView, changes: EventChanges) => patchEvent(event.id, changes), {
    success: { title: "Success", description: "Event updated successfully" },
    error: (error) => errorMessage(error, "Failed to update event"),
    revalidate: false,
  });
  const save = async (event: EventView, changes: EventChanges): Promise<SaveResult> => {
    if (shouldQueue() || event.id < 0) {
      queueEventChange(queryClient, { ...base, kind: "event.update", eventId: event.id, fields: changes });
      return { ok: true };
    }
    const outcome = await write(() => saveEvent.run(event, changes), { result: asEvent });
    return { ok: outcome.ok };
  };

  // Restoring a version (the card's History): the returned event replaces ours, as after a save.
  const restoreVersion = useMutation(
    (versionId: number) => unwrap(client.api["event-versions"][":id"].restore.$post({ param: { id: String(versionId) }, query })),
    { success: { title: "Version restored" }, error: "Failed to restore this version", revalidate: false },
  );
  const restoreRef = useRef(restoreVersion.run);
  restoreRef.current = restoreVersion.run;
  const historyActions = useMemo<EventHistoryActions>(
    () => ({
      shareCode: shareCode ?? null,
      restore: async (versionId) => {
        const outcome = await write(() => restoreRef.current(versionId), { result: asEvent });
        return outcome.ok ? outcome.data : null;
      },
    }),
    [shareCode, write],
  );

  const linkEntity = useMutation(
    (event: EventView, entity: EntityView) => patchEvent(event.id, { entityIds: [...event.entityIds, entity.id] }),
    {
      success: (_, _event, entity) => ({ title: "Success", description: `${entity.name} linked` }),
      error: (error) => errorMessage(error, "Failed to update event"),
      revalidate: false,
    },
  );
  const latestLink = useRef(linkEntity.run);
  latestLink.current = linkEntity.run;
  const link = useCallback(
    (event: EventView, entity: EntityView) => write(() => latestLink.current(event, entity), { result: asEvent }),
    [write],
  );

  // 'Link all mentions' of one scene: one PATCH with every mentioned entry added to its links.
  const linkEntities = useMutation(
    (event: EventView, mentioned: EntityView[]) =>
      patchEvent(event.id, { entityIds: [...new Set([...event.entityIds, ...mentioned.map((e) => e.id)])] }),
    {
      success: (_, _event, mentioned) => ({ title: "Success", description: linkedMentionsText(mentioned.length) }),
      error: (error) => errorMessage(error, "Failed to update event"),
      revalidate: false,
    },
  );
  const latestLinkAll = useRef(linkEntities.run);
  latestLinkAll.current = linkEntities.run;
  const linkAll = useCallback(
    (event: EventView, mentioned: EntityView[]) => write(() => latestLinkAll.current(event, mentioned), { result: asEvent }),
    [write],
  );

  // A delete reloads the page's data once it landed (the counts change); the event does not come back meanwhile.
  const deleteEvent = useMutation(
    (event: EventView) => unwrap(client.api.events[":id"].$delete({ param: { id: String(event.id) }, query })),
    {
      // Undo brings it back from Trash (its code loads when pressed).
      success: (_, event) => ({
        title: "Success",
        description: "Event deleted successfully",
        note: "It stays in Trash for 30 days.",
        action: {
          label: "Undo",
          onClick: () => void import("~/features/trash/undo").then((m) => m.undoDelete("event", event.id, refresh)),
        },
      }),
      error: () => "Failed to delete event",
      revalidate: false,
    },
  );
  const remove = async (event: EventView) => {
    if (shouldQueue() || event.id < 0) {
      queueEventChange(queryClient, { ...base, kind: "event.delete", eventId: event.id, title: event.title });
      return true;
    }
    const outcome = await write(() => deleteEvent.run(event), { result: () => ({ kind: "delete", eventId: event.id }) });
    if (outcome.ok) refresh();
    return outcome.ok;
  };

  return { move, save, historyActions, link, linkAll, remove, deleting: deleteEvent.pending };
}
