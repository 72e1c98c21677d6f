import { EditorContent } from "@tiptap/react";
import { type ReactNode, Suspense, lazy, useEffect, useMemo, useState } from "react";
import { accessEndedText } from "~/features/co-writing/access-ended";
import { caretColor, useCoWrite } from "~/features/co-writing/co-editor-context";
import { CommentAnchors, anchorOfSelection } from "~/features/co-writing/comment-anchors";
import { CommentsPanel, type Draft } from "~/features/co-writing/comments-panel";
import { useSceneComments } from "~/features/review/comment-queries";
import { Session, otherWriters, useSessionTick } from "~/features/co-writing/doc-session";
import { editorTarget } from "~/features/co-writing/editor-target";
import { Toolbar } from "~/features/co-writing/editor-toolbar";
import { ModeSwitch, Suggesting, SuggestionsList, useEditorMode } from "~/features/co-writing/suggesting";
import { EndedEditor } from "~/features/co-writing/ended-editor";
import { useDocEditor, useSessionEnd } from "~/features/co-writing/session-editor-hooks";
import { TitleInput } from "~/features/co-writing/title-input";
import type { AssistTarget } from "~/features/assistant/scene-assist";
import { Button } from "~/ui/button";
import { Label } from "~/ui/input";
import { errorToast } from "~/lib/toast";
import { DocFields, yDocToMarkdown } from "../../../db/domain/rich-text";
import type { EventView } from "../../../worker/services/events";

// The co-writing editor: a card's edit mode. One Y.Doc per event, shared through the event's
// EventDoc (y-partyserver) and kept in IndexedDB for offline work. Loaded lazily by event-card.tsx.

/** The card editor's own extensions: comments' highlights, Suggesting mode. */
const cardExtensions = (userId: number, name: string) => ({ extensions: [CommentAnchors, Suggesting.configure({ userId, name })] });

const SceneAssist = lazy(() => import("~/features/assistant/scene-assist").then((m) => ({ default: m.SceneAssist })));

type Props = {
  event: EventView;
  /** The story fields (links, POV, story time), saved by `onSaveStory` after the text is saved. */
  children?: ReactNode;
  onSaveStory: () => Promise<boolean>;
  onClose: () => void;
  /** The doc's text for the room's live relay (read-mode cards of everyone). */
};

export function CoEditor({ event, children, onSaveStory, onClose }: Props) {
  const api = useCoWrite();
  const timelineId = api?.timelineId ?? event.timelineId;
  const shareCode = api?.shareCode ?? null;
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    const s = new Session(timelineId, event.id, shareCode);
    setSession(s);
    return () => {
      setSession(null);
      s.destroy();
    };
  }, [timelineId, event.id, shareCode]);

  // The room says 'X is writing here' while this editor is open.
  const setEditing = api?.setEditing;
  useEffect(() => {
    setEditing?.(event.id, true);
    return () => setEditing?.(event.id, false);
  }, [setEditing, event.id]);

  if (!session) return <p className="text-sm text-stone-600">Opening the editor…</p>;
  return (
    <SessionEditor key={session.eventId} session={session} event={event} onSaveStory={onSaveStory} onClose={onClose}>
      {children}
    </SessionEditor>
  );
}

