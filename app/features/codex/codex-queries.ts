import { type QueryClient, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { OFFLINE_MESSAGE } from "~/features/offline/offline-lock";
import { loaderSeed } from "~/features/offline/loader-seed";
import { isOnline } from "~/features/offline/outbox";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { clientOf, refreshTimeline } from "~/features/timeline/change-sessions";
import { ApiError, type ApiClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import type { EntityKind } from "../../../db/domain/rules";
import type { EntityView } from "../../../worker/services/entities";

/**
 * A timeline's codex (characters, places, things) on the client data layer (docs/client-data.md): the server's
 * list as a TanStack query (seeded by the page's loader, so the cards' chips come with the first paint), and the
 * changes to it as mutations under a `mutationKey` with serialisable variables (`CodexChange`), sent as set once by
 * `setCodexDefaults`. An entry shows once the server made it (the card's picker links the new entry at once, so it
 * needs its id); an edit or a delete shows at once. Codex changes are not queued offline yet: they run in their own
 * scope, not behind the outbox's paused changes, and a failure is the toast it always was.
 */

export type EntityFields = {
  kind: EntityKind;
  name: string;
  aliases?: string[];
  description?: string;
  color?: string;
  born?: string | null;
  died?: string | null;
};
type Base = { timelineId: number; shareCode?: string | null };
export type CodexChange =
  | (Base & { kind: "codex.create"; fields: EntityFields })
  | (Base & { kind: "codex.update"; entityId: number; fields: EntityFields })
  | (Base & { kind: "codex.delete"; entityId: number });

type Kind = CodexChange["kind"];
export const codexKey = (timelineId: number) => ["codex", timelineId] as const;
const changeKey = (kind: Kind) => ["codex", kind] as const;

/** The loader's list of each timeline on this page (loader-seed.ts). */
const codexSeed = loaderSeed<EntityView[]>(codexKey);

export function fetchCodex(client: ApiClient, timelineId: number, shareCode?: string | null) {
  return unwrap(client.api.timelines[":id"].entities.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) }));
}

/** The list with one change applied (`saved`: the server's entry, once there is one). */
export function applyCodexChange(list: EntityView[], change: CodexChange, saved?: EntityView): EntityView[] {
  switch (change.kind) {
    case "codex.create":
      return saved && !list.some((e) => e.id === saved.id) ? [...list, saved] : list;
    case "codex.update":
      return list.map((e) => (e.id !== change.entityId ? e : (saved ?? { ...e, ...change.fields })));
    case "codex.delete":
      return list.filter((e) => e.id !== change.entityId);
  }
}

