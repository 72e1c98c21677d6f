import { Copy, Crown, Eraser, Lightbulb, Sparkles, Square, UserRound, Wand2 } from "lucide-react";
import { Tabs } from "radix-ui";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { OnlineOnlyLink, OnlineOnlyTextLink, useOfflineLock } from "~/features/offline/offline-lock";
import { LazyFormattedText } from "~/ui/lazy-formatted-text";
import { Page, PageHeading } from "~/ui/page";
import { type EditableTimeline, SaveToCodex } from "~/features/codex/save-to-codex";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Input, Label, Textarea } from "~/ui/input";
import { type AiUsage, FREE_AI_USES, aiStreamErrorToast, copyText } from "~/features/assistant/ai";
import { useAiStream } from "~/features/assistant/ai-stream";
import { ApiError, client, unwrap } from "~/lib/client";
import { app, requireUser } from "~/lib/session.server";
import { errorToast, showToast } from "~/lib/toast";
import { aiStatus, usageFor } from "../../worker/services/ai";
import { listTimelines } from "../../worker/services/timelines";
import type { Route } from "./+types/writers-unblock";

export const meta = () => [{ title: "Writer's Unblock · StoryWeave" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, env } = app(context);
  const [{ configured }, timelines, usage] = await Promise.all([aiStatus(db, env), listTimelines(db, user), usageFor(db, user)]);
  // Where a generated character can be saved: timelines this writer may edit.
  const editable: EditableTimeline[] = timelines.filter((t) => t.accessLevel !== "viewer").map(({ id, title }) => ({ id, title }));
  return { usage, configured, isAdmin: user.role === "admin", editable };
}

type ToolKey = "ideas" | "enhance" | "character";

/** The streamed request for a tool: path and body. */
function toolRequest(tool: ToolKey, value: string, instruction: string): [string, unknown] {
  if (tool === "ideas") return ["/ideas/generate", { prompt: value }];
  if (tool === "enhance") return ["/writing/enhance", { text: value, instruction: instruction || "Enhance this text" }];
  return ["/writing/character", { description: value }];
}

const tools: Record<
  ToolKey,
  { label: string; icon: typeof Lightbulb; action: string; pending: string; success: string; failed: string; thrown: string; hint: string }
> = {
  ideas: {
    label: "Story Ideas",
    icon: Lightbulb,
    action: "Generate Idea",
    pending: "Generating...",
    success: "Writing idea generated!",
    failed: "Failed to generate idea",
    thrown: "Idea generation failed",
    hint: "Describe a scene, a theme or where you're stuck, and a story idea will appear here.",
  },
  enhance: {
    label: "Enhance Text",
    icon: Wand2,
    action: "Enhance Text",
    pending: "Enhancing...",
    success: "Text enhanced successfully!",
    failed: "Failed to enhance text",
    thrown: "Enhancement failed",
    hint: "Paste a passage and say how to improve it; the revised text will appear here.",
  },
  character: {
    label: "Character Profiles",
    icon: UserRound,
    action: "Generate Character",
    pending: "Generating...",
    success: "Character profile generated!",
    failed: "Failed to generate character",
    thrown: "Character generation failed",
    hint: "Describe a character in a sentence or two; a full profile will appear here.",
  },
};

