import { type QueryClient, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { isOnline, newIdempotencyKey, newTempId, realIdOf, rememberRealId } from "~/features/offline/outbox";
import { reportRefused } from "~/features/offline/refused-changes";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { clientOf, refreshTimeline } from "~/features/timeline/change-sessions";
import { type ApiClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import type { ChapterView } from "./chapters-api";

/**
 * A timeline's chapters on the client data layer (docs/client-data.md): the server's list as a TanStack query,
 * and the changes to it as mutations. A change is described by serialisable variables (`ChapterChange`) under a
 * `mutationKey`; how it is sent is set once (`setChapterDefaults`), so a change made offline is kept, restored
 * after a reload and sent in order (app/features/offline/outbox.ts). What is shown is the server's list with
 * the changes not yet confirmed applied to it (`applyChange`), so it shows at once and survives a refetch.
 */

type Base = { timelineId: number; shareCode?: string | null /** Made with no network: a refusal is shown to copy. */; queued?: boolean };
export type ChapterChange =
  | (Base & {
      kind: "chapter.create";
      /** Negative: the chapter's id until the server gives it one. */
      tempId: number;
      title: string;
      /** Sent as `Idempotency-Key`: a create sent again (its answer lost) is not made twice. */
      key?: string;
    })
  | (Base & { kind: "chapter.update"; chapterId: number; title?: string; targetWords?: number | null })
  | (Base & { kind: "chapter.move"; chapterId: number; position: number })
  | (Base & { kind: "chapter.delete"; chapterId: number });

type Kind = ChapterChange["kind"];
export const chaptersKey = (timelineId: number) => ["chapters", timelineId] as const;
const changeKey = (kind: Kind) => ["chapters", kind] as const;

export const byPosition = (list: ChapterView[]) => [...list].sort((a, b) => a.position - b.position || a.id - b.id);

/** A chapter created offline, once the server gave it its id: the changes queued after it name the temporary one. */
const idOf = realIdOf;

export function fetchChapters(client: ApiClient, timelineId: number, shareCode?: string | null) {
  return unwrap(client.api.timelines[":id"].chapters.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) })).then(
    byPosition,
  );
}

/** The list with one change applied (`created`: the server's chapter, once there is one). */
export function applyChange(list: ChapterView[], change: ChapterChange, created?: ChapterView): ChapterView[] {
  switch (change.kind) {
    case "chapter.create": {
      const chapter = created ?? {
        id: change.tempId,
        timelineId: change.timelineId,
        title: change.title,
        position: list.length,
        targetWords: null,
        wordCount: 0,
      };
      return list.some((c) => c.id === chapter.id) ? list : byPosition([...list, chapter]);
    }
    case "chapter.update": {
      const id = idOf(change.chapterId);
      const { title, targetWords } = change;
      return list.map((c) =>
        c.id === id || c.id === change.chapterId
          ? { ...c, ...(title !== undefined && { title }), ...(targetWords !== undefined && { targetWords }) }
          : c,
      );
    }
    case "chapter.move": {
      const next = [...list];
      const from = next.findIndex((c) => c.id === idOf(change.chapterId) || c.id === change.chapterId);
      if (from < 0) return list;
      next.splice(Math.min(change.position, next.length - 1), 0, ...next.splice(from, 1));
      return next.map((c, position) => ({ ...c, position }));
    }
    case "chapter.delete":
      return list.filter((c) => c.id !== idOf(change.chapterId) && c.id !== change.chapterId);
  }
}

