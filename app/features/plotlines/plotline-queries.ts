import { type MutationFunctionContext, type QueryClient, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { goneIsDone, isOnline, newIdempotencyKey, newTempId, realIdOf, rememberRealId, sentNowRetry } from "~/features/offline/outbox";
import { clientOf, refreshTimeline } from "~/features/timeline/change-sessions";
import { loaderSeed } from "~/features/offline/loader-seed";
import { reportRefused } from "~/features/offline/refused-changes";
import { forgetIfAccessEnded } from "~/features/offline/refused-access";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { type ApiClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { defaultPlotlineColor } from "../../../db/domain/plotline-rules";
import type { PlotlineView } from "../../../worker/services/plotlines";

/**
 * A timeline's plotlines on the client data layer (docs/client-data.md), as the chapters are: the server's list as
 * a TanStack query (seeded by the page's loader, so the cards' chips come with the first paint), and the changes
 * to it as mutations under a `mutationKey` with serialisable variables (`PlotlineChange`), sent as set once by
 * `setPlotlineDefaults`. What is shown is the server's list with this page's unconfirmed changes applied.
 */

type Base = { timelineId: number; shareCode?: string | null /** Made with no network: a refusal is shown to copy. */; queued?: boolean };
export type PlotlineChange =
  | (Base & {
      kind: "plotline.create";
      /** Negative: the plotline's id until the server gives it one. */
      tempId: number;
      title: string;
      /** Sent as `Idempotency-Key`: a create sent again (its answer lost, the page closed while it was sent) is not made twice. */
      key?: string;
    })
  | (Base & { kind: "plotline.update"; plotlineId: number; title?: string; color?: string; position?: number })
  | (Base & { kind: "plotline.delete"; plotlineId: number });

type Kind = PlotlineChange["kind"];
export const plotlinesKey = (timelineId: number) => ["plotlines", timelineId] as const;
const changeKey = (kind: Kind) => ["plotlines", kind] as const;
const FAILED = "Something went wrong. Please try again.";

const byPosition = (list: PlotlineView[]) => [...list].sort((a, b) => a.position - b.position || a.id - b.id);
const renumber = (list: PlotlineView[]) => list.map((p, position) => (p.position === position ? p : { ...p, position }));

/** The loader's list of each timeline on this page (loader-seed.ts). */
const plotlineSeed = loaderSeed<PlotlineView[]>(plotlinesKey);
/** A plotline created offline, once the server gave it its id (kept on the device): the changes queued after it name the temporary one. */
const idOf = realIdOf;
const isIt = (p: PlotlineView, id: number) => p.id === id || p.id === idOf(id);

export function fetchPlotlines(client: ApiClient, timelineId: number, shareCode?: string | null) {
  return unwrap(client.api.timelines[":id"].plotlines.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) })).then(
    byPosition,
  );
}

/** The list with one change applied (`created`: the server's plotline, once there is one). */
export function applyPlotlineChange(list: PlotlineView[], change: PlotlineChange, created?: PlotlineView): PlotlineView[] {
  switch (change.kind) {
    case "plotline.create": {
      const plotline = created ?? {
        id: change.tempId,
        timelineId: change.timelineId,
        title: change.title,
        color: defaultPlotlineColor(list.length),
        position: list.length,
      };
      return list.some((p) => p.id === plotline.id) ? list : byPosition([...list, plotline]);
    }
    case "plotline.update": {
      const { title, color, position } = change;
      const next = list.map((p) =>
        isIt(p, change.plotlineId) ? { ...p, ...(title !== undefined && { title }), ...(color !== undefined && { color }) } : p,
      );
      if (position === undefined) return next;
      // As the server: clamped to the last place, the others shift to make room.
      const from = next.findIndex((p) => isIt(p, change.plotlineId));
      if (from < 0) return next;
      next.splice(Math.min(Math.max(0, position), next.length - 1), 0, ...next.splice(from, 1));
      return renumber(next);
    }
    case "plotline.delete":
      return renumber(list.filter((p) => !isIt(p, change.plotlineId)));
  }
}

function describeChange(change: PlotlineChange, queryClient: QueryClient): string {
  const list = queryClient.getQueryData<PlotlineView[]>(plotlinesKey(change.timelineId)) ?? [];
  const name = (id: number) => list.find((p) => isIt(p, id))?.title ?? "a plotline";
  switch (change.kind) {
    case "plotline.create":
      return `Add plotline "${change.title}"`;
    case "plotline.update":
      if (change.title !== undefined) return `Rename plotline to "${change.title}"`;
      return change.color !== undefined ? `Recolor ${name(change.plotlineId)}` : `Move ${name(change.plotlineId)}`;
    case "plotline.delete":
      return `Delete ${name(change.plotlineId)}`;
  }
}

