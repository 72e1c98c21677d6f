import type { Editor } from "@tiptap/core";
import { useEffect, useRef, useState } from "react";
import { type useSceneComments, useCommentActions } from "~/features/review/comment-queries";
import { Button } from "~/ui/button";
import type { CommentView } from "../../../worker/services/comments";
import { AtSelection } from "./at-selection";
import { CommentBox } from "./comment-box";
import { COMMENT_HIGHLIGHT_CLICK, rangeOfAnchor, showComments } from "./comment-anchors";

// The co-writing editor's comments: threads on the scene's text (or the whole scene) with replies, resolve and
// delete. The list and the writes are the data layer's (review/comment-queries.ts): read again after my writes and
// when the room says this scene's comments changed.

type Anchor = NonNullable<CommentView["anchor"]>;
/** An open comment box: on the selected text (its anchor) or on the whole scene (null). */
export type Draft = { anchor: Anchor | null };

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

type SelectionProps = {
  editor: Editor | null;
  timelineId: number;
  eventId: number;
  shareCode: string | null;
  anchor: Anchor;
  onDone: () => void;
};

/** A comment on the selected text: its box opens at the text (the scene editor, the Manuscript, the review panel). */
export function SelectionComment({ editor, timelineId, eventId, shareCode, anchor, onDone }: SelectionProps) {
  const { post } = useCommentActions(timelineId, eventId, shareCode);
  return (
    <AtSelection editor={editor} anchor={anchor}>
      <CommentBox
        label="Comment on the selected text"
        quote={anchor.quote}
        submit="Post comment"
        onCancel={onDone}
        onSubmit={async (body) => {
          if (!(await post(body, { anchor }))) return false;
          onDone();
          return true;
        }}
      />
    </AtSelection>
  );
}

type Props = {
  editor: Editor | null;
  timelineId: number;
  eventId: number;
  shareCode: string | null;
  myUserId: number;
  isOwner: boolean;
  comments: ReturnType<typeof useSceneComments>;
  draft: Draft | null;
  onDraftDone: () => void;
  onDraft: (draft: Draft) => void;
  /** Off for a viewer when the owner turned viewers' comments off: threads show, without Comment or Reply. */
  canComment?: boolean;
  /** Resolve and reopen: edit access. */
  canResolve?: boolean;
  /** The thread a notification's link points at: brought into view and highlighted once it is loaded. */
  focus?: number;
};

export function CommentsPanel(props: Props) {
  const { editor, timelineId, eventId, shareCode, myUserId, isOwner, comments, draft, onDraftDone, onDraft } = props;
  const { canComment = true, canResolve = true } = props;
  const [showResolved, setShowResolved] = useState(false);
  const [active, setActive] = useState<number | null>(props.focus ?? null);
  const { list } = comments;
  const { post, patch, remove } = useCommentActions(timelineId, eventId, shareCode);
  const focused = useRef(false);
  useEffect(() => {
    const root = list.find((c) => c.id === props.focus);
    if (!root || focused.current) return;
    focused.current = true;
    setActive(root.id);
    if (root.resolved) setShowResolved(true);
    // After the render that shows it (and its highlight in the text).
    requestAnimationFrame(() => {
      const inPanel = document.querySelector(`[data-testid="comment-thread"][data-comment-id="${root.id}"]`);
      inPanel?.scrollIntoView({ block: "nearest" });
      const inText = editor?.isDestroyed ? null : editor?.view.dom.querySelector(`.comment-highlight[data-comment-id="${root.id}"]`);
      inText?.scrollIntoView({ block: "center" });
    });
  }, [list, props.focus, editor]);

  // Clicking highlighted words shows their thread: selected, and scrolled into view in the panel.
  useEffect(() => {
    const dom = editor && !editor.isDestroyed ? editor.view.dom : null;
    if (!dom) return;
    const onClick = (event: Event) => {
      const id = (event as CustomEvent<number>).detail;
      setActive(id);
      document.querySelector(`[data-testid="comment-thread"][data-comment-id="${id}"]`)?.scrollIntoView({ block: "nearest" });
    };
    dom.addEventListener(COMMENT_HIGHLIGHT_CLICK, onClick);
    return () => dom.removeEventListener(COMMENT_HIGHLIGHT_CLICK, onClick);
  }, [editor]);

  // The editor highlights the open threads' text (a decoration: never part of the doc).
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.view.dispatch(showComments(editor.state, { comments: list, active }));
  }, [editor, list, active]);

  const threads = list.filter((c) => !c.threadId && (showResolved || !c.resolved));
  const resolvedCount = list.filter((c) => !c.threadId && c.resolved).length;
  return (
    <aside aria-label="Comments" data-testid="comments-panel" className="space-y-2 text-sm @2xl:w-64 @2xl:shrink-0">
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-medium">
          Comments
          {threads.length === 0 && !draft ? (
            <span className="font-normal text-stone-600" title="Select text and press Comment">
              {" "}
              · none open
            </span>
          ) : null}
        </h3>
        {canComment ? (
          <Button variant="link" size="sm" onClick={() => onDraft({ anchor: null })}>
            Comment on the scene
          </Button>
        ) : null}
      </div>
      {draft?.anchor ? (
        <SelectionComment
          editor={editor}
          timelineId={timelineId}
          eventId={eventId}
          shareCode={shareCode}
          anchor={draft.anchor}
          onDone={onDraftDone}
        />
      ) : draft ? (
        <CommentBox
          label="Comment on the scene"
          submit="Post comment"
          onCancel={onDraftDone}
          onSubmit={async (body) => {
            const ok = await post(body, { anchor: null });
            if (ok) onDraftDone();
            return ok;
          }}
        />
      ) : null}
      <ul className="space-y-2">
        {threads.map((root) => {
          // A reader's quote that was not in the text when it came has no positions (and no highlight).
          const unplaced = root.anchor?.from === "";
          const removed = !unplaced && root.anchor && editor ? !rangeOfAnchor(editor.state, root.anchor) : false;
          return (
            <li
              key={root.id}
              data-testid="comment-thread"
              data-comment-id={root.id}
              aria-current={props.focus === root.id ? "true" : undefined}
              data-active={active === root.id ? "true" : undefined}
              className={`rounded-md border p-2 ${active === root.id ? "border-amber-500" : "border-stone-200"} ${root.resolved ? "bg-stone-50" : ""}`}
              onFocus={() => setActive(root.id)}
              onMouseEnter={() => setActive(root.id)}
            >
              {root.anchor ? (
                <blockquote className="mb-1 border-l-2 border-amber-500 pl-2 text-stone-700 italic" data-testid="comment-quote">
                  “{root.anchor.quote}”{removed ? <span className="not-italic text-stone-600"> (text removed)</span> : null}
                  {unplaced ? <span className="not-italic text-stone-600"> (not found in the text)</span> : null}
                </blockquote>
              ) : null}
              <Thread
                items={list.filter((c) => c.id === root.id || c.threadId === root.id)}
                myUserId={myUserId}
                isOwner={isOwner}
                onEdit={(id, body) => patch(id, { body })}
                onDelete={remove}
              />
              <ThreadActions
                resolved={root.resolved}
                onReply={canComment ? (body) => post(body, { threadId: root.id }) : undefined}
                onResolve={canResolve ? (resolved) => patch(root.id, { resolved }) : undefined}
              />
            </li>
          );
        })}
      </ul>
      {resolvedCount > 0 ? (
        <Button variant="link" size="sm" onClick={() => setShowResolved((v) => !v)}>
          {showResolved ? "Hide resolved" : `Show resolved (${resolvedCount})`}
        </Button>
      ) : null}
    </aside>
  );
}