function SessionEditor({ session, event, children, onSaveStory, onClose }: Props & { session: Session }) {
  const api = useCoWrite();
  useSessionTick(session);
  const [saving, setSaving] = useState(false);
  const myName = api?.myName ?? "";
  const user = useMemo(() => ({ name: myName, color: caretColor(api?.myUserId ?? 0) }), [myName, api?.myUserId]);
  const contentId = `event-${event.id}-content`;
  const editor = useDocEditor(session, contentId, user, cardExtensions(api?.myUserId ?? 0, myName));
  const [mode, setMode] = useEditorMode(editor);
  const comments = useSceneComments(event.timelineId, event.id, api?.shareCode ?? null);
  const [draft, setDraft] = useState<Draft | null>(null);
  useSessionEnd(session, onClose, api?.ended ? accessEndedText[api.ended] : null);
  const showText = api?.showText;

  // My own read-mode card shows the doc's text when the editor closes.
  const closeWithText = () => {
    if (session.ready) {
      showText?.(event.id, { title: session.ydoc.getText(DocFields.title).toString(), content: yDocToMarkdown(session.ydoc) });
    }
    onClose();
  };

  async function save() {
    setSaving(true);
    const result = await session.save();
    if (!result.ok) {
      setSaving(false);
      return errorToast(result.error);
    }
    const ok = await onSaveStory();
    setSaving(false);
    if (ok) closeWithText();
  }

  function cancel() {
    session.cancel();
    closeWithText();
  }

  const target = useMemo<AssistTarget | null>(() => (editor ? editorTarget(editor) : null), [editor]);
  if (session.ended && session.accessEnded) return <EndedEditor why={session.ended} text={session.text()} onClose={onClose} />;
  const others = otherWriters(session);
  const status =
    session.connection !== "connected"
      ? "Offline — changes will sync"
      : session.problem
        ? `Not saved: ${session.problem}`
        : session.allSaved
          ? "All changes saved"
          : "Saving…";

  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`event-${event.id}-title`}>Title</Label>
        <TitleInput id={`event-${event.id}-title`} session={session} />
      </div>
      <div className="space-y-1.5">
        <p className="text-sm font-medium" aria-hidden="true">
          Content
        </p>
        <div className="flex flex-wrap items-center justify-between gap-2">
          {editor ? <Toolbar editor={editor} /> : null}
          {editor ? <ModeSwitch mode={mode} onMode={setMode} disabled={!session.ready} /> : null}
          {editor && session.ready && !editor.state.selection.empty ? (
            <Button
              variant="outline"
              size="sm"
              // Keeps the editor's selection: the anchor is taken from it on click.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                const anchor = anchorOfSelection(editor.state);
                if (anchor) setDraft({ anchor });
              }}
            >
              Comment
            </Button>
          ) : null}
        </div>
        {/* Comments beside the text only where the editor itself is wide (a card in the list is not). */}
        <div className="@container">
          <div className="flex flex-col gap-3 @2xl:flex-row">
            <div className="min-w-0 flex-1">
              {/* Shown once the doc has synced: nobody types into a doc that is not there yet. */}
              {session.ready ? (
                <>
                  <EditorContent editor={editor} />
                  {editor ? <SuggestionsList editor={editor} /> : null}
                </>
              ) : (
                <div aria-hidden="true" className="min-h-32 animate-pulse rounded-md border border-stone-200 bg-stone-50" />
              )}
            </div>
            <CommentsPanel
              editor={session.ready ? editor : null}
              timelineId={event.timelineId}
              eventId={event.id}
              shareCode={api?.shareCode ?? null}
              myUserId={api?.myUserId ?? 0}
              isOwner={api?.isOwner ?? false}
              comments={comments}
              draft={draft}
              onDraft={setDraft}
              onDraftDone={() => setDraft(null)}
            />
          </div>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-stone-600">
          <p role="status" data-testid="co-editor-status">
            {session.ready || session.connection !== "connected" ? status : "Connecting…"}
          </p>
          {others.length > 0 ? <p data-testid="co-editor-writers">Also here: {others.join(", ")}</p> : null}
        </div>
        {target ? (
          <Suspense fallback={null}>
            <SceneAssist eventId={event.id} contentId={contentId} target={target} />
          </Suspense>
        ) : null}
      </div>
      {children}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={cancel} disabled={saving}>
          Cancel
        </Button>
        <Button size="sm" onClick={save} disabled={saving || !session.ready}>
          {saving ? "Saving..." : "Save"}
        </Button>
      </div>
    </>
  );
}
