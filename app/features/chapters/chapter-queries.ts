import { type MutationFunctionContext, type QueryClient, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { goneIsDone, isOnline, newIdempotencyKey, newTempId, realIdOf, rememberRealId, sentNowRetry } from "~/features/offline/outbox";
import { sendCreate } from "~/features/offline/create-runs";
import { loaderSeed } from "~/features/offline/loader-seed";
import { reportRefused } from "~/features/offline/refused-changes";
import { forgetIfAccessEnded } from "~/features/offline/refused-access";
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
  if (change.kind === "chapter.create" && created) {
    return list.some((c) => c.id === created.id) ? list : byPosition([...list, created]);
  }
  return applyChanges(list, [change]);
}

/** The chapter shown for a queued create, by the change (see `applyChanges`). */
const madeBy = new WeakMap<ChapterChange, ChapterView>();

/** Whether chapter `a` comes before `b` in position order (as `byPosition` sorts them). */
const before = (a: ChapterView, b: ChapterView) => a.position < b.position || (a.position === b.position && a.id <= b.id);

/**
 * The list with the changes applied in their order, on one copy of it: a queue of n new chapters costs about n
 * steps more than the list (each goes last, where its position puts it, with no new copy nor sort of the list),
 * not n copies and sorts. The same list as applying them one by one with `applyChange`.
 */
export function applyChanges(list: ChapterView[], changes: readonly ChapterChange[]): ChapterView[] {
  if (changes.length === 0) return list;
  let next = [...list];
  const ids = new Set(next.map((c) => c.id));
  // Whether `next` is in position order now, and whether a new chapter asks for that order (`applyChange` sorts
  // the list when it adds one).
  let inOrder = next.every((c, i) => i === 0 || before(next[i - 1], c));
  let sortDue = false;
  const settle = () => {
    if (sortDue && !inOrder) next = byPosition(next);
    if (sortDue) inOrder = true;
    sortDue = false;
  };
  const matches = (c: ChapterView, chapterId: number) => c.id === idOf(chapterId) || c.id === chapterId;
  for (const change of changes) {
    switch (change.kind) {
      case "chapter.create": {
        if (ids.has(change.tempId)) break;
        // The same object as last time for the same change at the same place: its header need not re-render.
        const kept = madeBy.get(change);
        const chapter: ChapterView =
          kept?.position === next.length
            ? kept
            : {
                id: change.tempId,
                timelineId: change.timelineId,
                title: change.title,
                position: next.length,
                targetWords: null,
                wordCount: 0,
              };
        madeBy.set(change, chapter);
        const last = next[next.length - 1];
        if (last && !before(last, chapter)) inOrder = false;
        next.push(chapter);
        ids.add(chapter.id);
        sortDue = true;
        break;
      }
      case "chapter.update": {
        const { title, targetWords } = change;
        for (const [i, c] of next.entries()) {
          if (!matches(c, change.chapterId)) continue;
          next[i] = { ...c, ...(title !== undefined && { title }), ...(targetWords !== undefined && { targetWords }) };
        }
        break;
      }
      case "chapter.move": {
        settle();
        const from = next.findIndex((c) => matches(c, change.chapterId));
        if (from < 0) break;
        next.splice(Math.min(change.position, next.length - 1), 0, ...next.splice(from, 1));
        next = next.map((c, position) => ({ ...c, position }));
        inOrder = true;
        break;
      }
      case "chapter.delete":
        next = next.filter((c) => {
          if (!matches(c, change.chapterId)) return true;
          ids.delete(c.id);
          return false;
        });
        break;
    }
  }
  settle();
  return next;
}

type CreateChange = Extract<ChapterChange, { kind: "chapter.create" }>;