/** How each change is sent, what it says on success, and what happens after (set once, before a restore). */
export function setChapterDefaults(queryClient: QueryClient) {
  const patch = (change: Base & { chapterId: number }, json: { title?: string; targetWords?: number | null; position?: number }) =>
    unwrap(
      clientOf(change.timelineId).api.chapters[":id"].$patch({
        param: { id: String(idOf(change.chapterId)) },
        query: shareParam(change.shareCode),
        json,
      }),
    );
  // A queue sent after reconnecting asks for the lists once, after its last change (a settling change still
  // counts as pending while its onSettled runs): one refetch per change made a queue of 200 take minutes.
  const settled = (change: ChapterChange) => {
    if (queryClient.isMutating({ mutationKey: ["chapters"] }) > 1) return;
    void queryClient.invalidateQueries({ queryKey: chaptersKey(change.timelineId) });
    // The events too: a chapter's move or delete moves its scenes.
    refreshTimeline(change.timelineId);
  };
  // A change the writer made offline says nothing when it lands: the badge says 'All changes synced'.
  const say = (change: ChapterChange, description: string) => {
    if (!change.queued) showToast({ title: "Success", description });
  };
  const failed = (error: unknown, change: ChapterChange) => {
    const message = errorMessage(error, "Failed to update chapter");
    if (change.queued) reportRefused({ what: describeChange(change, queryClient), text: textOf(change), message });
    else errorToast(message);
  };
  const confirmed = (change: ChapterChange, data: ChapterView | undefined) =>
    queryClient.setQueryData<ChapterView[]>(chaptersKey(change.timelineId), (list) =>
      list ? applyChange(list, change, change.kind === "chapter.create" ? data : undefined) : list,
    );
  const common = {
    onError: failed,
    onSettled: (_data: unknown, _error: unknown, change: ChapterChange) => settled(change),
  };
  queryClient.setMutationDefaults(changeKey("chapter.create"), {
    ...common,
    mutationFn: async (change: ChapterChange) => {
      if (change.kind !== "chapter.create") throw new Error(change.kind);
      const created = await unwrap(
        clientOf(change.timelineId).api.timelines[":id"].chapters.$post(
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
    onSuccess: (data: ChapterView, change: ChapterChange) => {
      confirmed(change, data);
      say(change, "Chapter added");
    },
  });
  queryClient.setMutationDefaults(changeKey("chapter.update"), {
    ...common,
    mutationFn: (change: ChapterChange) => {
      if (change.kind !== "chapter.update") throw new Error(change.kind);
      const { title, targetWords } = change;
      return patch(change, { ...(title !== undefined && { title }), ...(targetWords !== undefined && { targetWords }) });
    },
    onSuccess: (_data: unknown, change: ChapterChange) => confirmed(change, undefined),
  });
  queryClient.setMutationDefaults(changeKey("chapter.move"), {
    ...common,
    mutationFn: (change: ChapterChange) => {
      if (change.kind !== "chapter.move") throw new Error(change.kind);
      return patch(change, { position: change.position });
    },
    onSuccess: (_data: unknown, change: ChapterChange) => confirmed(change, undefined),
  });
  queryClient.setMutationDefaults(changeKey("chapter.delete"), {
    ...common,
    mutationFn: (change: ChapterChange) => {
      if (change.kind !== "chapter.delete") throw new Error(change.kind);
      return unwrap(
        clientOf(change.timelineId).api.chapters[":id"].$delete({
          param: { id: String(idOf(change.chapterId)) },
          query: shareParam(change.shareCode),
        }),
      );
    },
    onSuccess: (_data: unknown, change: ChapterChange) => {
      confirmed(change, undefined);
      say(change, "Chapter deleted");
    },
  });
}

/** The title a change carries (what the writer typed), for copying when the server refused it. */
function textOf(change: ChapterChange): string {
  if (change.kind === "chapter.create") return change.title;
  if (change.kind === "chapter.update" && change.title !== undefined) return change.title;
  return "";
}

function describeChange(change: ChapterChange, queryClient: QueryClient): string {
  const list = queryClient.getQueryData<ChapterView[]>(chaptersKey(change.timelineId)) ?? [];
  const name = (id: number) => list.find((c) => c.id === idOf(id))?.title ?? "a chapter";
  switch (change.kind) {
    case "chapter.create":
      return `Add chapter "${change.title}"`;
    case "chapter.update":
      return change.title !== undefined ? `Rename chapter to "${change.title}"` : `Set the target of ${name(change.chapterId)}`;
    case "chapter.move":
      return `Move ${name(change.chapterId)}`;
    case "chapter.delete":
      return `Delete ${name(change.chapterId)}`;
  }
}

/** The timeline's chapters as shown: the server's list with this page's unconfirmed changes applied. */
export function useChapterList(timelineId: number, shareCode?: string | null, client?: ApiClient) {
  const query = useQuery({
    queryKey: chaptersKey(timelineId),
    queryFn: () => fetchChapters(client ?? clientOf(timelineId), timelineId, shareCode),
    refetchOnWindowFocus: false,
  });
  const pending = useMutationState({
    filters: { mutationKey: ["chapters"], status: "pending" },
    select: (mutation) => mutation.state.variables as ChapterChange,
  });
  const server = query.data;
  const chapters = useMemo(
    () => pending.filter((c) => c?.timelineId === timelineId).reduce((list, change) => applyChange(list, change), server ?? []),
    [pending, server, timelineId],
  );
  // The changes on their way to the server now (one kept offline, paused, is not).
  const sending = useMutationState({
    filters: { mutationKey: ["chapters"], status: "pending", predicate: (m) => !m.state.isPaused },
    select: (mutation) => (mutation.state.variables as ChapterChange | undefined)?.timelineId,
  });
  return {
    chapters,
    loaded: query.isSuccess || query.isError || (pending.length > 0 && query.isPaused),
    /** The list is being fetched again, or a change to it is on its way. */
    busy: query.isFetching || sending.includes(timelineId),
  };
}

/** Sends a change; with no network it is queued and counts as done (it shows at once, and is sent later). */
export function sendChapterChange(queryClient: QueryClient, change: ChapterChange): Promise<boolean> {
  const queued = !isOnline();
  const mutation = queryClient.getMutationCache().build(queryClient, { mutationKey: changeKey(change.kind) });
  const done = mutation.execute({ ...change, queued }).then(
    () => true,
    () => false,
  );
  return queued ? Promise.resolve(true) : done;
}

/** Moves a chapter one place up (-1) or down (+1) in the list as shown; its scenes follow it. */
export function moveChapterBy(queryClient: QueryClient, base: Base, chapters: ChapterView[], chapterId: number, step: number) {
  const from = chapters.findIndex((c) => c.id === chapterId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= chapters.length) return Promise.resolve(false);
  return sendChapterChange(queryClient, { ...base, kind: "chapter.move", chapterId, position: to });
}

/**
 * What the chapter parts of the timeline screen do to chapters, called where the writer acts (the header, its
 * settings, 'Add chapter', the grid): each resolves true once the server confirmed it, or at once when queued.
 */
export function useChapterActions() {
  const queryClient = useQueryClient();
  const { timelineId, shareCode } = useTimelineSession();
  const { chapters } = useChapterList(timelineId, shareCode);
  const base = useMemo(() => ({ timelineId, shareCode }), [timelineId, shareCode]);
  const send = useCallback((change: ChapterChange) => sendChapterChange(queryClient, change), [queryClient]);
  return {
    create: (title: string) =>
      send({ ...base, kind: "chapter.create", tempId: newTempId(), key: newIdempotencyKey(), title: title.trim() }),
    update: (chapterId: number, changes: { title?: string; targetWords?: number | null }) =>
      send({ ...base, kind: "chapter.update", chapterId, ...changes }),
    move: (chapterId: number, step: number) => moveChapterBy(queryClient, base, chapters, chapterId, step),
    moveTo: (chapterId: number, position: number) => {
      const from = chapters.findIndex((c) => c.id === chapterId);
      if (from < 0 || from === position) return Promise.resolve(false);
      return send({ ...base, kind: "chapter.move", chapterId, position });
    },
    remove: (chapterId: number) => send({ ...base, kind: "chapter.delete", chapterId }),
  };
}
