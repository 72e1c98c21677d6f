import { EditorContent } from "@tiptap/react";
import { useContext, useEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import { caretColor } from "~/features/co-writing/co-editor-context";
import { AtSelection } from "~/features/co-writing/at-selection";
import { COMMENT_HIGHLIGHT_CLICK, CommentAnchors, anchorOfSelection, showComments } from "~/features/co-writing/comment-anchors";
import { type Draft, SelectionComment } from "~/features/co-writing/comments-panel";
import { useSceneComments } from "~/features/review/comment-queries";
import { Suggesting, SuggestionsList, useApplyMode } from "~/features/co-writing/suggesting";
import { Button } from "~/ui/button";
import { Session, useSessionTick } from "~/features/co-writing/doc-session";
import { useDocEditor, useSessionEnd } from "~/features/co-writing/session-editor-hooks";
import { ManuscriptModeContext, useManuscript } from "~/features/manuscript/manuscript-context";
import { SCENE_TEXT_CLASS, SceneText } from "~/features/manuscript/scene-text";
import { manuscriptExtensions } from "~/features/manuscript/smart-typing";
import { yDocToMarkdown } from "../../../db/domain/rich-text";
import { markdownToHtml } from "../../../db/domain/render-text";
import { countWords } from "../../../db/domain/word-count";

// A manuscript scene's editor: the co-writing session of the timeline's cards (shared doc, carets, offline copy,
// versions), mounted only while the scene is near the viewport. Loaded lazily, after the page reads.

type Props = {
  sceneId: number;
  title: string;
  /** The scene's text as the page rendered it: shown until the doc has synced. */
  html: string;
  /** Near the viewport: when it is not, the editor lets go once everything typed is saved. */
  near: boolean;
  /** The editor let go: the scene's text as HTML now (null: as it was). */
  onRelease: (html: string | null) => void;
};

const RECOUNT_MS = 300;

const TYPEWRITER_AT = 0.4;

export function SceneEditor(props: Props) {
  const { timelineId, shareCode } = useManuscript();
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    const s = new Session(timelineId, props.sceneId, shareCode);
    setSession(s);
    return () => {
      setSession(null);
      s.destroy();
    };
  }, [timelineId, props.sceneId, shareCode]);
  if (!session) return <SceneText html={props.html} />;
  // The comments come from the page's QueryClient (ManuscriptView provides the timeline screen's).
  return <Editing key={session.eventId} session={session} {...props} />;
}