/** How each change is sent and what follows it (set once, before a restore): no toast on success, as before. */
export function setPlotlineDefaults(queryClient: QueryClient) {
  const confirmed = (change: PlotlineChange, data?: PlotlineView) =>
    queryClient.setQueryData<PlotlineView[]>(plotlinesKey(change.timelineId), (list) =>
      list ? applyPlotlineChange(list, change, change.kind === "plotline.create" ? data : undefined) : list,
    );
  const common = {
    onError: (error: unknown, change: PlotlineChange) => {
      const message = errorMessage(error, FAILED);
      const text = change.kind === "plotline.delete" ? "" : (change.title ?? "");
      if (change.queued) {
        reportRefused({ what: describeChange(change, queryClient), text, message });
        forgetIfAccessEnded(error, change.timelineId, change.shareCode);
      } else errorToast(message);
    },
    onSettled: (_data: unknown, _error: unknown, change: PlotlineChange) => {
      // A queue sent after reconnecting asks for the list once, after its last change.
      if (queryClient.isMutating({ mutationKey: ["plotlines"] }) > 1) return;
      void queryClient.invalidateQueries({ queryKey: plotlinesKey(change.timelineId) });
      // A deleted plotline leaves its scenes: the scenes reload.
      if (change.kind === "plotline.delete") refreshTimeline(change.timelineId);
    },
  };
  queryClient.setMutationDefaults(changeKey("plotline.create"), {
    ...common,
    mutationFn: async (change: PlotlineChange) => {
      if (change.kind !== "plotline.create") throw new Error(change.kind);
      const created = await unwrap(
        clientOf(change.timelineId).api.timelines[":id"].plotlines.$post(
          {
            param: { id: String(change.timelineId) },
            query: shareParam(change.shareCode),
            json: { title: change.title },
          },
          change.key ? { headers: { "Idempotency-Key": change.key } } : undefined,
        ),
      );
      rememberRealId(change.tempId, created.id);
      return created;
    },
    onSuccess: (data: PlotlineView, change: PlotlineChange) => confirmed(change, data),
  });
  queryClient.setMutationDefaults(changeKey("plotline.update"), {
    ...common,
    mutationFn: (change: PlotlineChange) => {
      if (change.kind !== "plotline.update") throw new Error(change.kind);
      const { title, color, position } = change;
      return unwrap(
        clientOf(change.timelineId).api.plotlines[":id"].$patch({
          param: { id: String(idOf(change.plotlineId)) },
          query: shareParam(change.shareCode),
          json: {
            ...(title !== undefined && { title }),
            ...(color !== undefined && { color }),
            ...(position !== undefined && { position }),
          },
        }),
      );
    },
    onSuccess: (_data: unknown, change: PlotlineChange) => confirmed(change),
  });
  queryClient.setMutationDefaults(changeKey("plotline.delete"), {
    ...common,
    mutationFn: (change: PlotlineChange, context?: MutationFunctionContext) => {
      if (change.kind !== "plotline.delete") throw new Error(change.kind);
      return goneIsDone(context, change, () =>
        unwrap(
          clientOf(change.timelineId).api.plotlines[":id"].$delete({
            param: { id: String(idOf(change.plotlineId)) },
            query: shareParam(change.shareCode),
          }),
        ),
      );
    },
    onSuccess: (_data: unknown, change: PlotlineChange) => confirmed(change),
  });
}

/** The screen's plotlines from the page's loader (loader-seed.ts): the cards' chips come with the first paint. */
export const useLoadedPlotlines = plotlineSeed.useLoaded;

/** The timeline's plotlines as shown, in order: the server's list with this page's unconfirmed changes applied. */
export function usePlotlines(): PlotlineView[] {
  const { timelineId, shareCode } = useTimelineSession();
  const query = useQuery({
    queryKey: plotlinesKey(timelineId),
    ...plotlineSeed.initial(timelineId),
    queryFn: () => fetchPlotlines(clientOf(timelineId), timelineId, shareCode),
    // Read again when a change or the room says so (invalidated), not each time a card mounts.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const pending = useMutationState({
    filters: { mutationKey: ["plotlines"], status: "pending" },
    select: (mutation) => mutation.state.variables as PlotlineChange,
  });
  const server = query.data;
  return useMemo(
    () => pending.filter((c) => c?.timelineId === timelineId).reduce((list, change) => applyPlotlineChange(list, change), server ?? []),
    [pending, server, timelineId],
  );
}

/** Sends a change; with no network it is queued and counts as done (it shows at once, and is sent later). */
export function sendPlotlineChange(queryClient: QueryClient, change: PlotlineChange): Promise<boolean> {
  const queued = !isOnline();
  // Made online, the writer waits for it: a rate limit (429) is said at once, not waited out (queued, it waits).
  const mutation = queryClient
    .getMutationCache()
    .build(queryClient, { mutationKey: changeKey(change.kind), ...(!queued && { retry: sentNowRetry }) });
  const done = mutation.execute({ ...change, queued }).then(
    () => true,
    () => false,
  );
  return queued ? Promise.resolve(true) : done;
}

/**
 * What the Plotlines dialog and the grid do to plotlines, called where the writer acts: each resolves true once
 * the server confirmed it, or at once when queued.
 */
export function usePlotlineActions() {
  const queryClient = useQueryClient();
  const { timelineId, shareCode } = useTimelineSession();
  const base = { timelineId, shareCode };
  const send = (change: PlotlineChange) => sendPlotlineChange(queryClient, change);
  return {
    create: (title: string) =>
      send({ ...base, kind: "plotline.create", tempId: newTempId(), key: newIdempotencyKey(), title: title.trim() }),
    update: (plotlineId: number, changes: { title?: string; color?: string }) =>
      send({ ...base, kind: "plotline.update", plotlineId, ...changes }),
    /** One place up (-1) or down (+1); the server clamps it to the list. */
    move: (plotline: PlotlineView, step: number) =>
      send({ ...base, kind: "plotline.update", plotlineId: plotline.id, position: Math.max(0, plotline.position + step) }),
    remove: (plotlineId: number) => send({ ...base, kind: "plotline.delete", plotlineId }),
  };
}
