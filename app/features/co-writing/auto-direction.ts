import { Extension } from "@tiptap/core";
import type { Node as PmNode } from "@tiptap/pm/model";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import { Decoration, DecorationSet } from "@tiptap/pm/view";

// Every paragraph, heading and list line of the editor gets dir="auto", as the card and the print view have: a
// right-to-left line (Arabic, Hebrew) reads and aligns right to left while the writer types it. A decoration of the
// page only: the shared doc, the schema and the stored Markdown do not change.

const key = new PluginKey<DecorationSet>("autoDirection");

function directions(doc: PmNode) {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    decorations.push(Decoration.node(pos, pos + node.nodeSize, { dir: "auto" }));
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

export const AutoDirection = Extension.create({
  name: "autoDirection",
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key,
        state: {
          init: (_, state) => directions(state.doc),
          apply: (tr, set) => (tr.docChanged ? directions(tr.doc) : set),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
