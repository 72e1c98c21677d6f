import { Sparkles } from "lucide-react";
import { useState } from "react";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import { Label, Textarea } from "~/ui/input";
import type { OverlayBeat, OverlayScene } from "../../../db/domain/templates/overlay";
import type { EventView } from "../../../worker/services/events";

// 'Suggest a scene for this beat': the AI writes a scene for a beat of the overlaid structure (it sends the beat,
// where it falls and the story bible); the writer fills the beat's empty scene with it or adds it as a new scene
// just before the scene the beat falls on.

type Suggestion = { title: string; content: string };

export type BeatSuggestionProps = {
  timelineId: number;
  shareCode?: string | null;
  beat: OverlayBeat;
  /** Every scene in story order. */
  events: OverlayScene[];
  onPlaced?: () => void;
  onWritten?: (event: EventView) => void;
};

/** The marker's button: the dialog lives with the markers, so a marker drawn again does not close it. */
export function SuggestBeatButton({ beat, onSuggest }: { beat: OverlayBeat; onSuggest: (beat: OverlayBeat) => void }) {
  return (
    <button
      type="button"
      onClick={() => onSuggest(beat)}
      aria-label={`Suggest a scene for this beat: ${beat.title}`}
      className="ml-auto inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-medium underline-offset-2 hover:underline focus-visible:outline-2"
    >
      <Sparkles aria-hidden="true" className="h-3 w-3" />
      Suggest a scene for this beat
    </button>
  );
}

export function BeatSuggestionDialog({
  timelineId,
  shareCode,
  beat,
  events,
  onPlaced,
  onWritten,
  onClose,
}: BeatSuggestionProps & { onClose: () => void }) {
  // The session's client names this page's room connection on every write.
  const { client } = useTimelineSession();
  const [wish, setWish] = useState("");
  const [pending, setPending] = useState(false);
  // Asking the assistant and placing its scene need the server (not queued): one 'You're offline' for the three.
  const { lock, note } = useOfflineLock("self-center");
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  // The beat's own scene: a scene named like the beat (a book started from this structure has one), else the scene
  // where the beat falls. A placeholder (named like the beat) or a scene without words can be written into.
  const named = (title: string) => title.trim().toLowerCase() === beat.title.trim().toLowerCase();
  const own = events.findIndex((e) => named(e.title));
  const index = own >= 0 ? own : events.findIndex((e) => e.id === beat.eventId);
  const there = index >= 0 ? events[index] : null;
  const empty = there !== null && (named(there.title) || (there.wordCount ?? 0) === 0);

  const query = shareParam(shareCode);
  const ask = async () => {
    setPending(true);
    try {
      const prompt = wish.trim() || `A scene for the beat "${beat.title}"`;
      const json = { timelineId, prompt, beat: beat.title };
      const res = (await unwrap(client.api.story["suggest-plot"].$post({ query, json }))) as { suggestion: Suggestion };
      setSuggestion(res.suggestion);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to suggest a scene"));
    } finally {
      setPending(false);
    }
  };
  const place = async (how: "fill" | "add") => {
    if (!suggestion) return;
    setPending(true);
    try {
      const patch = (id: number, json: { title?: string; content?: string; position?: number }) =>
        unwrap(client.api.events[":id"].$patch({ param: { id: String(id) }, query, json }));
      if (how === "fill" && there) {
        onWritten?.((await patch(there.id, { title: suggestion.title, content: suggestion.content })) as EventView);
      } else {
        const param = { id: String(timelineId) };
        const created = await unwrap(client.api.timelines[":id"].events.$post({ param, query, json: suggestion }));
        if (index >= 0) await patch(created.id, { position: index });
        onPlaced?.();
      }
      showToast({ title: "Scene added", description: `'${suggestion.title}' is on the timeline at ${beat.title}.` });
      onClose();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to add the scene"));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open onOpenChange={(o) => (o ? undefined : onClose())} title={`Suggest a scene: ${beat.title}`}>
      <div className="space-y-4">
        <p className="text-sm text-stone-600">
          {beat.description} It should fall at {Math.round(beat.at * 100)}% of the story
          {there && !named(there.title) ? `, where '${there.title}' is now` : ""}.
        </p>
        <div className="space-y-1.5">
          <Label htmlFor="beat-wish">What should happen? (optional)</Label>
          <Textarea id="beat-wish" value={wish} maxLength={2000} onChange={(e) => setWish(e.target.value)} className="min-h-[100px]" />
        </div>
        {suggestion ? (
          <section aria-label="Suggested scene" className="rounded-md border border-stone-200 bg-stone-50 p-3">
            <h3 dir="auto" className="font-semibold">
              {suggestion.title}
            </h3>
            <p className="mt-1 whitespace-pre-wrap text-sm text-stone-700">{suggestion.content}</p>
          </section>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          {note}
          <Button type="button" variant={suggestion ? "outline" : "default"} onClick={() => void ask()} disabled={pending} {...lock}>
            {pending && !suggestion ? "Suggesting..." : suggestion ? "Suggest another" : "Suggest"}
          </Button>
          {suggestion && empty && there ? (
            <Button type="button" onClick={() => void place("fill")} disabled={pending} {...lock}>
              Write it into '{there.title}'
            </Button>
          ) : null}
          {suggestion ? (
            <Button type="button" variant={empty ? "outline" : "default"} onClick={() => void place("add")} disabled={pending} {...lock}>
              Add as a new scene here
            </Button>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