/** Sends a run of creates in one request (create-runs.ts): the chapters in the run's order. */
async function sendRun(run: CreateChange[]): Promise<ChapterView[]> {
  const [first] = run;
  const { chapters } = await unwrap(
    clientOf(first.timelineId).api.timelines[":id"].chapters.batch.$post({
      param: { id: String(first.timelineId) },
      query: shareParam(first.shareCode),
      json: { chapters: run.map((c) => ({ title: c.title, key: c.key ?? "" })) },
    }),
  );
  for (const [i, change] of run.entries()) {
    const made = chapters[i];
    if (made) rememberRealId(change.tempId, made.id);
  }
  return chapters;
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
    if (change.queued) {
      reportRefused({ what: describeChange(change, queryClient), text: textOf(change), message });
      forgetIfAccessEnded(error, change.timelineId, change.shareCode);
    } else errorToast(message);
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
      // A run of queued creates in one request; this one alone when it is not in a run (or the run was refused).
      return sendCreate(queryClient, change, sendRun, async () => {
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
      });
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
    mutationFn: (change: ChapterChange, context?: MutationFunctionContext) => {
      if (change.kind !== "chapter.delete") throw new Error(change.kind);
      return goneIsDone(context, change, () =>
        unwrap(
          clientOf(change.timelineId).api.chapters[":id"].$delete({
            param: { id: String(idOf(change.chapterId)) },
            query: shareParam(change.shareCode),
          }),
        ),
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

/** The changes to a timeline's chapters not yet confirmed, in the order they were made. */
const pendingChanges = (queryClient: QueryClient, timelineId: number) =>
  queryClient
    .getMutationCache()
    .findAll({ mutationKey: ["chapters"], status: "pending" })
    .map((mutation) => mutation.state.variables as ChapterChange | undefined)
    .filter((change): change is ChapterChange => change?.timelineId === timelineId);

/** The timeline's chapters as shown now (as `useChapterList` has them), read once rather than watched. */
export const chaptersShown = (queryClient: QueryClient, timelineId: number) =>
  applyChanges(queryClient.getQueryData<ChapterView[]>(chaptersKey(timelineId)) ?? [], pendingChanges(queryClient, timelineId));

/** The loader's list of each timeline on this page (loader-seed.ts). */
const chapterSeed = loaderSeed<ChapterView[]>(chaptersKey);

/** The screen's chapters from the page's loader (loader-seed.ts): the first paint has them, nothing is fetched at mount. */
export const useLoadedChapters = chapterSeed.useLoaded;

/** The timeline's chapters as shown: the server's list with this page's unconfirmed changes applied. */
export function useChapterList(timelineId: number, shareCode?: string | null, client?: ApiClient) {
  const query = useQuery({
    queryKey: chaptersKey(timelineId),
    ...chapterSeed.initial(timelineId),
    queryFn: () => fetchChapters(client ?? clientOf(timelineId), timelineId, shareCode),
    // Read again when a change or the room says so (invalidated), not at mount: the page's loader brought the list
    // (a fetch started by the mount would change the query's state between hydration and its effects, and React
    // re-renders the whole screen synchronously for that: one long task).
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const pending = useMutationState({
    filters: { mutationKey: ["chapters"], status: "pending" },
    select: (mutation) => mutation.state.variables as ChapterChange,
  });
  const server = query.data;
  const chapters = useMemo(
    () =>
      applyChanges(
        server ?? [],
        pending.filter((c) => c?.timelineId === timelineId),
      ),
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
  const base = useMemo(() => ({ timelineId, shareCode }), [timelineId, shareCode]);
  const send = useCallback((change: ChapterChange) => sendChapterChange(queryClient, change), [queryClient]);
  // The list as shown, read when the writer acts: every chapter header has these actions, and each watching the
  // list made every change to it re-render and re-derive all the headers (a queue of 200 took minutes).
  const shown = () => chaptersShown(queryClient, timelineId);
  return {
    create: (title: string) =>
      send({ ...base, kind: "chapter.create", tempId: newTempId(), key: newIdempotencyKey(), title: title.trim() }),
    update: (chapterId: number, changes: { title?: string; targetWords?: number | null }) =>
      send({ ...base, kind: "chapter.update", chapterId, ...changes }),
    move: (chapterId: number, step: number) => moveChapterBy(queryClient, base, shown(), chapterId, step),
    moveTo: (chapterId: number, position: number) => {
      const from = shown().findIndex((c) => c.id === chapterId);
      if (from < 0 || from === position) return Promise.resolve(false);
      return send({ ...base, kind: "chapter.move", chapterId, position });
    },
    remove: (chapterId: number) => send({ ...base, kind: "chapter.delete", chapterId }),
  };
}
