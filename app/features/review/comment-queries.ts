import { type QueryClient, hashKey, keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { clientOf } from "~/features/timeline/change-sessions";
import { errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import type { CommentView } from "../../../worker/services/comments";
import type { TimelineCommentView } from "../../../worker/services/timeline-comments";

/**
 * A timeline's comments on the client data layer (docs/client-data.md): three kinds of list as TanStack queries
 * under `["comments", timelineId, …]` (a scene's comments, the timeline's threads for the Comments panel, the
 * open-thread counts on the cards) and the writes as mutations under a `mutationKey` with serialisable variables
 * (`CommentChange`), sent as set once by `setCommentDefaults`. A write, and the room's `sync` of a scene's comments,
 * invalidates the lists (`commentsChanged`): every open view of them reads them again. Comments are not queued
 * offline yet: they run in their own scope and a failure is the toast it always was.
 */

type Base = { timelineId: number; shareCode?: string | null };
type Anchor = NonNullable<CommentView["anchor"]>;
export type CommentChange =
  | (Base & { kind: "comment.create"; eventId: number; body: string; anchor?: Anchor | null; threadId?: number })
  | (Base & { kind: "comment.update"; eventId: number; commentId: number; body?: string; resolved?: boolean })
  | (Base & { kind: "comment.delete"; eventId: number; commentId: number });
type Kind = CommentChange["kind"];

export type ThreadFilter = { status: "open" | "resolved"; author?: string };

export const commentsKey = (timelineId: number) => ["comments", timelineId] as const;
const sceneKey = (timelineId: number, eventId: number) => ["comments", timelineId, "scene", eventId] as const;
const threadsKey = (timelineId: number, filter?: ThreadFilter) =>
  filter ? (["comments", timelineId, "threads", filter] as const) : (["comments", timelineId, "threads"] as const);
const countsKey = (timelineId: number) => ["comments", timelineId, "counts"] as const;
const changeKey = (kind: Kind) => ["comments", kind] as const;

/** The room's `sync` of a scene's comments, or my own write: the lists that show them read them again. */
export function commentsChanged(queryClient: QueryClient, timelineId: number, eventId?: number): Promise<unknown> {
  if (eventId === undefined) return queryClient.invalidateQueries({ queryKey: commentsKey(timelineId) });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: sceneKey(timelineId, eventId) }),
    queryClient.invalidateQueries({ queryKey: threadsKey(timelineId) }),
    queryClient.invalidateQueries({ queryKey: countsKey(timelineId) }),
  ]);
}

// Read as they were before the data layer: fetched when a view opens and when they change, not on window focus,
// and a failed fetch says so once (not retried first).
const readOptions = { refetchOnWindowFocus: false, retry: false } as const;

function fetchThreads(timelineId: number, shareCode: string | null, filter: ThreadFilter) {
  const query = { ...shareParam(shareCode), status: filter.status, ...(filter.author && { author: filter.author }) };
  return unwrap(clientOf(timelineId).api.timelines[":id"].comments.$get({ param: { id: String(timelineId) }, query })).then((rows) =>
    Array.isArray(rows) ? (rows as TimelineCommentView[]) : [],
  );
}

/** A scene's comments (threads and replies, oldest first), kept fresh; `reload` reads them again now. */
export function useSceneComments(timelineId: number, eventId: number, shareCode: string | null) {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    ...readOptions,
    queryKey: sceneKey(timelineId, eventId),
    queryFn: () =>
      unwrap(clientOf(timelineId).api.events[":id"].comments.$get({ param: { id: String(eventId) }, query: shareParam(shareCode) })).catch(
        (error: unknown) => {
          errorToast(errorMessage(error, "Could not load the comments"));
          throw error;
        },
      ),
  });
  const reload = useCallback(
    () => queryClient.refetchQueries({ queryKey: sceneKey(timelineId, eventId) }),
    [queryClient, timelineId, eventId],
  );
  return { list: data ?? noComments, reload };
}
const noComments: CommentView[] = [];

/** The timeline's threads for the Comments panel (`null` until the first list came); a new filter keeps the last list shown until its own comes. */
export function useTimelineThreads(timelineId: number, shareCode: string | null, filter: ThreadFilter) {
  const { data } = useQuery({
    ...readOptions,
    queryKey: threadsKey(timelineId, filter),
    queryFn: () =>
      fetchThreads(timelineId, shareCode, filter).catch((error: unknown) => {
        errorToast(errorMessage(error, "Could not load the comments"));
        throw error;
      }),
    placeholderData: keepPreviousData,
  });
  return data ?? null;
}

/** A comment of the timeline by id (a notification's link), among the open threads, then the resolved ones. */
export async function findComment(queryClient: QueryClient, timelineId: number, shareCode: string | null, commentId: number) {
  for (const status of ["open", "resolved"] as const) {
    const filter = { status };
    const rows = await queryClient.fetchQuery({
      queryKey: threadsKey(timelineId, filter),
      queryFn: () => fetchThreads(timelineId, shareCode, filter),
      retry: false,
    });
    const found = rows.find((c) => c.id === commentId);
    if (found) return found;
  }
  return null;
}

type Counts = Record<string, number>;

