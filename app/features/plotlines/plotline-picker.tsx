import { usePlotlines } from "./plotline-queries";

/** The edit form's plotlines: a colored checkbox each (loaded with edit mode). */
export function PlotlinePicker({ idPrefix, value, onChange }: { idPrefix: string; value: number[]; onChange: (ids: number[]) => void }) {
  const plotlines = usePlotlines();
  if (plotlines.length === 0) return null;
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-stone-800">Plotlines</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {plotlines.map((p) => {
          const id = `${idPrefix}-plotline-${p.id}`;
          return (
            <label key={p.id} htmlFor={id} className="inline-flex items-center gap-1.5 text-sm">
              <input
                id={id}
                type="checkbox"
                checked={value.includes(p.id)}
                onChange={(e) => onChange(e.target.checked ? [...value, p.id] : value.filter((x) => x !== p.id))}
              />
              <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full" style={{ backgroundColor: p.color }} />
              {p.title}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