type ThreadProps = {
  items: CommentView[];
  myUserId: number;
  isOwner: boolean;
  onEdit: (id: number, body: string) => Promise<boolean>;
  onDelete: (id: number) => Promise<boolean>;
};

function Thread({ items, myUserId, isOwner, onEdit, onDelete }: ThreadProps) {
  const [editing, setEditing] = useState<number | null>(null);
  return (
    <ol className="space-y-1.5">
      {items.map((c) => (
        <li key={c.id} data-testid="comment" className={c.threadId ? "border-l border-stone-200 pl-2" : ""}>
          <p className="text-xs text-stone-600">
            <span className="font-medium text-ink">{c.authorName}</span> · <time dateTime={c.createdAt}>{when(c.createdAt)}</time>
          </p>
          {editing === c.id ? (
            <CommentBox
              label="Edit comment"
              initial={c.body}
              submit="Save"
              onCancel={() => setEditing(null)}
              onSubmit={async (body) => {
                const ok = await onEdit(c.id, body);
                if (ok) setEditing(null);
                return ok;
              }}
            />
          ) : (
            <p className="whitespace-pre-wrap break-words">{c.body}</p>
          )}
          <div className="flex gap-2">
            {c.authorId === myUserId && editing !== c.id ? (
              <Button
                variant="link"
                size="sm"
                className="h-6 text-xs"
                aria-label={`Edit comment by ${c.authorName}`}
                onClick={() => setEditing(c.id)}
              >
                Edit
              </Button>
            ) : null}
            {c.authorId === myUserId || isOwner ? (
              <Button
                variant="link"
                size="sm"
                className="h-6 text-xs"
                aria-label={`Delete comment by ${c.authorName}`}
                onClick={() => void onDelete(c.id)}
              >
                Delete
              </Button>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

function ThreadActions({
  resolved,
  onReply,
  onResolve,
}: {
  resolved: boolean;
  onReply?: (body: string) => Promise<boolean>;
  onResolve?: (resolved: boolean) => Promise<boolean>;
}) {
  const [replying, setReplying] = useState(false);
  if (replying && onReply) {
    return (
      <CommentBox
        label="Reply"
        submit="Reply"
        onCancel={() => setReplying(false)}
        onSubmit={async (body) => {
          const ok = await onReply(body);
          if (ok) setReplying(false);
          return ok;
        }}
      />
    );
  }
  return (
    <div className="mt-1 flex gap-2">
      {onReply ? (
        <Button variant="outline" size="sm" className="h-7" onClick={() => setReplying(true)}>
          Reply
        </Button>
      ) : null}
      {onResolve ? (
        <Button variant="outline" size="sm" className="h-7" onClick={() => void onResolve(!resolved)}>
          {resolved ? "Reopen" : "Resolve"}
        </Button>
      ) : null}
    </div>
  );
}
