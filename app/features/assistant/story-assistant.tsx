import { Lightbulb, Plus, Square, UserRound } from "lucide-react";
import { type KeyboardEvent, lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Label, Textarea } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { aiStreamErrorToast } from "~/features/assistant/ai";
import { useAiStream } from "~/features/assistant/ai-stream";
import { client, shareParam, unwrap } from "~/lib/client";
import { parseSuggestion } from "../../../db/domain/rules";

// The formatted answer (and the Markdown renderer) loads with the first answer, not with the page; until then the
// answer waits rather than show its Markdown.
const AiText = lazy(() => import("~/features/assistant/ai-text"));

function Answer({ text }: { text: string }) {
  return (
    <div aria-live="polite" className="max-h-96 overflow-y-auto rounded-md border border-stone-200 bg-stone-50 p-3">
      <Suspense fallback={null}>
        <AiText text={text} />
      </Suspense>
    </div>
  );
}

const tabClass =
  "flex flex-1 items-center justify-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-stone-700 data-[state=active]:bg-white data-[state=active]:text-ink data-[state=active]:shadow-sm";

type Tool = "plot" | "character";
const TOOLS: { value: Tool; label: string; Icon: typeof Lightbulb }[] = [
  { value: "plot", label: "Plot Ideas", Icon: Lightbulb },
  { value: "character", label: "Character Profiles", Icon: UserRound },
];

/**
 * the Story Assistant (non-viewers only). Its two tools are a small WAI-ARIA
 * tablist (arrows, Home and End move and select; one tab stop) rather than radix Tabs, which the
 * timeline page would otherwise load before its first paint.
 */
/**
 * The panel is server-rendered and its code arrives after the page has hydrated: text typed into a field in that
 * moment is in the page but not yet in the panel's state. Taken in once, when the panel comes to life.
 */
function useTypedEarly(id: string, set: (value: string) => void) {
  useEffect(() => {
    const typed = (document.getElementById(id) as HTMLTextAreaElement | null)?.value;
    if (typed) set(typed);
  }, [id, set]);
}

export type StoryAssistantProps = { timelineId: number; shareCode?: string | null };