export default function WritersUnblock({ loaderData }: Route.ComponentProps) {
  const [usage, setUsage] = useState<AiUsage>(loaderData.usage);
  const atLimit = !usage.premium && usage.used >= FREE_AI_USES;

  return (
    <Page>
      <PageHeading
        actions={
          usage.premium ? (
            <Badge variant="success">
              <Crown aria-hidden="true" className="h-3.5 w-3.5" /> Premium User
            </Badge>
          ) : (
            <>
              <Badge variant="secondary">
                {usage.used}/{FREE_AI_USES} Free Uses
              </Badge>
              <OnlineOnlyTextLink to="/upgrade" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
                Upgrade
              </OnlineOnlyTextLink>
            </>
          )
        }
      >
        Writer's Unblock
      </PageHeading>
      <p className="-mt-4 mb-6 text-stone-600">Stuck? Get a story idea, polish a passage, or meet a new character.</p>

      {!loaderData.configured ? (
        <div role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-semibold">The AI assistant isn't set up yet.</p>
          <p className="mt-1">
            An admin needs to add an OpenAI API key
            {loaderData.isAdmin ? (
              <>
                {" "}
                in{" "}
                <Link to="/admin/config" className="font-medium underline">
                  OpenAI Configuration
                </Link>
              </>
            ) : null}
            . Until then these tools can't generate anything.
          </p>
        </div>
      ) : null}

      {atLimit ? (
        <div
          role="alert"
          className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-brand-200 bg-brand-50 p-4"
        >
          <div>
            <p className="font-semibold text-brand-800">Free limit reached!</p>
            <p className="text-sm text-brand-800">Upgrade to Premium for unlimited AI writing assistance</p>
          </div>
          <OnlineOnlyLink to="/upgrade">
            <Sparkles aria-hidden="true" className="h-4 w-4" /> Upgrade Now
          </OnlineOnlyLink>
        </div>
      ) : null}

      <Tabs.Root defaultValue="ideas">
        <Tabs.List aria-label="Writing tools" className="mb-6 flex flex-wrap gap-1 rounded-lg bg-stone-100 p-1 sm:inline-flex">
          {(Object.keys(tools) as ToolKey[]).map((key) => {
            const Icon = tools[key].icon;
            return (
              <Tabs.Trigger
                key={key}
                value={key}
                className="inline-flex items-center gap-2 rounded-md px-4 py-2 text-sm font-medium text-stone-700 data-[state=active]:bg-white data-[state=active]:text-ink data-[state=active]:shadow-sm"
              >
                <Icon aria-hidden="true" className="h-4 w-4" /> {tools[key].label}
              </Tabs.Trigger>
            );
          })}
        </Tabs.List>
        {(Object.keys(tools) as ToolKey[]).map((key) => (
          <Tabs.Content key={key} value={key} forceMount className="data-[state=inactive]:hidden">
            <Tool tool={key} disabled={atLimit} onUsage={setUsage} editable={loaderData.editable} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Page>
  );
}

function Tool({
  tool,
  disabled,
  onUsage,
  editable,
}: {
  tool: ToolKey;
  disabled: boolean;
  onUsage: (u: AiUsage) => void;
  editable: EditableTimeline[];
}) {
  const t = tools[tool];
  const [input, setInput] = useState("");
  const [instruction, setInstruction] = useState("");
  const offline = useOfflineLock("self-center");
  const inputId = `${tool}-input`;
  const ai = useAiStream((error) => {
    // At the limit the server also says where the count stands.
    if (error instanceof ApiError && error.body?.usage) onUsage(error.body.usage);
    aiStreamErrorToast(error, t.thrown);
  });
  const result = ai.text;
  const setResult = ai.setText;
  const pending = ai.streaming;
  // A stop after text arrived kept its use on the server: show the count as it now stands.
  const stoppedWithText = ai.stopped && Boolean(ai.text.trim());
  useEffect(() => {
    if (!stoppedWithText) return;
    unwrap(client.api.ai.usage.$get())
      .then(onUsage)
      .catch(() => {});
  }, [stoppedWithText, onUsage]);
  const generate = {
    run: async (value: string) => {
      const done = await ai.run(...toolRequest(tool, value, instruction.trim()));
      if (!done) return;
      ai.setText(done.result);
      if (done.usage) onUsage(done.usage);
      showToast({ title: t.success });
    },
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const value = input.trim();
    if (!value) {
      return errorToast(
        tool === "ideas"
          ? "Please enter a writing prompt"
          : tool === "enhance"
            ? "Please enter text to enhance"
            : "Please enter a character description",
      );
    }
    await generate.run(value);
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="p-5">
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={inputId}>
              {tool === "ideas" ? "Writing prompt" : tool === "enhance" ? "Text to enhance" : "Character description"}
            </Label>
            <Textarea
              id={inputId}
              value={input}
              onChange={(e) => setInput(e.target.value)}
              maxLength={4000}
              className="min-h-40"
              placeholder={
                tool === "ideas"
                  ? "e.g. A lighthouse keeper finds a letter addressed to someone who drowned years ago"
                  : tool === "enhance"
                    ? "Paste a paragraph of your draft"
                    : "e.g. A retired smuggler who now runs the village bakery"
              }
            />
          </div>
          {tool === "enhance" ? (
            <div className="space-y-1.5">
              <Label htmlFor="enhance-instruction">Instruction (optional)</Label>
              <Input
                id="enhance-instruction"
                value={instruction}
                onChange={(e) => setInstruction(e.target.value)}
                maxLength={500}
                placeholder="Enhance this text"
              />
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={pending || disabled} {...offline.lock}>
              <t.icon aria-hidden="true" className="h-4 w-4" />
              {pending ? t.pending : t.action}
            </Button>
            {offline.note}
            {pending ? (
              <Button type="button" variant="outline" onClick={ai.stop}>
                <Square aria-hidden="true" className="h-4 w-4" /> Stop generating
              </Button>
            ) : null}
          </div>
        </form>
      </Card>
      <Card className="flex min-h-64 flex-col p-5">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="font-semibold">Result</h2>
          <div className="flex flex-wrap justify-end gap-1">
            {tool === "character" ? <SaveToCodex profile={result} timelines={editable} /> : null}
            <Button variant="ghost" size="sm" onClick={() => copyText(result)} disabled={!result} aria-label={`Copy ${t.label} result`}>
              <Copy aria-hidden="true" className="h-4 w-4" /> Copy
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setResult("")} disabled={!result} aria-label={`Clear ${t.label} result`}>
              <Eraser aria-hidden="true" className="h-4 w-4" /> Clear
            </Button>
          </div>
        </div>
        <div aria-live="polite" data-testid={`${tool}-result`} className="flex-1">
          {result ? (
            <LazyFormattedText text={result} headingLevel={3} className="text-sm leading-relaxed text-stone-800" />
          ) : (
            <p className="text-sm text-stone-500">{t.hint}</p>
          )}
          {ai.stopped ? <p className="mt-2 text-xs text-stone-500">{ai.stoppedNote}</p> : null}
        </div>
      </Card>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
