import { useSyncExternalStore } from "react";
import { COMMENTS_CHANGED } from "~/features/co-writing/co-editor-context";
import { client, shareParam, unwrap } from "~/lib/client";

// The review's shared state on the timeline screen: who is looking (their rights), the open-thread counts per scene
// and the scene whose comments are open. One timeline screen at a time, so one store; each card reads its own count.

export type ReviewScope = {
  timelineId: number;
  shareCode: string | null;
  myUserId: number;
  canEdit: boolean;
  isOwner: boolean;
  /** Editors, and viewers while the owner lets them comment. */
  canComment: boolean;
};

/** A scene whose comments are open; `commentId`: the thread a notification's link points at (shown and highlighted). */
export type OpenScene = { id: number; title: string; commentId?: number };
type State = { scope: ReviewScope | null; counts: Record<string, number>; openScene: OpenScene | null };

let state: State = { scope: null, counts: {}, openScene: null };
const listeners = new Set<() => void>();
const set = (next: Partial<State>) => {
  state = { ...state, ...next };
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useReview = <T>(select: (s: State) => T) =>
  useSyncExternalStore(
    subscribe,
    () => select(state),
    () => select(state),
  );

export const setScope = (scope: ReviewScope | null) => set({ scope, ...(scope === null && { counts: {}, openScene: null }) });
export const openScene = (scene: OpenScene | null) => set({ openScene: scene });

/**
 * A notification's link (`?event=…&comment=…`): the comment's scene opens with its thread in view. The thread is
 * looked up among the timeline's open threads, then the resolved ones (a reply leads to its thread).
 */
export async function openLinkedComment(scope: ReviewScope, commentId: number) {
  for (const status of ["open", "resolved"] as const) {
    try {
      const rows = await unwrap(
        client.api.timelines[":id"].comments.$get({
          param: { id: String(scope.timelineId) },
          query: { ...shareParam(scope.shareCode), status },
        }),
      );
      const found = Array.isArray(rows) ? rows.find((c) => c.id === commentId) : undefined;
      if (found && state.scope === scope) {
        return set({ openScene: { id: found.eventId, title: found.eventTitle, commentId: found.threadId ?? found.id } });
      }
    } catch {
      return;
    }
  }
}

/** The open-thread counts, fetched after hydration and again whenever a scene's comments change. */
export async function reloadCounts() {
  const scope = state.scope;
  // Offline the fetch can only fail: the counts are fetched again when the browser is back online.
  if (!scope || !navigator.onLine) return;
  try {
    const res = await unwrap(
      client.api.timelines[":id"].comments.$get({
        param: { id: String(scope.timelineId) },
        query: { ...shareParam(scope.shareCode), counts: "1" },
      }),
    );
    if ("counts" in res && state.scope === scope) set({ counts: res.counts });
  } catch {
    // The badges keep their last counts; the panels say what went wrong when opened.
  }
}

/** A scene's text changed on its card (someone typing, a save): an open read view of it follows. */
const textListeners = new Set<(eventId: number) => void>();
export const sceneTextChanged = (eventId: number) => {
  for (const l of textListeners) l(eventId);
};
export const onSceneText = (listener: (eventId: number) => void) => {
  textListeners.add(listener);
  return () => void textListeners.delete(listener);
};

/** After my own write: my other views of the comments (counts, panels, an open editor's panel) load again. */
export const commentsChanged = (eventId: number) => window.dispatchEvent(new CustomEvent(COMMENTS_CHANGED, { detail: eventId }));
