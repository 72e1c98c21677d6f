import { BookMarked, Flag } from "lucide-react";
import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { cn } from "~/lib/cn";
import { errorToast, showToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { type OverlayBeat, type OverlayScene, beatDrift } from "../../../db/domain/templates/overlay";
import type { TemplateView } from "../../../db/domain/templates/built-in";
import type { EventView } from "../../../worker/services/events";
import type { StructureView } from "../../../worker/services/templates";
import { BeatSuggestionDialog, SuggestBeatButton } from "./beat-suggestion";

/**
 * 'Structure' on the timeline screen: the beat sheet overlaid on the story and 'Save as template'. This module
 * loads after the page has hydrated (none of it is in the first paint's JavaScript). The beat markers are
 * rendered into the list's rows (a slot before the card of the scene each beat falls on), so the list's own
 * code does not change.
 */

export type StructureToolsProps = {
  timelineId: number;
  timelineTitle: string;
  structureTemplateId: string | null;
  shareCode?: string | null;
  headers: Record<string, string>;
  canEdit: boolean;
  /** Every scene in story order (with its word count). */
  events: OverlayScene[];
  /** Markers are shown (story order, a list layout). */
  showMarkers: boolean;
  /** The screen reads its scenes again (after a scene suggested for a beat was written). */
  onScenesChanged?: () => void;
  /** A scene the server answered with after a write here, shown at once. */
  onSceneWritten?: (event: EventView) => void;
};

const percent = (n: number) => `${Math.round(n * 100)}%`;

export function StructureTools(props: StructureToolsProps) {
  const { timelineId, shareCode, events, structureTemplateId } = props;
  const [structure, setStructure] = useState<StructureView | null>(null);
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
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
  }, [timelineId, shareCode, key, structureTemplateId, structure?.templateId]);

  return (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Flag aria-hidden="true" className="mr-1.5 h-4 w-4" />
        Structure
      </Button>
      {shareCode ? null : (
        <Button type="button" variant="outline" size="sm" onClick={() => setSaving(true)}>
          <BookMarked aria-hidden="true" className="mr-1.5 h-4 w-4" />
          Save as template
        </Button>
      )}
      <StructureDialog {...props} open={open} onOpenChange={setOpen} structure={structure} onStructure={setStructure} />
      <SaveTemplateDialog timelineId={timelineId} title={props.timelineTitle} open={saving} onOpenChange={setSaving} />
      {props.showMarkers && structure && structure.beats.length > 0 ? <BeatMarkers {...props} structure={structure} /> : null}
    </>
  );
}

function StructureDialog(
  props: StructureToolsProps & {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    structure: StructureView | null;
    onStructure: (s: StructureView) => void;
  },
) {
  const { open, structure, canEdit } = props;
  const [templates, setTemplates] = useState<TemplateView[] | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (open)
      unwrap(client.api.templates.$get()).then(
        (list) => setTemplates(list as TemplateView[]),
        (e) => errorToast(errorMessage(e, "Failed to load the structures")),
      );
  }, [open]);
  const current = structure?.templateId ?? "";
  const chosen = templates?.find((t) => t.id === current);
  const choose = async (templateId: string) => {
    setPending(true);
    try {
      const param = { id: String(props.timelineId) };
      const json = { templateId: templateId || null };
      const next = await unwrap(
        client.api.timelines[":id"].structure.$put({ param, query: shareParam(props.shareCode), json }, { headers: props.headers }),
      );
      props.onStructure(next as StructureView);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to set the structure"));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={props.onOpenChange} title="Structure">
      <div className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="structure-template">Beat sheet</Label>
          <select
            id="structure-template"
            value={current}
            disabled={!canEdit || pending || !templates}
            onChange={(e) => void choose(e.target.value)}
            className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
          >
            <option value="">None</option>
            {templates?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.builtIn ? t.name : `${t.name} (mine)`}
              </option>
            ))}
          </select>
          <p className="text-sm text-stone-600">
            {chosen ? chosen.description : "Choose a beat sheet to see where each beat should fall in the story."}
            {canEdit ? null : " Only editors can change it."}
          </p>
        </div>
        {structure && structure.beats.length > 0 ? (
          <p className="text-sm text-stone-600">
            Placed by {structure.basis === "words" ? "word count" : "scene count"}: each beat is marked before the scene where it falls.
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}

function SaveTemplateDialog(props: { timelineId: number; title: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = useState("");
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (props.open) setName(props.title);
  }, [props.open, props.title]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return errorToast("Template name is required");
    setPending(true);
    try {
      await unwrap(client.api.templates.$post({ json: { timelineId: props.timelineId, name } }));
      showToast({ title: "Template saved", description: `'${name.trim()}' is in Start from a structure.` });
      props.onOpenChange(false);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to save the template"));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title="Save as template">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-stone-600">Keeps this timeline's chapters and scene titles to start another book from.</p>
        <div className="space-y-1.5">
          <Label htmlFor="template-name">Template name</Label>
          <Input id="template-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => props.onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : "Save template"}
          </Button>
        </div>
      </form>
    </Dialog>
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
          headers={props.headers}
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
