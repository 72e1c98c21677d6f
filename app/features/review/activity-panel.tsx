import { useCallback, useEffect, useId, useState } from "react";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import type { ActivityItem, ActivityType } from "../../../worker/services/activity";
import type { ReviewScope } from "./review-store";

// The timeline's Activity panel: what changed, who and when, newest first, by writer, a page at a time.

const PAGE = 30;
const verbs: Record<ActivityType, string> = {
  "scene-added": "added",
  "scene-edited": "edited",
  "scene-moved": "moved",
  "scene-restored": "restored",
  "scene-deleted": "deleted",
  comment: "commented on",
};
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

type Props = { scope: ReviewScope; onOpenScene: (eventId: number) => void };

export function ActivityList({ scope, onOpenScene }: Props) {
  const [writer, setWriter] = useState("");
  const [items, setItems] = useState<ActivityItem[] | null>(null);
  const [more, setMore] = useState(false);
  const [writers, setWriters] = useState<Map<number, string>>(new Map());
  const filterId = useId();
  const { timelineId, shareCode } = scope;

  const load = useCallback(
    async (before?: string) => {
      try {
        const query = { ...shareParam(shareCode), limit: String(PAGE), ...(writer && { userId: writer }), ...(before && { before }) };
        const page = await unwrap(client.api.timelines[":id"].activity.$get({ param: { id: String(timelineId) }, query }));
        setItems((shown) => (before ? [...(shown ?? []), ...page] : page));
        setMore(page.length === PAGE);
        setWriters((known) => {
          const next = new Map(known);
          for (const i of page) if (i.userId !== null) next.set(i.userId, i.userName);
          return next.size === known.size ? known : next;
        });
      } catch (error) {
        errorToast(errorMessage(error, "Could not load the activity"));
      }
    },
    [timelineId, shareCode, writer],
  );
  useEffect(() => void load(), [load]);

  return (
    <div className="space-y-3 text-sm" data-testid="activity">
      <div className="flex items-center gap-2">
        <label htmlFor={filterId} className="text-stone-700">
          Writer
        </label>
        <select
          id={filterId}
          value={writer}
          onChange={(e) => setWriter(e.target.value)}
          className="h-8 rounded-md border border-stone-300 bg-white px-2"
        >
          <option value="">Everyone</option>
          {[...writers].map(([id, name]) => (
            <option key={id} value={String(id)}>
              {name}
            </option>
          ))}
        </select>
      </div>
      {items === null ? <p className="text-stone-600">Loading activity…</p> : null}
      {items?.length === 0 ? <p className="text-stone-600">Nothing yet.</p> : null}
      <ol className="space-y-1.5">
        {(items ?? []).map((item) => (
          <li key={item.cursor} data-testid="activity-item" className="leading-relaxed">
            <span className="font-medium">{item.userName}</span> <span>{verbs[item.type]}</span>{" "}
            {item.type === "scene-deleted" ? (
              <span className="font-medium">{item.eventTitle}</span>
            ) : (
              <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => onOpenScene(item.eventId)}>
                {item.eventTitle}
              </button>
            )}
            <time dateTime={item.at} className="ml-1 text-xs text-stone-600">
              · {when(item.at)}
            </time>
          </li>
        ))}
      </ol>
      {more && items ? (
        <Button variant="outline" size="sm" onClick={() => void load(items.at(-1)?.cursor)}>
          Show older
        </Button>
      ) : null}
    </div>
  );
}
