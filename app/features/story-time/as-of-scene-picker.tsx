import { useId } from "react";

/**
 * 'As of scene' (DESIGN.md §12): the story's end ('The whole story', the default) or one of its scenes in story
 * order. One picker for the views that read the story as of a scene: the Map and Relationships.
 */
export function AsOfScenePicker({
  scenes,
  value,
  onChange,
}: {
  /** The timeline's scenes in story order. */
  scenes: readonly { id: number; title: string }[];
  /** The chosen scene, or null for the whole story. */
  value: number | null;
  onChange: (sceneId: number | null) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-700">
        As of scene
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        className="h-9 max-w-[14rem] rounded-md border border-stone-300 bg-white px-2 text-sm"
      >
        <option value="">The whole story</option>
        {scenes.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
      </select>
    </div>
  );
}