/**
 * The open-thread counts per scene: fetched as the timeline screen mounts and again whenever a
 * scene's comments change; offline the fetch waits for the network. One observer (the review's tools) keeps it;
 * each card reads its own count with `useCommentCount` (a thousand cards are a thousand cheap subscriptions, not
 * a thousand query observers).
 */
export function useCommentCountsQuery(timelineId: number, shareCode: string | null) {
  useQuery({
    ...readOptions,
    queryKey: countsKey(timelineId),
    queryFn: async () => {
      const res = await unwrap(
        clientOf(timelineId).api.timelines[":id"].comments.$get({
          param: { id: String(timelineId) },
          query: { ...shareParam(shareCode), counts: "1" },
        }),
      );
      return "counts" in res ? (res.counts as Counts) : {};
    },
  });
}

/** A scene's open threads (0 until the counts came; a failed fetch keeps the last counts). */
export function useCommentCount(timelineId: number, eventId: number) {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (listener: () => void) => {
      const hash = hashKey(countsKey(timelineId));
      return queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === hash) listener();
      });
    },
    [queryClient, timelineId],
  );
  const read = () => queryClient.getQueryData<Counts>(countsKey(timelineId))?.[String(eventId)] ?? 0;
  return useSyncExternalStore(subscribe, read, () => 0);
}

/** How each write is sent and what follows it (set once, on the timeline screen's QueryClient: the Manuscript shares it). */
export function setCommentDefaults(queryClient: QueryClient) {
  // Not the outbox's scope (a paused chapter change must not hold a comment back), sent even when the browser
  // thinks it is offline (the request fails as it did before the data layer), and not tried again.
  const common = {
    scope: { id: "comments" },
    networkMode: "always" as const,
    retry: false,
    // My write leaves my own connection out of the room's resync: my views read the lists again themselves.
    // Resolved once the open lists have it (a closed box and its comment show together).
    onSuccess: (_data: unknown, change: CommentChange) => commentsChanged(queryClient, change.timelineId, change.eventId),
  };
  queryClient.setMutationDefaults(changeKey("comment.create"), {
    ...common,
    mutationFn: (change: CommentChange) => {
      if (change.kind !== "comment.create") throw new Error(change.kind);
      const { body, anchor, threadId } = change;
      return unwrap(
        clientOf(change.timelineId).api.events[":id"].comments.$post({
          param: { id: String(change.eventId) },
          query: shareParam(change.shareCode),
          json: { body, ...(anchor !== undefined && { anchor }), ...(threadId !== undefined && { threadId }) },
        }),
      );
    },
    onError: (error: unknown) => errorToast(errorMessage(error, "Could not post the comment")),
  });
  queryClient.setMutationDefaults(changeKey("comment.update"), {
    ...common,
    mutationFn: (change: CommentChange) => {
      if (change.kind !== "comment.update") throw new Error(change.kind);
      const { body, resolved } = change;
      return unwrap(
        clientOf(change.timelineId).api.comments[":id"].$patch({
          param: { id: String(change.commentId) },
          query: shareParam(change.shareCode),
          json: { ...(body !== undefined && { body }), ...(resolved !== undefined && { resolved }) },
        }),
      );
    },
    onError: (error: unknown) => errorToast(errorMessage(error, "Could not save the comment")),
  });
  queryClient.setMutationDefaults(changeKey("comment.delete"), {
    ...common,
    mutationFn: (change: CommentChange) => {
      if (change.kind !== "comment.delete") throw new Error(change.kind);
      return unwrap(
        clientOf(change.timelineId).api.comments[":id"].$delete({
          param: { id: String(change.commentId) },
          query: shareParam(change.shareCode),
        }),
      );
    },
    onError: (error: unknown) => errorToast(errorMessage(error, "Could not delete the comment")),
  });
}

/**
 * The comment writes of a timeline, per scene: each resolves `true` once the server took it and the open lists have
 * it, or `false` after its error toast ('Could not post the comment', 'Could not save the comment', 'Could not delete
 * the comment', or the server's message).
 */
export function useCommentWrites(timelineId: number, shareCode: string | null) {
  const create = useMutation<unknown, unknown, CommentChange>({ mutationKey: changeKey("comment.create") });
  const update = useMutation<unknown, unknown, CommentChange>({ mutationKey: changeKey("comment.update") });
  const remove = useMutation<unknown, unknown, CommentChange>({ mutationKey: changeKey("comment.delete") });
  const send = (mutation: typeof create, change: CommentChange) =>
    mutation.mutateAsync(change).then(
      () => true,
      () => false,
    );
  return (eventId: number) => {
    const base = { timelineId, eventId, shareCode };
    return {
      post: (body: string, extra: { anchor?: Anchor | null; threadId?: number }) =>
        send(create, { ...base, kind: "comment.create", body, ...extra }),
      patch: (commentId: number, fields: { body?: string; resolved?: boolean }) =>
        send(update, { ...base, kind: "comment.update", commentId, ...fields }),
      remove: (commentId: number) => send(remove, { ...base, kind: "comment.delete", commentId }),
    };
  };
}

/** A scene's comment writes (`useCommentWrites` of its timeline). */
export const useCommentActions = (timelineId: number, eventId: number, shareCode: string | null) =>
  useCommentWrites(timelineId, shareCode)(eventId);
