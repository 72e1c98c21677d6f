import { Extension } from "@tiptap/core";
import { type EditorState, Plugin, PluginKey } from "@tiptap/pm/state";
import { Decoration, DecorationSet } from "@tiptap/pm/view";
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from "@tiptap/y-tiptap";
import * as Y from "yjs";
import type { CommentView } from "../../../worker/services/comments";

// Comments' anchors in the co-writing editor: Yjs relative positions in the doc's `content`, so a highlight
// follows the text as anyone edits it. The highlight is a decoration: it never enters the doc or its exports.

type Anchor = NonNullable<CommentView["anchor"]>;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The y-tiptap binding of the editor's doc (null until the sync plugin has bound it). */
function bindingOf(state: EditorState) {
  const sync = ySyncPluginKey.getState(state) as { binding?: { type: Y.XmlFragment; doc: Y.Doc; mapping: Map<never, never> } } | undefined;
  return sync?.binding?.type && sync.binding.doc ? sync.binding : null;
}

/**
 * The selection trimmed to the text it holds: a triple-clicked paragraph runs from the paragraph's edge to the next
 * one's start, and an anchor between blocks would resolve to nothing (its quote empty, its text 'removed').
 */
function textRange(state: EditorState, from: number, to: number) {
  let start: number | null = null;
  let end: number | null = null;
  state.doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isText) return true;
    const a = Math.max(from, pos);
    const b = Math.min(to, pos + node.nodeSize);
    if (b <= a) return false;
    start ??= a;
    end = b;
    return false;
  });
  if (start === null || end === null || end <= start) return null;
  return state.doc.textBetween(start, end, " ").trim() ? { from: start as number, to: end as number } : null;
}

/** The selection as a comment's anchor (null: nothing selected). */
export function anchorOfSelection(state: EditorState): Anchor | null {
  const range = textRange(state, state.selection.from, state.selection.to);
  const binding = bindingOf(state);
  if (!range || !binding) return null;
  const { from, to } = range;
  const encode = (pos: number) =>
    toBase64(Y.encodeRelativePosition(absolutePositionToRelativePosition(pos, binding.type, binding.mapping)));
  return { from: encode(from), to: encode(to), quote: state.doc.textBetween(from, to, " ").slice(0, 1000) };
}

/** Where the anchor's text is now: null when it was deleted (or the anchor cannot be read). */
export function rangeOfAnchor(state: EditorState, anchor: Anchor): { from: number; to: number } | null {
  const binding = bindingOf(state);
  if (!binding) return null;
  try {
    const at = (text: string) =>
      relativePositionToAbsolutePosition(binding.doc, binding.type, Y.decodeRelativePosition(fromBase64(text)), binding.mapping);
    const from = at(anchor.from);
    const to = at(anchor.to);
    if (from === null || to === null || to <= from || to > state.doc.content.size) return null;
    return state.doc.textBetween(from, to, " ").trim() ? { from, to } : null;
  } catch {
    return null;
  }
}

/** A DOM event on the editor's element when a highlight is clicked: `detail` is its comment's id (the thread to show). */
export const COMMENT_HIGHLIGHT_CLICK = "storyweave:comment-highlight-click";

type Shown = { comments: CommentView[]; active: number | null };
export const commentAnchorsKey = new PluginKey<Shown>("commentAnchors");

/** Tells the editor which comments to highlight (open threads with an anchor) and which one is selected. */
export function showComments(state: EditorState, shown: Shown) {
  return state.tr.setMeta(commentAnchorsKey, shown).setMeta("addToHistory", false);
}

export const CommentAnchors = Extension.create({
  name: "commentAnchors",
  addProseMirrorPlugins() {
    return [
      new Plugin<Shown>({
        key: commentAnchorsKey,
        state: {
          init: () => ({ comments: [], active: null }),
          apply: (tr, value) => (tr.getMeta(commentAnchorsKey) as Shown | undefined) ?? value,
        },
        props: {
          // A click on highlighted words names their thread: the Comments panel shows it (the caret moves as usual).
          handleClick(view, _pos, event) {
            const target = event.target instanceof Element ? event.target.closest<HTMLElement>(".comment-highlight") : null;
            const id = Number(target?.dataset.commentId);
            if (id) view.dom.dispatchEvent(new CustomEvent(COMMENT_HIGHLIGHT_CLICK, { bubbles: true, detail: id }));
            return false;
          },
          decorations(state) {
            const shown = commentAnchorsKey.getState(state);
            if (!shown?.comments.length) return null;
            const decorations: Decoration[] = [];
            for (const c of shown.comments) {
              const range = c.anchor && !c.resolved && !c.threadId ? rangeOfAnchor(state, c.anchor) : null;
              if (!range) continue;
              decorations.push(
                Decoration.inline(range.from, range.to, {
                  class: c.id === shown.active ? "comment-highlight comment-highlight-active" : "comment-highlight",
                  "data-comment-id": String(c.id),
                }),
              );
            }
            return DecorationSet.create(state.doc, decorations);
          },
        },
      }),
    ];
  },
});
