import { BarChart3, Target } from "lucide-react";
import { Suspense, lazy, useState } from "react";
import { errorMessage, unwrap } from "~/lib/client";
import { digits } from "~/lib/digits";
import { showToast, errorToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import type { ChapterContext } from "./chapter-context";
import { parseTarget, type Scene, wordsText } from "./chapters-api";
import { ProgressBar } from "./progress-bar";

// The chart and its table load when the writer opens the panel.
const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];
const ProgressPanel = lazy(() => import("./progress-panel").then((m) => ({ default: m.ProgressPanel })));

/** The book's word count under the title, 'x of y words' with a bar when it has a target, and the progress panel. */
export function BookProgress({
  context,
  timeline,
  events,
  complete,
  canEdit,
  refresh,
}: {
  context: ChapterContext;
  timeline: {
    id: number;
    wordCount?: number | null;
    targetWords?: number | null;
    isOwner?: boolean;
    deadline?: string | null;
    writingDays?: number[];
  };
  events: Scene[];
  complete: boolean;
  canEdit: boolean;
  refresh: () => void;
}) {
  const [target, setTarget] = useState<number | null | undefined>(undefined);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [panel, setPanel] = useState(false);
  const words = complete ? events.reduce((n, e) => n + (e.wordCount ?? 0), 0) : (timeline.wordCount ?? 0);
  const targetWords = target === undefined ? (timeline.targetWords ?? null) : target;

  const save = async () => {
    const parsed = parseTarget(draft);
    if ("error" in parsed) return setError(parsed.error);
    setError(null);
    try {
      const json = { targetWords: parsed.value };
      await unwrap(context.api.client.api.timelines[":id"].$patch({ param: { id: String(timeline.id) }, json }));
      setTarget(parsed.value);
      setEditing(false);
      showToast({ title: "Success", description: parsed.value ? "Target saved" : "Target removed" });
      refresh();
    } catch (e) {
      errorToast(errorMessage(e, "Failed to update timeline"));
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-stone-700" data-testid="book-progress">
      {targetWords ? (
        <>
          <span>
            {digits(words)} of {wordsText(targetWords)}
          </span>
          <ProgressBar label="Book target" value={words} max={targetWords} className="w-40" />
        </>
      ) : (
        <span>{wordsText(words)}</span>
      )}
      {canEdit && !editing ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setDraft(targetWords ? String(targetWords) : "");
            setEditing(true);
          }}
        >
          <Target aria-hidden="true" className="h-4 w-4" /> {targetWords ? "Change target" : "Set target"}
        </Button>
      ) : null}
      {editing ? (
        <form
          noValidate
          className="flex flex-wrap items-start gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div>
            <label htmlFor="book-target" className="sr-only">
              Target words for the book
            </label>
            <input
              id="book-target"
              // biome-ignore lint/a11y/noAutofocus: the writer just asked for this field
              autoFocus
              inputMode="numeric"
              placeholder="e.g. 80000"
              value={draft}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "book-target-error" : undefined}
              onChange={(e) => setDraft(e.target.value)}
              className="h-8 w-32 rounded-md border border-stone-300 bg-white px-2 text-sm"
            />
            {error ? (
              <p id="book-target-error" className="mt-1 text-red-700">
                {error}
              </p>
            ) : null}
          </div>
          <OnlineOnlyButton type="submit" size="sm">
            Save target
          </OnlineOnlyButton>
          <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </form>
      ) : null}
      <Button size="sm" variant="ghost" onClick={() => setPanel(true)}>
        <BarChart3 aria-hidden="true" className="h-4 w-4" /> Progress
      </Button>
      <Dialog open={panel} onOpenChange={setPanel} title="Progress" description="Words written per day over the last 30 days.">
        <Suspense fallback={<p className="text-sm text-stone-600">Loading progress...</p>}>
          <ProgressPanel
            context={context}
            timelineId={timeline.id}
            schedule={timeline.isOwner ? { deadline: timeline.deadline ?? null, writingDays: timeline.writingDays ?? ALL_DAYS } : null}
          />
        </Suspense>
      </Dialog>
    </div>
  );
}