export function StoryAssistant({ timelineId, shareCode }: StoryAssistantProps) {
  const [active, setActive] = useState<Tool>("plot");
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const id = useId();
  // Set once the panel's code runs in the browser (it comes after the page's): tests wait for it.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = TOOLS.findIndex((t) => t.value === active);
    const next =
      e.key === "ArrowRight"
        ? (at + 1) % TOOLS.length
        : e.key === "ArrowLeft"
          ? (at - 1 + TOOLS.length) % TOOLS.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? TOOLS.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    setActive(TOOLS[next].value);
    tabs.current[next]?.focus();
  };
  return (
    <Card className="p-4 lg:sticky lg:top-20" data-live={live || undefined}>
      <h2 className="mb-3 flex items-center gap-2 font-semibold">Story Assistant</h2>
      <div
        role="tablist"
        aria-label="Story Assistant tools"
        aria-orientation="horizontal"
        className="mb-4 flex gap-1 rounded-lg bg-stone-100 p-1"
        onKeyDown={onKeyDown}
      >
        {TOOLS.map(({ value, label, Icon }, i) => (
          <button
            key={value}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${value}`}
            aria-controls={`${id}-panel-${value}`}
            aria-selected={active === value}
            tabIndex={active === value ? 0 : -1}
            data-state={active === value ? "active" : "inactive"}
            className={tabClass}
            onClick={() => setActive(value)}
          >
            <Icon aria-hidden="true" className="h-4 w-4" /> {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel-plot`} aria-labelledby={`${id}-tab-plot`} hidden={active !== "plot"}>
        <PlotIdeas timelineId={timelineId} shareCode={shareCode} />
      </div>
      <div role="tabpanel" id={`${id}-panel-character`} aria-labelledby={`${id}-tab-character`} hidden={active !== "character"}>
        <CharacterProfiles />
      </div>
    </Card>
  );
}

function PlotIdeas({ timelineId, shareCode }: { timelineId: number; shareCode?: string | null }) {
  const [prompt, setPrompt] = useState("");
  useTypedEarly("plot-prompt", setPrompt);
  const offline = useOfflineLock();
  // One editable text (title line, then content); applying splits it by the product's rules.
  const [suggestion, setSuggestion] = useState("");
  const query = shareParam(shareCode);

  // Streams: the text shows as it arrives; `done` carries the parsed suggestion.
  const plot = useAiStream<{ title: string; content: string }>((error) => aiStreamErrorToast(error, "Failed to get AI suggestion"));
  const suggestPlot = {
    pending: plot.streaming,
    run: async () => {
      setSuggestion("");
      const done = await plot.run("/story/suggest-plot", { timelineId, prompt: prompt.trim() }, query);
      if (!done) return;
      // The editable suggestion takes over from the streamed preview.
      plot.setText("");
      setSuggestion(`${done.result.title}\n${done.result.content}`);
    },
  };
  const applySuggestion = useMutation(
    (event: { title: string; content: string }) =>
      unwrap(
        client.api.timelines[":id"].events.$post({
          param: { id: String(timelineId) },
          query,
          json: { ...event, timelineId, attachments: [] },
        }),
      ),
    {
      success: { title: "Suggestion Applied", description: "The AI suggestion has been added to your timeline." },
      error: "Failed to create event",
      onSuccess: () => setSuggestion(""),
    },
  );
  const pending = suggestPlot.pending;
  const applying = applySuggestion.pending;
  const suggest = () => void suggestPlot.run();
  const apply = () => {
    const parsed = parseSuggestion(suggestion);
    if (parsed) void applySuggestion.run(parsed);
  };

  return (
    <div className="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor="plot-prompt">What should happen next?</Label>
        <Textarea
          id="plot-prompt"
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          maxLength={4000}
          className="min-h-[100px]"
          placeholder="e.g. Raise the stakes for the keeper before the storm"
        />
      </div>
      <Button className="w-full" onClick={suggest} disabled={pending || !prompt.trim()} {...offline.lock}>
        <Lightbulb aria-hidden="true" className="h-4 w-4" />
        {pending ? "Thinking..." : "Suggest Plot Idea"}
      </Button>
      {offline.note}
      <StreamPreview stream={plot} show={!suggestion} />
      {suggestion ? (
        <div className="space-y-2">
          <Label htmlFor="plot-suggestion">Suggestion (edit before applying if you like)</Label>
          <Textarea id="plot-suggestion" value={suggestion} onChange={(e) => setSuggestion(e.target.value)} className="min-h-[100px]" />
          <Button variant="outline" className="w-full" onClick={apply} disabled={applying || !suggestion.trim()}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            {applying ? "Adding..." : "Add to Timeline"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** What the model has written so far, with 'Stop generating' while it streams; what arrived stays after a stop or a break. */
function StreamPreview({
  stream,
  show,
}: {
  stream: { text: string; streaming: boolean; stopped: boolean; stoppedNote: string; stop: () => void };
  show: boolean;
}) {
  if (!show || (!stream.streaming && !stream.text)) return null;
  return (
    <div className="space-y-2">
      {stream.streaming ? (
        <Button variant="outline" size="sm" onClick={stream.stop}>
          <Square aria-hidden="true" className="h-4 w-4" /> Stop generating
        </Button>
      ) : null}
      {stream.text ? <Answer text={stream.text} /> : null}
      {stream.stopped ? <p className="text-xs text-stone-500">{stream.stoppedNote}</p> : null}
    </div>
  );
}

function CharacterProfiles() {
  const [description, setDescription] = useState("");
  useTypedEarly("character-prompt", setDescription);
  const offline = useOfflineLock();
  const [profile, setProfile] = useState("");
  const stream = useAiStream((error) => aiStreamErrorToast(error, "Failed to generate character profile"));
  const pending = stream.streaming;
  const generate = async () => {
    setProfile("");
    const done = await stream.run("/writing/character", { description: description.trim() });
    if (!done) return;
    stream.setText("");
    setProfile(done.result);
  };

  return (
    <div className="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor="character-prompt">Describe a character</Label>
        <Textarea
          id="character-prompt"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={4000}
          className="min-h-[100px]"
          placeholder="e.g. The harbourmaster who knows more than she says"
        />
      </div>
      <Button className="w-full" onClick={() => void generate()} disabled={pending || !description.trim()} {...offline.lock}>
        <UserRound aria-hidden="true" className="h-4 w-4" />
        {pending ? "Generating..." : "Generate Profile"}
      </Button>
      {offline.note}
      <StreamPreview stream={stream} show={!profile} />
      {profile ? <Answer text={profile} /> : null}
    </div>
  );
}
