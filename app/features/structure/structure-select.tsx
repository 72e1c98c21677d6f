import { useEffect, useState } from "react";
import { OFFLINE_MESSAGE } from "~/features/offline/offline-lock";
import { useOffline } from "~/features/offline/use-offline";
import { Label } from "~/ui/input";
import { type TemplateView, loadTemplates } from "./structure-api";

/** 'Start from a structure' in the New Timeline dialog: Blank, the built-in beat sheets and the writer's own. */
export function StructureSelect({ value, onChange }: { value: string; onChange: (templateId: string) => void }) {
  const [templates, setTemplates] = useState<TemplateView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const offline = useOffline();
  // Read when the dialog opens, and again by itself when the network comes back if they could not be read without
  // it (the list is not kept on the device); a list read before the network went stays.
  const missing = templates === null;
  useEffect(() => {
    if (offline || !missing) return;
    let live = true;
    setFailed(false);
    loadTemplates().then(
      (list) => live && setTemplates(list),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [offline, missing]);
  // Offline with nothing read yet: the writer is told why, not that it failed (a request that failed as the network went too).
  const unreachable = missing && (offline || (failed && typeof navigator !== "undefined" && !navigator.onLine));
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
        {unreachable
          ? `${OFFLINE_MESSAGE}: the structures load when you are back online.`
          : failed
            ? "The structures could not be loaded. You can still start blank."
            : chosen
              ? `${chosen.description} Creates ${chosen.beats.length} placeholder scenes.`
              : "An empty timeline."}
      </p>
    </div>
  );
}
