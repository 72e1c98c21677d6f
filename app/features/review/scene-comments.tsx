import Collaboration from "@tiptap/extension-collaboration";
import type { Editor } from "@tiptap/core";
import { TextSelection } from "@tiptap/pm/state";
import { EditorContent, useEditor } from "@tiptap/react";
import { useEffect, useState } from "react";
import * as Y from "yjs";
import { CommentAnchors, anchorOfSelection } from "~/features/co-writing/comment-anchors";
import { CommentsPanel, type Draft } from "~/features/co-writing/comments-panel";
import { client, errorMessage, shareParam } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { DocFields, richTextExtensions } from "../../../db/domain/rich-text";
import { useSceneComments } from "./comment-queries";
import { type ReviewScope, onSceneText } from "./review-store";

/** The read view fetches the scene's doc again at most this often while its text changes (the API's budget). */
const FOLLOW_MS = 3000;

// A scene's comments in read mode (viewers, or anyone not editing): the scene's text as its shared doc has it, read
// only, so a selection becomes the same Yjs relative positions the co-writing editor makes (comment-anchors.ts), and
// the open threads are highlighted where their text is now. The doc comes from GET /api/events/{id}/doc-state when it
// opens and again while the scene's text changes on its card (merged in: the same doc), so the text follows others'
// edits; nothing typed here goes anywhere (the editor is not editable and has no provider).

type Props = { scene: { id: number; title: string }; scope: ReviewScope; focus?: number; onClose: () => void };

export function SceneComments({ scene, scope, focus, onClose }: Props) {
  const [open, setOpen] = useState(true);
  const [ydoc, setYdoc] = useState<Y.Doc | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const doc = new Y.Doc();
    const load = async () => {
      const res = await client.api.events[":id"]["doc-state"].$get({
        param: { id: String(scene.id) },
        query: shareParam(scope.shareCode),
      });
      if (!res.ok) throw new Error("Could not load the scene");
      const update = new Uint8Array(await res.arrayBuffer());
      if (live) Y.applyUpdate(doc, update);
    };
    void load().then(
      () => live && setYdoc(doc),
      (error) => {
        if (live) setFailed(true);
        errorToast(errorMessage(error, "Could not load the scene"));
      },
    );
    // Following the text: one fetch at a time, at most every FOLLOW_MS; a change meanwhile fetches once more after.
    let busy = false;
    let again = false;
    const follow = () => {
      if (!live) return;
      if (busy) return void (again = true);
      busy = true;
      again = false;
      void load()
        .catch(() => undefined)
        .then(() => new Promise((r) => setTimeout(r, FOLLOW_MS)))
        .then(() => {
          busy = false;
          if (again) follow();
        });
    };
    const stop = onSceneText((eventId) => eventId === scene.id && follow());
    return () => {
      live = false;
      stop();
      doc.destroy();
    };
  }, [scene.id, scope.shareCode]);

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) onClose();
      }}
      title={`Comments on ${scene.title}`}
      description={scope.canComment ? "Select text in the scene and press Comment, or comment on the scene as a whole." : undefined}
      className="max-w-3xl"
    >
      {ydoc ? (
        <ReadAndComment doc={ydoc} scene={scene} scope={scope} focus={focus} />
      ) : (
        <p className="text-sm text-stone-600">{failed ? "" : "Loading the scene…"}</p>
      )}
    </Dialog>
  );
}

function ReadAndComment({ doc, scene, scope, focus }: { doc: Y.Doc; scene: Props["scene"]; scope: ReviewScope; focus?: number }) {
  const editor = useEditor(
    {
      extensions: [...richTextExtensions(), CommentAnchors, Collaboration.configure({ document: doc, field: DocFields.content })],
      editable: false,
      immediatelyRender: false,
      editorProps: {
        attributes: {
          "aria-label": `${scene.title}: text`,
          class: "co-editor-content max-h-[50vh] overflow-y-auto rounded-md border border-stone-200 bg-stone-50 px-3 py-2 text-sm",
        },
      },
    },
    [doc],
  );
  // My own writes reload the counts and the timeline's panel too (the data layer's writes do).
  const comments = useSceneComments(scope.timelineId, scene.id, scope.shareCode);
  const [draft, setDraft] = useState<Draft | null>(null);

  function commentOnSelection() {
    const anchor = editor ? anchorOfReadSelection(editor) : null;
    if (!anchor) return errorToast("Select some of the scene's text first");
    setDraft({ anchor });
  }

  return (
    // A box open on selected text floats at the text inside the dialog (at-selection.tsx): the dialog keeps room for it
    // below a short scene's text rather than putting it over the text.
    <div className={draft?.anchor ? "@container min-h-96 space-y-3" : "@container space-y-3"}>
      <EditorContent editor={editor} />
      {scope.canComment ? (
        <Button
          size="sm"
          // The text's selection stays as it is when the button is pressed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={commentOnSelection}
        >
          Comment
        </Button>
      ) : null}
      <CommentsPanel
        editor={editor}
        timelineId={scope.timelineId}
        eventId={scene.id}
        shareCode={scope.shareCode}
        myUserId={scope.myUserId}
        isOwner={scope.isOwner}
        comments={comments}
        draft={draft}
        onDraft={setDraft}
        onDraftDone={() => setDraft(null)}
        canComment={scope.canComment}
        canResolve={scope.canEdit}
        focus={focus}
      />
    </div>
  );
}

/**
 * The browser's selection inside the read-only text as a comment's anchor: the DOM range is mapped to the doc's
 * positions by the view (a read-only view does not keep the selection itself), then anchored as the editor does.
 */
function anchorOfReadSelection(editor: Editor) {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  const { view, state } = editor;
  if (!view.dom.contains(range.startContainer) || !view.dom.contains(range.endContainer)) return null;
  const a = view.posAtDOM(range.startContainer, range.startOffset);
  const b = view.posAtDOM(range.endContainer, range.endOffset);
  const from = Math.max(0, Math.min(a, b));
  const to = Math.min(state.doc.content.size, Math.max(a, b));
  if (from === to) return null;
  const selected = state.apply(state.tr.setSelection(TextSelection.create(state.doc, from, to)));
  return anchorOfSelection(selected);
}
