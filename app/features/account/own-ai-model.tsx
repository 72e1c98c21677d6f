import { type FormEvent, useEffect, useState } from "react";
import { Button } from "~/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";
import { Field, Label } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, errorMessage, unwrap } from "~/lib/client";

type Provider = "openai" | "openai-compatible" | "anthropic";
type Saved = { provider: Provider | null; baseUrl: string | null; model: string | null; keySet: boolean };

const PROVIDERS: { value: Provider; label: string; model: string }[] = [
  { value: "openai", label: "OpenAI", model: "gpt-4o-mini" },
  { value: "openai-compatible", label: "OpenAI-compatible (OpenRouter, a local model…)", model: "" },
  { value: "anthropic", label: "Anthropic", model: "claude-sonnet-4-5" },
];

/**
 * 'Your AI model' on /account: bring your own provider, model and key (PUT /api/account/ai). The key is
 * write-only: the server says only whether one is set. Requests with it are not counted against the allowance.
 */
export function OwnAiModelCard() {
  const [saved, setSaved] = useState<Saved | null>(null);
  const [provider, setProvider] = useState<Provider>("openai");
  const [baseUrl, setBaseUrl] = useState("");
  const [model, setModel] = useState("gpt-4o-mini");
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);

  const show = (s: Saved) => {
    setSaved(s);
    if (s.provider) {
      setProvider(s.provider);
      setBaseUrl(s.baseUrl ?? "");
      setModel(s.model ?? "");
    }
  };
  useEffect(() => {
    let live = true;
    unwrap(client.api.account.ai.$get())
      .then((s) => {
        if (!live) return;
        const found = s as Saved;
        setSaved(found);
        if (found.provider) {
          setProvider(found.provider);
          setBaseUrl(found.baseUrl ?? "");
          setModel(found.model ?? "");
        }
      })
      .catch(() => live && setSaved({ provider: null, baseUrl: null, model: null, keySet: false }));
    return () => {
      live = false;
    };
  }, []);

  const save = useMutation(
    () =>
      unwrap(
        client.api.account.ai.$put({
          json: { provider, baseUrl: baseUrl.trim() || undefined, model: model.trim(), apiKey: apiKey.trim() },
        }),
      ),
    {
      revalidate: false,
      success: { title: "Your AI model is saved", description: "Your AI requests now use it and are not counted." },
      error: (e) => setError(errorMessage(e, "Could not save your AI model")),
      onSuccess: (s) => {
        show(s as Saved);
        setApiKey("");
      },
    },
  );
  const remove = useMutation(() => unwrap(client.api.account.ai.$delete()), {
    revalidate: false,
    success: { title: "Your AI model is removed", description: "Your AI requests use the site's model again." },
    error: (e) => setError(errorMessage(e, "Could not remove your AI model")),
    onSuccess: (s) => {
      setSaved(s as Saved);
      setApiKey("");
      setTested(null);
    },
  });
  const test = useMutation(() => unwrap(client.api.account.ai.test.$post()), {
    revalidate: false,
    error: (e) => setTested({ ok: false, text: errorMessage(e, "The test could not run") }),
    onSuccess: (r) => setTested(r.success ? { ok: true, text: "Connected: your model answered." } : { ok: false, text: r.error }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setTested(null);
    if (!model.trim()) return setError("Please enter a model name");
    if (!apiKey.trim()) return setError("Please enter an API key");
    if (provider === "openai-compatible" && !baseUrl.trim()) return setError("An OpenAI-compatible server needs its base URL");
    void save.run();
  };

  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Your AI model</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid max-w-md gap-3" noValidate aria-label="Your AI model">
          <p className="text-sm text-stone-600">
            Use your own AI provider and key. Requests with your key are not counted against the free allowance.{" "}
            {saved?.keySet ? "A key is saved; enter it again to change these settings." : "Until you set one, the site's model is used."}
          </p>
          <div className="space-y-1.5">
            <Label htmlFor="own-ai-provider">Provider</Label>
            <select
              id="own-ai-provider"
              className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
              value={provider}
              onChange={(e) => {
                const next = e.target.value as Provider;
                setProvider(next);
                setModel(PROVIDERS.find((p) => p.value === next)?.model ?? "");
              }}
            >
              {PROVIDERS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <Field
            id="own-ai-base-url"
            label={provider === "openai-compatible" ? "Base URL" : "Base URL (optional)"}
            placeholder={provider === "openai-compatible" ? "https://openrouter.ai/api/v1" : "The provider's own"}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
          <Field id="own-ai-model" label="Model" value={model} onChange={(e) => setModel(e.target.value)} />
          <Field
            id="own-ai-key"
            type="password"
            label="API key"
            autoComplete="off"
            placeholder={saved?.keySet ? "•••••••• (saved, never shown)" : ""}
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
          />
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          {tested ? (
            <p role="status" className={tested.ok ? "text-sm text-green-700" : "text-sm text-red-700"}>
              {tested.text}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.pending}>
              {save.pending ? "Saving..." : "Save"}
            </Button>
            <Button type="button" variant="outline" disabled={!saved?.keySet || test.pending} onClick={() => void test.run()}>
              {test.pending ? "Testing..." : "Test connection"}
            </Button>
            <Button type="button" variant="outline" disabled={!saved?.keySet || remove.pending} onClick={() => void remove.run()}>
              Remove
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
