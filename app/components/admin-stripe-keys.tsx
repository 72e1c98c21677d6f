import { CheckCircle2, CreditCard, XCircle } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { api, errorMessage } from "~/lib/api";
import { errorToast, showToast } from "~/lib/toast";

type Status = { configured: boolean; mode: "test" | "live" | null; source: "environment" | "admin" | null; webhookConfigured: boolean };

/** Payment provider keys (admin): both keys required, shown back only as status and mode. */
export function StripeKeysForm() {
  const [status, setStatus] = useState<Status | null>(null);
  const [secretKey, setSecretKey] = useState("");
  const [publishableKey, setPublishableKey] = useState("");
  const [webhookSecret, setWebhookSecret] = useState("");
  const [pending, setPending] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await api<Status>("/api/config/stripe-status"));
    } catch (error) {
      errorToast(errorMessage(error, "Failed to load the payment configuration"));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!secretKey.trim() || !publishableKey.trim()) return errorToast("Please enter both Stripe keys");
    setPending(true);
    try {
      await api("/api/config/stripe-keys", {
        method: "POST",
        body: { secretKey: secretKey.trim(), publishableKey: publishableKey.trim(), webhookSecret: webhookSecret.trim() || undefined },
      });
      setSecretKey("");
      setPublishableKey("");
      setWebhookSecret("");
      showToast({ title: "Success", description: "Stripe keys configured successfully" });
      await load();
    } catch (error) {
      errorToast(errorMessage(error, "Failed to configure Stripe keys"));
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
          <>
            <Badge variant="success">
              <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" /> Payments configured
            </Badge>
            <Badge variant="outline">{status.mode === "live" ? "Live mode" : "Test mode"}</Badge>
            <span className="text-stone-600">{status.webhookConfigured ? "webhook secret set" : "no webhook secret yet"}</span>
          </>
        ) : (
          <Badge variant="destructive">
            <XCircle aria-hidden="true" className="h-3.5 w-3.5" /> Payments not configured
          </Badge>
        )}
      </div>
      <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="stripe-secret">Secret key</Label>
          <Input id="stripe-secret" type="password" autoComplete="off" value={secretKey} onChange={(e) => setSecretKey(e.target.value)} placeholder="sk_test_..." />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="stripe-publishable">Publishable key</Label>
          <Input id="stripe-publishable" autoComplete="off" value={publishableKey} onChange={(e) => setPublishableKey(e.target.value)} placeholder="pk_test_..." />
        </div>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor="stripe-webhook">Webhook signing secret (optional)</Label>
          <Input id="stripe-webhook" type="password" autoComplete="off" value={webhookSecret} onChange={(e) => setWebhookSecret(e.target.value)} placeholder="whsec_..." />
          <p className="text-xs text-stone-600">Point a Stripe webhook at /api/subscription/webhook. Keys are stored encrypted and never shown again.</p>
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending}>
            <CreditCard aria-hidden="true" className="h-4 w-4" />
            {pending ? "Saving..." : "Save Stripe Keys"}
          </Button>
        </div>
      </form>
    </div>
  );
}
