import { useEffect, useState } from "react";
import { Label } from "~/ui/input";
import { type TemplateView, loadTemplates } from "./structure-api";

/** 'Start from a structure' in the New Timeline dialog: Blank, the built-in beat sheets and the writer's own. */
export function StructureSelect({ value, onChange }: { value: string; onChange: (templateId: string) => void }) {
  const [templates, setTemplates] = useState<TemplateView[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadTemplates().then(
      (list) => live && setTemplates(list),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const chosen = templates?.find((t) => t.id === value);
  const own = templates?.filter((t) => !t.builtIn) ?? [];
  return (
    <div className="space-y-1.5">
      <Label htmlFor="timeline-structure">Start from a structure</Label>
      <select
        id="timeline-structure"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={!templates}
        aria-describedby="timeline-structure-help"
        className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
      >
        <option value="">Blank</option>
        <optgroup label="Beat sheets">
          {templates
            ?.filter((t) => t.builtIn)
            .map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.beats.length} beats)
              </option>
            ))}
        </optgroup>
        {own.length > 0 ? (
          <optgroup label="My templates">
            {own.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
      <p id="timeline-structure-help" className="text-sm text-stone-600">
        {failed
          ? "The structures could not be loaded. You can still start blank."
          : chosen
            ? `${chosen.description} Creates ${chosen.beats.length} placeholder scenes.`
            : "An empty timeline."}
      </p>
    </div>
  );
}
