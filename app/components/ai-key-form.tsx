import { CheckCircle2, KeyRound, XCircle } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { api, errorMessage } from "~/lib/api";
import { errorToast, showToast } from "~/lib/toast";

type Status = { configured: boolean; source: "environment" | "admin" | null; model: string };

/** The admin's OpenAI key form (used on /admin/config and /admin). The key is never shown back. */
export function AiKeyForm() {
  const [status, setStatus] = useState<Status | null>(null);
  const [apiKey, setApiKey] = useState("");
  const [pending, setPending] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await api<Status>("/api/config/openai-status"));
    } catch (error) {
      errorToast(errorMessage(error, "Failed to load the AI configuration"));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!apiKey.trim()) return errorToast("Please enter an API key");
    setPending(true);
    try {
      await api("/api/config/openai-key", { method: "POST", body: { apiKey: apiKey.trim() } });
      setApiKey("");
      showToast({ title: "Success", description: "OpenAI API key configured successfully" });
      await load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to configure API key"));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
        <span className="font-medium">Status:</span>
        {status === null ? (
          <span className="text-stone-500">Checking…</span>
        ) : status.configured ? (
          <Badge variant="success">
            <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" /> Configured
          </Badge>
        ) : (
          <Badge variant="destructive">
            <XCircle aria-hidden="true" className="h-3.5 w-3.5" /> Not configured
          </Badge>
        )}
        {status?.configured ? (
          <span className="text-stone-600">
            {status.source === "environment" ? "from the OPENAI_API_KEY secret (takes precedence)" : "key saved by an admin"} · model {status.model}
          </span>
        ) : null}
      </div>
      <form onSubmit={submit} noValidate className="space-y-3">
        <div className="space-y-1.5">
          <Label htmlFor="openai-key">OpenAI API Key</Label>
          <Input
            id="openai-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            placeholder="sk-..."
          />
          <p className="text-xs text-stone-600">Stored encrypted on the server and never shown again. Saving replaces the current key.</p>
        </div>
        <Button type="submit" disabled={pending}>
          <KeyRound aria-hidden="true" className="h-4 w-4" />
          {pending ? "Saving..." : "Save API Key"}
        </Button>
      </form>
    </div>
  );
}
