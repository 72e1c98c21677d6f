import { createContext, useContext } from "react";
import type { Session } from "~/features/co-writing/doc-session";
import type { EditorMode } from "~/features/co-writing/editor-mode";

// What a scene's editor needs from the manuscript page, kept stable so the 150 scenes do not re-render as one types.

export type ManuscriptApi = {
  timelineId: number;
  shareCode: string | null;
  me: { id: number; name: string };
  /** An editor's session opened (or closed: null): Ctrl/Cmd+S saves the open ones. */
  register: (sceneId: number, session: Session | null) => void;
  /** The scene's words, recounted by its editor as the writer types. */
  setWords: (sceneId: number, words: number) => void;
  /** The writer is in this scene (the status bar counts it and its chapter; focus mode lights it). */
  setActive: (sceneId: number) => void;
  /** Focus mode is on: the editor keeps the caret's line at 40% of the screen's height. */
  focusRef: { current: boolean };
};

export const ManuscriptContext = createContext<ManuscriptApi | null>(null);

/** Editing or Suggesting: one switch for every scene's editor (apart from the stable api, so only editors re-render). */
export const ManuscriptModeContext = createContext<EditorMode>("editing");

export function useManuscript() {
  const api = useContext(ManuscriptContext);
  if (!api) throw new Error("useManuscript outside the manuscript");
  return api;
}

/** '1 word', '2,430 words'. */
const count = new Intl.NumberFormat("en-US");
export const wordsText = (n: number) => `${count.format(n)} ${n === 1 ? "word" : "words"}`;
