import type { Editor } from "@tiptap/react";
import type { AssistTarget } from "~/features/assistant/scene-assist";
import { markdownToJson } from "../../../db/domain/rich-text";

/** SceneAssist's view of the editor: the selection as text, and results inserted through the editor. */
export function editorTarget(editor: Editor): AssistTarget {
  const blocks = (text: string) => markdownToJson(text).content ?? [];
  const inline = (text: string) => {
    const nodes = blocks(text);
    return nodes.length === 1 && nodes[0].type === "paragraph" ? (nodes[0].content ?? []) : nodes;
  };
  return {
    selection: () => {
      const { from, to } = editor.state.selection;
      return { text: editor.state.doc.textBetween(from, to, "\n\n"), from, to };
    },
    replace: (from, to, text) => void editor.chain().focus().insertContentAt({ from, to }, inline(text)).run(),
    insertBelow: (at, text) => {
      const $pos = editor.state.doc.resolve(Math.min(at, editor.state.doc.content.size));
      const after = $pos.depth > 0 ? $pos.after(1) : editor.state.doc.content.size;
      editor.chain().focus().insertContentAt(after, blocks(text)).run();
    },
    append: (text) => void editor.chain().focus().insertContentAt(editor.state.doc.content.size, blocks(text)).run(),
  };
}
