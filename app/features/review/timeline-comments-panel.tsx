import { useEffect, useId, useState } from "react";
import { Button } from "~/ui/button";
import type { TimelineCommentView } from "../../../worker/services/timeline-comments";
import { useCommentWrites, useTimelineThreads } from "./comment-queries";
import type { ReviewScope } from "./review-store";

// The timeline's Comments panel: open or resolved threads of every scene, by author, live (comment-queries.ts).

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

type Props = { scope: ReviewScope; onOpenScene: (eventId: number, title: string) => void };

export function TimelineComments({ scope, onOpenScene }: Props) {
  const [status, setStatus] = useState<"open" | "resolved">("open");
  const [author, setAuthor] = useState("");
  const { timelineId, shareCode } = scope;
  const list = useTimelineThreads(timelineId, shareCode, { status, ...(author && { author }) });
  // Everyone who has commented so far: the author filter's choices (they stay while a filter hides them).
  const [authors, setAuthors] = useState<Map<number, string>>(new Map());
  const filterId = useId();
  useEffect(() => {
    if (!list) return;
    setAuthors((known) => {
      const next = new Map(known);
      for (const c of list) if (c.authorId !== null) next.set(c.authorId, c.authorName);
      return next.size === known.size ? known : next;
    });
  }, [list]);
  const writes = useCommentWrites(timelineId, shareCode);

  const resolve = (root: TimelineCommentView, resolved: boolean) => writes(root.eventId).patch(root.id, { resolved });

  const threads = (list ?? []).filter((c) => c.threadId === null);
  return (
    <div className="space-y-3 text-sm" data-testid="timeline-comments">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="tablist" aria-label="Thread state" className="inline-flex rounded-md border border-stone-300 p-0.5">
          {(["open", "resolved"] as const).map((s) => (
            <button
              key={s}
              type="button"
              role="tab"
              aria-selected={status === s}
              onClick={() => setStatus(s)}
              className={`rounded px-2.5 py-1 font-medium ${status === s ? "bg-brand-600 text-white" : "text-stone-700 hover:bg-stone-100"}`}
            >
              {s === "open" ? "Open" : "Resolved"}
            </button>
          ))}
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={filterId} className="text-stone-700">
            Author
          </label>
          <select
            id={filterId}
            value={author}
            onChange={(e) => setAuthor(e.target.value)}
            className="h-8 rounded-md border border-stone-300 bg-white px-2"
          >
            <option value="">Everyone</option>
            {[...authors].map(([id, name]) => (
              <option key={id} value={String(id)}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list === null ? <p className="text-stone-600">Loading comments…</p> : null}
      {list !== null && threads.length === 0 ? (
        <p className="text-stone-600">{status === "open" ? "No open comments." : "No resolved comments."}</p>
      ) : null}
      <ul className="space-y-2">
        {threads.map((root) => {
          const replies = (list ?? []).filter((c) => c.threadId === root.id);
          return (
            <li key={root.id} data-testid="timeline-thread" className="rounded-md border border-stone-200 p-2">
              <p className="text-xs font-medium text-stone-600">{root.eventTitle}</p>
              {root.anchor ? (
                <blockquote className="my-1 border-l-2 border-amber-500 pl-2 text-stone-700 italic">“{root.anchor.quote}”</blockquote>
              ) : null}
              <p className="text-xs text-stone-600">
                <span className="font-medium text-ink">{root.authorName}</span> ·{" "}
                <time dateTime={root.createdAt}>{when(root.createdAt)}</time>
              </p>
              <p className="whitespace-pre-wrap break-words">{root.body}</p>
              {replies.length > 0 ? (
                <p className="text-xs text-stone-600">
                  {replies.length} {replies.length === 1 ? "reply" : "replies"}
                </p>
              ) : null}
              <div className="mt-1 flex flex-wrap gap-2">
                <Button variant="outline" size="sm" className="h-7" onClick={() => onOpenScene(root.eventId, root.eventTitle)}>
                  Open in {root.eventTitle}
                </Button>
                {scope.canEdit ? (
                  <Button variant="outline" size="sm" className="h-7" onClick={() => void resolve(root, !root.resolved)}>
                    {root.resolved ? "Reopen" : "Resolve"}
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
