import { Button } from "~/ui/button";

/** What a PUT that would move dated scenes or lifespans answers (409): the message and each move. */
export type Preview = {
  message: string;
  changes: Array<{ eventId: number; title: string; before: string | null; after: string | null }>;
  lifespans?: Array<{ entityId: number; name: string; field: "born" | "died"; before: string | null; after: string | null }>;
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Convert 2 scenes", "Convert 1 scene and 2 lifespan dates", "Convert 2 lifespan dates". */
function convertLabel(scenes: number, lifespans: number) {
  const parts = [scenes > 0 && plural(scenes, "scene", "scenes"), lifespans > 0 && plural(lifespans, "lifespan date", "lifespan dates")];
  return `Convert ${parts.filter(Boolean).join(" and ")}`;
}

/** Where each dated scene and each character's born or died date moves, before the owner converts them. */
export function ConversionPreview(props: { preview: Preview; pending: boolean; onCancel: () => void; onConvert: () => void }) {
  const { changes, lifespans = [] } = props.preview;
  return (
    <div className="space-y-3">
      <p className="font-medium" role="alert">
        {props.preview.message}
      </p>
      {changes.length > 0 ? (
        <ul className="max-h-60 space-y-1 overflow-y-auto text-sm" aria-label="Scenes that move">
          {changes.map((c) => (
            <li key={c.eventId}>
              <span className="font-medium">{c.title}</span>: {c.before ?? "undated"} → {c.after ?? "undated"}
            </li>
          ))}
        </ul>
      ) : null}
      {lifespans.length > 0 ? (
        <ul className="max-h-40 space-y-1 overflow-y-auto text-sm" aria-label="Lifespans that move">
          {lifespans.map((l) => (
            <li key={`${l.entityId}-${l.field}`}>
              <span className="font-medium">{l.name}</span>, {l.field}: {l.before ?? "unknown"} → {l.after ?? "unknown"}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button disabled={props.pending} onClick={props.onConvert}>
          {convertLabel(changes.length, lifespans.length)}
        </Button>
      </div>
    </div>
  );
}
