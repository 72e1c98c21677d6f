import { LazyFormattedText } from "~/ui/lazy-formatted-text";
import { Label, Textarea } from "~/ui/input";
import { limits } from "../../../db/domain/rules";

// The writer's desk (DESIGN §12): a scene's synopsis and notes beside its text. Markdown, never counted, never in
// the manuscript. The card shows them to everyone who may read the scene; the editor writes them with the story
// fields (PATCH /api/events/{id}).

export type DeskValues = { synopsis: string; notes: string };

export const deskValuesOf = (event: { synopsis?: string; notes?: string }): DeskValues => ({
  synopsis: event.synopsis ?? "",
  notes: event.notes ?? "",
});

/** The fields the writer changed, to send with the story fields (nothing when both are as stored). */
export function changedDesk(stored: DeskValues, value: DeskValues): Partial<DeskValues> {
  return {
    ...(value.synopsis.trimEnd() !== stored.synopsis && { synopsis: value.synopsis }),
    ...(value.notes.trimEnd() !== stored.notes && { notes: value.notes }),
  };
}

/** 'Synopsis' and 'Notes' in the scene editor. */
export function DeskFields({ idPrefix, value, onChange }: { idPrefix: string; value: DeskValues; onChange: (value: DeskValues) => void }) {
  return (
    <div className="grid gap-3 @xl:grid-cols-2">
      {(
        [
          ["synopsis", "Synopsis", "What happens in this scene (never counted, never in the manuscript)"],
          ["notes", "Notes", "Research, reminders, questions (never in the manuscript)"],
        ] as const
      ).map(([field, label, placeholder]) => (
        <div key={field} className="space-y-1.5">
          <Label htmlFor={`${idPrefix}-${field}`}>{label}</Label>
          <Textarea
            id={`${idPrefix}-${field}`}
            value={value[field]}
            rows={3}
            maxLength={limits.eventNotes}
            placeholder={placeholder}
            onChange={(e) => onChange({ ...value, [field]: e.target.value })}
          />
        </div>
      ))}
    </div>
  );
}

/** The card's read view of them: the synopsis under the title, the notes folded away. */
export function DeskView({ event }: { event: { id: number; synopsis?: string; notes?: string } }) {
  if (!event.synopsis && !event.notes) return null;
  return (
    <div className="mt-2 space-y-1 rounded-md border border-stone-200 bg-stone-50 p-2 text-sm text-stone-700" data-testid="scene-desk">
      {event.synopsis ? (
        <section aria-label="Synopsis">
          <h4 className="text-xs font-semibold text-stone-600">Synopsis</h4>
          <LazyFormattedText text={event.synopsis} headingLevel={5} />
        </section>
      ) : null}
      {event.notes ? (
        <details>
          <summary className="cursor-pointer text-xs font-semibold text-stone-600">Notes</summary>
          <LazyFormattedText text={event.notes} headingLevel={5} />
        </details>
      ) : null}
    </div>
  );
}
