import { useContext, useMemo } from "react";
import { AttachmentsContext } from "~/features/timeline/event-attachments";
import { sortChronologically } from "../../../db/domain/story-order";
import type { EventView } from "../../../worker/services/events";

/**
 * The edit form's 'After': the scenes this one must come after in story time, a checkbox each, in story time's
 * order. They come from the screen's own list (nothing is fetched when an editor opens).
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
  const list = useContext(AttachmentsContext)?.scenes;
  const scenes = useMemo(() => sortChronologically((list ?? []).filter((s) => s.id !== event.id)), [list, event.id]);
  if (scenes.length === 0) return null;
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
              {s.storyStart ? <span className="text-xs text-stone-600">{s.storyStartDisplay ?? s.storyStart}</span> : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