function Editing({ session, sceneId, title, html, near, onRelease }: Props & { session: Session }) {
  useSessionTick(session);
  const ms = useManuscript();
  const user = useMemo(() => ({ name: ms.me.name, color: caretColor(ms.me.id) }), [ms.me]);
  // Comments' highlights and Suggesting, as in the scene editor.
  const extensions = useMemo(
    () => [...manuscriptExtensions(), CommentAnchors, Suggesting.configure({ userId: ms.me.id, name: ms.me.name })],
    [ms.me],
  );
  const editor = useDocEditor(session, `scene-${sceneId}-text`, user, {
    extensions,
    label: `Text of ${title}`,
    className: `${SCENE_TEXT_CLASS} ms-editor rounded-sm focus-visible:outline-2 focus-visible:outline-offset-8 focus-visible:outline-brand-600`,
  });
  useSessionEnd(session, () => onRelease(null), null);
  useApplyMode(editor, useContext(ManuscriptModeContext));
  const comments = useSceneComments(ms.timelineId, sceneId, ms.shareCode);
  const [draft, setDraft] = useState<Draft | null>(null);
  // The thread whose highlighted words were clicked: shown at them.
  const [shown, setShown] = useState<number | null>(null);
  // The open threads' text highlighted (a decoration: never part of the doc).
  useEffect(() => {
    if (editor && !editor.isDestroyed && session.ready)
      editor.view.dispatch(showComments(editor.state, { comments: comments.list, active: shown }));
  }, [editor, comments.list, session.ready, shown]);
  useEffect(() => {
    const dom = editor && !editor.isDestroyed && session.ready ? editor.view.dom : null;
    if (!dom) return;
    const onClick = (event: Event) => setShown((event as CustomEvent<number>).detail);
    dom.addEventListener(COMMENT_HIGHLIGHT_CLICK, onClick);
    return () => dom.removeEventListener(COMMENT_HIGHLIGHT_CLICK, onClick);
  }, [editor, session.ready]);
  const shownRoot = comments.list.find((c) => c.id === shown && c.anchor);

  const { register, setWords, setActive, focusRef } = ms;
  useEffect(() => {
    register(sceneId, session);
    return () => register(sceneId, null);
  }, [register, sceneId, session]);

  // Only this scene is recounted as it changes, at most every 300 ms.
  useEffect(() => {
    if (!editor) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const recount = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        setWords(sceneId, countWords(editor.getText()));
      }, RECOUNT_MS);
    };
    const focus = () => setActive(sceneId);
    // Typewriter scrolling: the caret's line stays at 40% of the screen's height while typing in focus mode.
    const typewriter = ({ transaction }: { transaction: { docChanged: boolean } }) => {
      if (!focusRef.current || !transaction.docChanged || !editor.isFocused) return;
      requestAnimationFrame(() => {
        if (editor.isDestroyed) return;
        const { top } = editor.view.coordsAtPos(editor.state.selection.head);
        const off = top - window.innerHeight * TYPEWRITER_AT;
        if (Math.abs(off) > 4) window.scrollBy({ top: off, behavior: "instant" });
      });
    };
    editor.on("update", recount);
    editor.on("focus", focus);
    editor.on("transaction", typewriter);
    return () => {
      editor.off("update", recount);
      editor.off("focus", focus);
      editor.off("transaction", typewriter);
      clearTimeout(timer);
    };
  }, [editor, sceneId, setWords, setActive, focusRef]);

  // Far from the viewport and all saved: back to rendered text (the doc's socket closes).
  const release = !near && session.ready && session.allSaved;
  useEffect(() => {
    if (release) onRelease(markdownToHtml(yDocToMarkdown(session.ydoc), 3));
  }, [release, onRelease, session]);

  // My access ended: the editor keeps my text on screen to copy, and says why nothing more is saved.
  const trouble = session.ended
    ? session.ended
    : session.connection === "disconnected"
      ? "Offline — changes will sync"
      : session.problem
        ? `Not saved: ${session.problem}`
        : null;
  return (
    <>
      {session.ready && editor ? <EditorContent editor={editor} /> : <SceneText html={html} />}
      {session.ready && editor && !draft ? <CommentButton editor={editor} onDraft={setDraft} /> : null}
      {session.ready && editor && draft?.anchor ? (
        <SelectionComment
          editor={editor}
          timelineId={ms.timelineId}
          eventId={sceneId}
          shareCode={ms.shareCode}
          anchor={draft.anchor}
          onDone={() => {
            setDraft(null);
            editor.commands.focus();
          }}
        />
      ) : null}
      {session.ready && editor && shownRoot?.anchor && !draft ? (
        <AtSelection editor={editor} anchor={shownRoot.anchor}>
          <section aria-label="Comment thread" className="space-y-1.5 p-3">
            <blockquote className="border-l-2 border-amber-500 pl-2 text-stone-700 italic">“{shownRoot.anchor.quote}”</blockquote>
            <ol className="space-y-1.5">
              {comments.list
                .filter((c) => c.id === shownRoot.id || c.threadId === shownRoot.id)
                .map((c) => (
                  <li key={c.id} data-testid="comment">
                    <p className="text-xs font-medium text-ink">{c.authorName}</p>
                    <p className="whitespace-pre-wrap break-words">{c.body}</p>
                  </li>
                ))}
            </ol>
            <Button variant="outline" size="sm" className="h-7" onClick={() => setShown(null)}>
              Close
            </Button>
          </section>
        </AtSelection>
      ) : null}
      {session.ready && editor ? (
        <div className="mt-3 font-sans">
          <SuggestionsList editor={editor} />
        </div>
      ) : null}
      {trouble ? (
        <p role="status" className="mt-2 font-sans text-xs text-stone-700">
          {trouble}
        </p>
      ) : null}
    </>
  );
}

/** 'Comment' beside the selected text while the scene's editor has it (the Manuscript has no toolbar to hold it). */
function CommentButton({ editor, onDraft }: { editor: NonNullable<ReturnType<typeof useDocEditor>>; onDraft: (d: Draft) => void }) {
  const { selection } = editor.state;
  if (selection.empty || !editor.isFocused) return null;
  // In the margin right of the text where there is room (nothing covered), else just above the selection.
  let at: { top: number; left: number };
  try {
    const start = editor.view.coordsAtPos(selection.from);
    const column = editor.view.dom.getBoundingClientRect();
    const margin = column.right + 16 + 110 < window.innerWidth;
    const left = margin ? column.right + 16 : Math.max(8, Math.min(start.left, window.innerWidth - 110));
    const top = margin ? start.top - 4 : start.top - 40;
    at = { top: top + window.scrollY, left: left + window.scrollX };
  } catch {
    return null;
  }
  return createPortal(
    <Button
      variant="outline"
      size="sm"
      className="absolute z-40 bg-white font-sans shadow-md"
      style={at}
      // Keeps the editor's selection: the anchor is taken from it on click.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => {
        const anchor = anchorOfSelection(editor.state);
        if (anchor) onDraft({ anchor });
      }}
    >
      Comment
    </Button>,
    document.body,
  );
}
