import { useSyncExternalStore } from "react";

// The review's view state on the timeline screen: who is looking (their rights) and the scene whose comments are
// open. One timeline screen at a time, so one store. The comments themselves and the open-thread counts are the
// data layer's (comment-queries.ts).

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
type State = { scope: ReviewScope | null; openScene: OpenScene | null };

let state: State = { scope: null, openScene: null };
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

export const setScope = (scope: ReviewScope | null) => set({ scope, ...(scope === null && { openScene: null }) });
/** The scope now (a lookup that finished after the screen changed must not open anything). */
export const currentScope = () => state.scope;
export const openScene = (scene: OpenScene | null) => set({ openScene: scene });

/** A scene's text changed on its card (someone typing, a save): an open read view of it follows. */
const textListeners = new Set<(eventId: number) => void>();
export const sceneTextChanged = (eventId: number) => {
  for (const l of textListeners) l(eventId);
};
export const onSceneText = (listener: (eventId: number) => void) => {
  textListeners.add(listener);
  return () => void textListeners.delete(listener);
};
