import { useContext, useEffect, useState } from "react";
import { AttachmentsContext } from "~/features/timeline/event-attachments";
import { whenOnline } from "~/lib/when-idle";
import type { EventView } from "../../../worker/services/events";

type Scene = Pick<EventView, "id" | "title" | "storyStart">;

/**
 * The edit form's 'After': the scenes this one must come after in story time, a checkbox each (loaded with edit
 * mode; the list is the timeline's, fetched here so the cards need not carry it).
 */
export function AfterPicker({
  idPrefix,
  event,
  value,
  onChange,
}: {
  idPrefix: string;
  event: Pick<EventView, "id" | "timelineId">;
  value: number[];
  onChange: (ids: number[]) => void;
}) {
  const shareCode = useContext(AttachmentsContext)?.shareCode;
  const [scenes, setScenes] = useState<Scene[] | null>(null);
  useEffect(() => {
    let live = true;
    const query = shareCode ? `&${new URLSearchParams({ share: shareCode })}` : "";
    // Offline the list is asked for once the browser is back online (a fetch now could only fail).
    const cancel = whenOnline(() => {
      void fetch(`/api/timelines/${event.timelineId}/events?order=chronological${query}`)
        .then((r) => (r.ok ? (r.json() as Promise<Scene[]>) : []))
        .then((list) => live && setScenes(list.filter((s) => s.id !== event.id)))
        .catch(() => live && setScenes([]));
    });
    return () => {
      live = false;
      cancel();
    };
  }, [event.timelineId, event.id, shareCode]);
  if (!scenes || scenes.length === 0) return null;
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-stone-800">After</legend>
      <p className="text-xs text-stone-600">The scenes this one must come after in story time.</p>
      <div className="max-h-40 space-y-1 overflow-y-auto rounded-md border border-stone-200 bg-white p-2">
        {scenes.map((s) => {
          const id = `${idPrefix}-after-${s.id}`;
          return (
            <label key={s.id} htmlFor={id} className="flex items-center gap-1.5 text-sm">
              <input
                id={id}
                type="checkbox"
                checked={value.includes(s.id)}
                onChange={(e) => onChange(e.target.checked ? [...value, s.id] : value.filter((x) => x !== s.id))}
              />
              <span className="truncate">{s.title}</span>
              {s.storyStart ? <span className="text-xs text-stone-600">{s.storyStart}</span> : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
