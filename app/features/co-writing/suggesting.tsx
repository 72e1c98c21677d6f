import {
  applySuggestion,
  applySuggestions,
  disableSuggestChanges,
  enableSuggestChanges,
  isSuggestChangesEnabled,
  revertSuggestion,
  revertSuggestions,
  suggestChanges,
  suggestChangesKey,
  transformToSuggestionTransaction,
} from "@handlewithcare/prosemirror-suggest-changes";
import { Extension } from "@tiptap/core";
import type { Command, Transaction } from "@tiptap/pm/state";
import { ReplaceAroundStep, ReplaceStep } from "@tiptap/pm/transform";
import type { Editor } from "@tiptap/react";
import { useEffect } from "react";
import { type EditorMode, useStoredMode } from "./editor-mode";

export { ModeSwitch } from "./editor-mode";
export type { EditorMode } from "./editor-mode";
import { caretColor } from "~/features/co-writing/co-editor-context";
import { Button } from "~/ui/button";
import { describeSuggestion, listSuggestions, suggestionId } from "../../../db/domain/suggestions";

// Suggesting mode: typing and deleting make tracked changes (marks in the shared doc, so everyone in the scene
// sees them live) instead of edits, with the library @handlewithcare/prosemirror-suggest-changes. Writers accept
// or reject them one by one or all at once. Undo (the Collaboration extension's) undoes suggestion edits too.

/**
 * A paragraph break or pasted paragraphs: the library marks such blocks with node marks, which the shared doc does
 * not carry (and text typed in them would then go unmarked to the others), so they apply as plain edits.
 */
const insertsBlocks = (tr: Transaction) =>
  tr.steps.some((step) => {
    if (!(step instanceof ReplaceStep || step instanceof ReplaceAroundStep)) return false;
    let block = step.slice.openStart > 0;
    step.slice.content.forEach((node) => {
      if (node.isBlock) block = true;
    });
    return block;
  });

/** The suggestion plugin, and every transaction of mine made a suggestion while the mode is on. */
export const Suggesting = Extension.create<{ userId: number; name: string }>({
  name: "suggesting",
  addOptions: () => ({ userId: 0, name: "" }),
  addProseMirrorPlugins: () => [suggestChanges()],
  dispatchTransaction({ transaction: tr, next }) {
    const state = this.editor.state;
    const ySync = (tr.getMeta("y-sync$") ?? {}) as { isUndoRedoOperation?: boolean; isChangeOrigin?: boolean };
    const skip = "skip" in ((tr.getMeta(suggestChangesKey) as object | undefined) ?? {});
    const track =
      isSuggestChangesEnabled(state) && tr.docChanged && !ySync.isUndoRedoOperation && !ySync.isChangeOrigin && !skip && !insertsBlocks(tr);
    next(track ? transformToSuggestionTransaction(tr, state, () => suggestionId(this.options.userId, this.options.name)) : tr);
  },
});

/** My mode (kept in this browser), applied to the editor. */
export function useEditorMode(editor: Editor | null) {
  const [mode, choose] = useStoredMode();
  useApplyMode(editor, mode);
  return [mode, choose] as const;
}

/** The mode applied to an editor (the Manuscript's scenes share one switch). */
export function useApplyMode(editor: Editor | null, mode: EditorMode) {
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const on = isSuggestChangesEnabled(editor.state);
    if (on !== (mode === "suggesting")) (on ? disableSuggestChanges : enableSuggestChanges)(editor.state, editor.view.dispatch);
  });
}

const when = (at: number | null) => (at ? new Date(at).toLocaleString() : "");

/** The scene's pending suggestions with Accept / Reject, and Accept all / Reject all. */
export function SuggestionsList({ editor }: { editor: Editor }) {
  const items = listSuggestions(editor.getJSON());
  if (items.length === 0) return null;
  const run = (command: Command) => {
    command(editor.state, editor.view.dispatch);
  };
  const describe = describeSuggestion;
  return (
    <section aria-label="Suggestions" className="space-y-2 rounded-md border border-stone-200 p-2 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">Suggestions ({items.length})</h3>
        <div className="flex gap-1">
          <Button type="button" size="sm" variant="outline" onClick={() => run(applySuggestions)}>
            Accept all
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => run(revertSuggestions)}>
            Reject all
          </Button>
        </div>
      </div>
      <ul className="space-y-1">
        {items.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2" data-testid="suggestion">
            <p className="min-w-0">
              <span style={{ color: s.userId !== null ? caretColor(s.userId) : undefined }}>{describe(s)}</span>{" "}
              <span className="text-stone-600">
                {s.name}
                {s.at ? `, ${when(s.at)}` : ""}
              </span>
            </p>
            <div className="flex gap-1">
              <Button
                type="button"
                size="sm"
                variant="ghost"
                aria-label={`Accept: ${describe(s)}`}
                onClick={() => run(applySuggestion(s.id))}
              >
                Accept
              </Button>
              <Button
                type="button"
                size="sm"
                variant="ghost"
                aria-label={`Reject: ${describe(s)}`}
                onClick={() => run(revertSuggestion(s.id))}
              >
                Reject
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
