import { BookMarked, Flag } from "lucide-react";
import { Suspense, lazy, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { shareParam, unwrap } from "~/lib/client";
import { cn } from "~/lib/cn";
import { Button } from "~/ui/button";
import { type OverlayBeat, beatDrift } from "../../../db/domain/templates/overlay";
import type { StructureToolsProps, StructureView } from "./structure-api";

export type { StructureToolsProps };

/**
 * 'Structure' on the timeline screen: the beat sheet overlaid on the story and 'Save as template'. The buttons
 * come with the page; their dialogs load on first use (structure-dialogs.tsx). The beat markers are
 * rendered into the list's rows (a slot before the card of the scene each beat falls on), so the list's own
 * code does not change.
 */

const percent = (n: number) => `${Math.round(n * 100)}%`;

const loadDialogs = () => import("./structure-dialogs");
// A beat marker's 'Suggest a scene for this beat' and its dialog: loaded with the first markers an editor sees.
const loadBeatSuggestion = () => import("./beat-suggestion");
const SuggestBeatButton = lazy(() => loadBeatSuggestion().then((m) => ({ default: m.SuggestBeatButton })));
const BeatSuggestionDialog = lazy(() => loadBeatSuggestion().then((m) => ({ default: m.BeatSuggestionDialog })));
const StructureDialog = lazy(() => loadDialogs().then((m) => ({ default: m.StructureDialog })));
const SaveTemplateDialog = lazy(() => loadDialogs().then((m) => ({ default: m.SaveTemplateDialog })));

export function StructureTools(props: StructureToolsProps) {
  const { timelineId, shareCode, events, structureTemplateId } = props;
  const { client } = useTimelineSession();
  const [structure, setStructure] = useState<StructureView | null>(null);
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  // Mounted from the first opening on, so closing returns focus to the button.
  const [used, setUsed] = useState(false);
  const openDialog = (show: (open: boolean) => void) => {
    setUsed(true);
    show(true);
  };
  // What the overlay depends on: the scenes' order and their words.
  const key = events.map((e) => `${e.id}:${e.wordCount ?? 0}`).join(",");

  useEffect(() => {
    void key;
    // A timeline without a structure asks nothing until one is chosen.
    if (!structureTemplateId && !structure?.templateId) return;
    let live = true;
    const timer = setTimeout(() => {
      unwrap(client.api.timelines[":id"].structure.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) })).then(
        (s) => live && setStructure(s as StructureView),
        () => undefined,
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, timelineId, shareCode, key, structureTemplateId, structure?.templateId]);

  return (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => openDialog(setOpen)} onPointerEnter={() => void loadDialogs()}>
        <Flag aria-hidden="true" className="mr-1.5 h-4 w-4" />
        Structure
      </Button>
      {shareCode ? null : (
        <Button type="button" variant="outline" size="sm" onClick={() => openDialog(setSaving)} onPointerEnter={() => void loadDialogs()}>
          <BookMarked aria-hidden="true" className="mr-1.5 h-4 w-4" />
          Save as template
        </Button>
      )}
      {used ? (
        <Suspense fallback={null}>
          <StructureDialog {...props} open={open} onOpenChange={setOpen} structure={structure} onStructure={setStructure} />
          <SaveTemplateDialog timelineId={timelineId} title={props.timelineTitle} open={saving} onOpenChange={setSaving} />
        </Suspense>
      ) : null}
      {props.showMarkers && structure && structure.beats.length > 0 ? (
        // The markers show with their buttons, once those have loaded.
        <Suspense fallback={null}>
          <BeatMarkers {...props} structure={structure} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Finds (or makes) the slot before each marked scene's card, again whenever the list's rows change. */
function useSlots(eventIds: number[]) {
  const [slots, setSlots] = useState<Map<number, HTMLElement>>(new Map());
  const wanted = eventIds.join(",");
  useEffect(() => {
    const section = document.querySelector<HTMLElement>('section[aria-label="Timeline events"]') ?? document.body;
    const ids = wanted ? wanted.split(",").map(Number) : [];
    const place = () => {
      const next = new Map<number, HTMLElement>();
      for (const id of ids) {
        const card = section.querySelector<HTMLElement>(`li [data-event-id="${id}"]`);
        if (!card?.parentElement) continue;
        let slot = card.previousElementSibling as HTMLElement | null;
        if (!slot?.hasAttribute("data-beat-slot")) {
          slot = document.createElement("div");
          slot.setAttribute("data-beat-slot", String(id));
          card.parentElement.insertBefore(slot, card);
        }
        next.set(id, slot);
      }
      setSlots((current) => (current.size === next.size && [...next].every(([id, slot]) => current.get(id) === slot) ? current : next));
    };
    place();
    const observer = new MutationObserver(() => place());
    observer.observe(section, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      for (const slot of section.querySelectorAll("[data-beat-slot]")) slot.remove();
    };
  }, [wanted]);
  return slots;
}

function BeatMarkers(props: StructureToolsProps & { structure: StructureView }) {
  const { structure, events } = props;
  const byEvent = new Map<number, OverlayBeat[]>();
  for (const beat of structure.beats) {
    if (beat.eventId === null) continue;
    byEvent.set(beat.eventId, [...(byEvent.get(beat.eventId) ?? []), beat]);
  }
  const slots = useSlots([...byEvent.keys()]);
  const [suggesting, setSuggesting] = useState<OverlayBeat | null>(null);
  return (
    <>
      {suggesting ? (
        <BeatSuggestionDialog
          timelineId={props.timelineId}
          shareCode={props.shareCode}
          beat={suggesting}
          events={events}
          onPlaced={props.onScenesChanged}
          onWritten={props.onSceneWritten}
          onClose={() => setSuggesting(null)}
        />
      ) : null}
      {[...slots].map(([eventId, slot]) =>
        createPortal(
          <div className="mb-2 space-y-1">
            {(byEvent.get(eventId) ?? []).map((beat) => {
              const drift = beatDrift(beat, events, structure.basis);
              return (
                <div
                  key={beat.title}
                  data-testid="beat-marker"
                  data-warning={drift !== null ? "true" : undefined}
                  title={beat.description}
                  className={cn(
                    "flex flex-wrap items-center gap-1.5 rounded border-l-4 px-2 py-1 text-xs font-medium",
                    drift !== null ? "border-amber-500 bg-amber-50 text-amber-900" : "border-brand-500 bg-brand-50 text-brand-900",
                  )}
                >
                  <Flag aria-hidden="true" className="h-3 w-3" />
                  <span>Beat: {beat.title}</span>
                  <span className="font-normal">
                    {drift !== null ? `(lands at ${percent(drift)}, expected ${percent(beat.at)})` : `(${percent(beat.at)})`}
                  </span>
                  {props.canEdit ? <SuggestBeatButton beat={beat} onSuggest={setSuggesting} /> : null}
                </div>
              );
            })}
          </div>,
          slot,
          `beat-${eventId}`,
        ),
      )}
    </>
  );
}
