import { Check, CornerDownLeft, PenLine, Replace, Sparkles, Square, X } from "lucide-react";
import { useState } from "react";
import { useParams } from "react-router";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Label } from "~/ui/input";
import { aiStreamErrorToast } from "~/features/assistant/ai";
import { useAiStream } from "~/features/assistant/ai-stream";
import AiText from "~/features/assistant/ai-text";
import { errorToast } from "~/lib/toast";
import { TRANSFORM_TONES } from "../../../db/domain/rules";

type Mode = "describe" | "rewrite" | "expand";
type Pending = { kind: "continue" } | { kind: "transform"; mode: Mode; start: number; end: number };

/** The editor SceneAssist works on (the co-writing editor): its selection and where results go. */
export type AssistTarget = {
  /** The selected text and its range in the editor. */
  selection: () => { text: string; from: number; to: number };
  replace: (from: number, to: number, text: string) => void;
  insertBelow: (at: number, text: string) => void;
  append: (text: string) => void;
};

const MODE_LABEL: Record<Mode, string> = { describe: "Describe", rewrite: "Rewrite", expand: "Expand" };

/**
 * The event editor's AI help, loaded lazily by event-card.tsx: 'Continue this scene'
 * (POST /api/events/{id}/continue, story-aware on the server) and Describe / Rewrite / Expand on the
 * text selected in the content field (POST /api/writing/transform). Answers stream in with 'Stop
 * generating'; nothing changes the content until the writer accepts it, and the writer still saves.
 */
export function SceneAssist({
  eventId,
  contentId,
  target,
}: {
  eventId: number;
  /** The content editor's id (the tone picker's id derives from it). */
  contentId: string;
  /** The editor: its selection is what Describe / Rewrite / Expand work on; results go in through it. */
  target: AssistTarget;
}) {
  const { shareCode } = useParams();
  const query = shareCode ? { share: shareCode } : undefined;
  const [tone, setTone] = useState<(typeof TRANSFORM_TONES)[number]>("Darker");
  const [pending, setPending] = useState<Pending | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const ai = useAiStream((error) => aiStreamErrorToast(error, "AI help failed"));

  async function continueScene() {
    setResult(null);
    setPending({ kind: "continue" });
    const done = await ai.run(`/events/${eventId}/continue`, {}, query);
    if (done) setResult(done.result);
  }

  async function transform(mode: Mode) {
    const { text, from: start, to: end } = target.selection();
    if (!text.trim()) return errorToast("Select some text in the content first");
    if (text.length > 5000) return errorToast("Please keep the selection under 5000 characters");
    setResult(null);
    setPending({ kind: "transform", mode, start, end });
    const done = await ai.run("/writing/transform", { mode, text, eventId, ...(mode === "rewrite" ? { tone } : {}) }, query);
    if (done) setResult(done.result);
  }

  const suggestion = result ?? ai.text;
  const discard = () => {
    ai.stop();
    ai.setText("");
    setResult(null);
    setPending(null);
  };
  const accept = () => {
    const text = suggestion.trim();
    if (!pending || !text) return;
    if (pending.kind === "continue") target.append(text);
    else target.replace(pending.start, pending.end, text);
    discard();
  };
  const insertBelow = () => {
    if (pending?.kind !== "transform" || !suggestion.trim()) return;
    target.insertBelow(pending.end, suggestion.trim());
    discard();
  };
  const busy = ai.streaming;
  const offline = useOfflineLock("text-xs");
  const heading = pending?.kind === "transform" ? `${MODE_LABEL[pending.mode]} suggestion` : "Continuation";

  return (
    <div className="space-y-2 rounded-md border border-stone-200 bg-stone-50 p-2">
      {/* Three groups that wrap whole (a phone shows one per row), never a label left apart from its buttons. */}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" size="sm" variant="outline" onClick={continueScene} disabled={busy} {...offline.lock}>
          <Sparkles aria-hidden="true" className="h-4 w-4" /> Continue this scene
        </Button>
        <div className="flex items-center gap-1">
          <span className="text-xs whitespace-nowrap text-stone-500">On selected text:</span>
          <Button type="button" size="sm" variant="ghost" onClick={() => transform("describe")} disabled={busy} {...offline.lock}>
            Describe
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => transform("expand")} disabled={busy} {...offline.lock}>
            Expand
          </Button>
        </div>
        <div className="flex items-center gap-1">
          <Label htmlFor={`${contentId}-tone`} className="text-xs">
            Tone
          </Label>
          <select
            id={`${contentId}-tone`}
            value={tone}
            onChange={(e) => setTone(e.target.value as typeof tone)}
            className="h-8 rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            {TRANSFORM_TONES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <Button type="button" size="sm" variant="ghost" onClick={() => transform("rewrite")} disabled={busy} {...offline.lock}>
            <PenLine aria-hidden="true" className="h-4 w-4" /> Rewrite
          </Button>
        </div>
        {offline.note}
      </div>
      {pending && (busy || suggestion) ? (
        <section aria-label={heading} className="space-y-2 rounded-md border border-brand-200 bg-white p-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-stone-600">{heading}</h3>
          <div aria-live="polite" data-testid="scene-assist-text">
            <AiText text={suggestion} />
          </div>
          {ai.stopped ? <p className="text-xs text-stone-500">{ai.stoppedNote}</p> : null}
          <div className="flex flex-wrap gap-2">
            {busy ? (
              <Button type="button" size="sm" variant="outline" onClick={ai.stop}>
                <Square aria-hidden="true" className="h-4 w-4" /> Stop generating
              </Button>
            ) : pending.kind === "continue" ? (
              <Button type="button" size="sm" onClick={accept} disabled={!suggestion.trim()}>
                <Check aria-hidden="true" className="h-4 w-4" /> Accept
              </Button>
            ) : (
              <>
                <Button type="button" size="sm" onClick={accept} disabled={!suggestion.trim()}>
                  <Replace aria-hidden="true" className="h-4 w-4" /> Replace selection
                </Button>
                <Button type="button" size="sm" variant="outline" onClick={insertBelow} disabled={!suggestion.trim()}>
                  <CornerDownLeft aria-hidden="true" className="h-4 w-4" /> Insert below
                </Button>
              </>
            )}
            <Button type="button" size="sm" variant="ghost" onClick={discard}>
              <X aria-hidden="true" className="h-4 w-4" /> Discard
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