/** How each change is sent, its toast, and what follows it (set once). */
export function setCodexDefaults(queryClient: QueryClient) {
  const confirmed = (change: CodexChange, saved?: EntityView) =>
    queryClient.setQueryData<EntityView[]>(codexKey(change.timelineId), (list) => (list ? applyCodexChange(list, change, saved) : list));
  // Not the outbox's scope (a paused chapter change must not hold an entry back), sent even when the browser
  // thinks it is offline (the request fails as it did before the data layer), and not tried again.
  const common = { scope: { id: "codex" }, networkMode: "always" as const, retry: false };
  // A request that got no answer while the network is gone says so (a control opened before the network dropped,
  // or one outside the codex panel, such as a scene card's picker); the server's own refusals keep their words.
  const failed = (fallback: string) => (error: unknown) =>
    errorToast(!(error instanceof ApiError) && (!navigator.onLine || !isOnline()) ? OFFLINE_MESSAGE : errorMessage(error, fallback));
  queryClient.setMutationDefaults(changeKey("codex.create"), {
    ...common,
    mutationFn: (change: CodexChange) => {
      if (change.kind !== "codex.create") throw new Error(change.kind);
      return unwrap(
        clientOf(change.timelineId).api.timelines[":id"].entities.$post({
          param: { id: String(change.timelineId) },
          query: shareParam(change.shareCode),
          json: change.fields,
        }),
      );
    },
    onSuccess: (saved: EntityView, change: CodexChange) => {
      confirmed(change, saved);
      showToast({ title: "Success", description: "Codex entry created" });
    },
    onError: failed("Failed to create codex entry"),
  });
  queryClient.setMutationDefaults(changeKey("codex.update"), {
    ...common,
    mutationFn: (change: CodexChange) => {
      if (change.kind !== "codex.update") throw new Error(change.kind);
      return unwrap(
        clientOf(change.timelineId).api.entities[":id"].$patch({
          param: { id: String(change.entityId) },
          query: shareParam(change.shareCode),
          json: change.fields,
        }),
      );
    },
    onSuccess: (saved: EntityView, change: CodexChange) => {
      confirmed(change, saved);
      showToast({ title: "Success", description: "Codex entry updated" });
    },
    onError: failed("Failed to update codex entry"),
  });
  queryClient.setMutationDefaults(changeKey("codex.delete"), {
    ...common,
    mutationFn: (change: CodexChange) => {
      if (change.kind !== "codex.delete") throw new Error(change.kind);
      return unwrap(
        clientOf(change.timelineId).api.entities[":id"].$delete({
          param: { id: String(change.entityId) },
          query: shareParam(change.shareCode),
        }),
      );
    },
    onSuccess: (_data: unknown, change: CodexChange) => {
      confirmed(change);
      showToast({ title: "Success", description: "Codex entry deleted" });
      // Its links go too: the scenes reload.
      refreshTimeline(change.timelineId);
    },
    onError: failed("Failed to delete codex entry"),
  });
}

/** The screen's codex from the page's loader (loader-seed.ts): the panel and the cards' chips come with the first paint. */
export const useLoadedCodex = codexSeed.useLoaded;

/** A timeline's codex as shown: the server's list with this page's unconfirmed edits and deletes applied. */
export function useCodexList(timelineId: number, shareCode?: string | null): EntityView[] {
  const query = useQuery({
    queryKey: codexKey(timelineId),
    ...codexSeed.initial(timelineId),
    queryFn: () => fetchCodex(clientOf(timelineId), timelineId, shareCode),
    // Read again when a change or the room says so (invalidated), not each time a part mounts.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const pending = useMutationState({
    filters: { mutationKey: ["codex"], status: "pending" },
    select: (mutation) => mutation.state.variables as CodexChange,
  });
  const server = query.data;
  return useMemo(
    () => pending.filter((c) => c?.timelineId === timelineId).reduce((list, change) => applyCodexChange(list, change), server ?? []),
    [pending, server, timelineId],
  );
}

/** The codex of the timeline screen around. */
export function useCodex(): EntityView[] {
  const { timelineId, shareCode } = useTimelineSession();
  return useCodexList(timelineId, shareCode);
}

/** Sends a change: the server's entry once it answered (the deleted one's id for a delete), or null when it refused. */
function sendCodexChange(queryClient: QueryClient, change: CodexChange): Promise<EntityView | null> {
  const mutation = queryClient.getMutationCache().build(queryClient, { mutationKey: changeKey(change.kind) });
  return mutation.execute(change).then(
    (data) => data as EntityView,
    () => null,
  );
}

/** What the Codex panel, its dialog and the cards' picker do to the codex, called where the writer acts. */
export function useCodexActions() {
  const { timelineId, shareCode } = useTimelineSession();
  return useCodexActionsOf(timelineId, shareCode);
}

/** The same, for the screen that provides the session (one object while the timeline is the same). */
export function useCodexActionsOf(timelineId: number, shareCode?: string | null) {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const base = { timelineId, shareCode };
    const send = (change: CodexChange) => sendCodexChange(queryClient, change);
    return {
      /** The new entry, or null when it was refused (the toast said why). */
      create: (fields: EntityFields) => send({ ...base, kind: "codex.create", fields }),
      update: (entityId: number, fields: EntityFields) => send({ ...base, kind: "codex.update", entityId, fields }),
      remove: (entityId: number) => send({ ...base, kind: "codex.delete", entityId }).then((done) => done !== null),
    };
  }, [queryClient, timelineId, shareCode]);
}
