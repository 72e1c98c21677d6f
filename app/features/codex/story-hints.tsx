import { AlertTriangle, Link2 } from "lucide-react";
import { ColorDot } from "~/features/codex/codex";
import type { ContinuityFlag } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";

/**
 * 'Link Mara?': codex entries named in the event's text but not linked to it; with 2 or more, 'Link all mentions'
 * links every one of them (not only the 5 shown) at once.
 */
export function MentionSuggestions({
  mentions,
  onLink,
  onLinkAll,
  disabled,
}: {
  mentions: EntityView[];
  onLink: (entity: EntityView) => void;
  onLinkAll?: (entities: EntityView[]) => void;
  disabled?: boolean;
}) {
  if (!mentions.length) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Mentioned but not linked">
      {mentions.slice(0, 5).map((entity) => (
        <li key={entity.id}>
          <button
            type="button"
            disabled={disabled}
            onClick={() => onLink(entity)}
            className="inline-flex items-center gap-1 rounded-full border border-dashed border-stone-400 px-2 py-0.5 text-xs font-medium text-stone-700 hover:border-stone-600 hover:bg-stone-50 disabled:opacity-60"
          >
            <Link2 aria-hidden="true" className="h-3 w-3" />
            <ColorDot color={entity.color} className="h-2 w-2" />
            Link {entity.name}?
          </button>
        </li>
      ))}
      {onLinkAll && mentions.length >= 2 ? (
        <li>
          <button
            type="button"
            disabled={disabled}
            onClick={() => onLinkAll(mentions)}
            className="inline-flex items-center gap-1 rounded-full border border-stone-500 bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-800 hover:bg-stone-200 disabled:opacity-60"
          >
            <Link2 aria-hidden="true" className="h-3 w-3" />
            Link all mentions
          </button>
        </li>
      ) : null}
    </ul>
  );
}

/** Continuity clashes of this event, shown in chronological order (a character in two places at once). */
export function ContinuityWarnings({ flags }: { flags: ContinuityFlag[] }) {
  if (!flags.length) return null;
  return (
    <ul className="mt-2 space-y-1 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900" aria-label="Continuity">
      {flags.map((flag) => (
        <li key={`${flag.otherEventId}:${flag.characterId}`} className="flex items-start gap-1.5">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-3.5 w-3.5 shrink-0" />
          <span>{flag.message}</span>
        </li>
      ))}
    </ul>
  );
}

/** Between two dated events in chronological order: '3 days later', 'Overlaps'. */
export function StoryGap({ label }: { label: string }) {
  const overlap = label === "Overlaps" || label === "Same time";
  return (
    <p className={overlap ? "text-xs font-semibold text-amber-800" : "text-xs text-stone-600"} data-testid="story-gap">
      {label}
    </p>
  );
}
