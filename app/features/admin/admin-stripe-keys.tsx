import { CheckCircle2, CreditCard, XCircle } from "lucide-react";
import { KeyForm } from "~/features/admin/key-form";
import { Badge } from "~/ui/badge";
import { client, unwrap } from "~/lib/client";

const loadStatus = () => unwrap(client.api.config["stripe-status"].$get());
const save = ({ secretKey, publishableKey, webhookSecret }: Record<"secretKey" | "publishableKey" | "webhookSecret", string>) =>
  unwrap(client.api.config["stripe-keys"].$post({ json: { secretKey, publishableKey, webhookSecret: webhookSecret || undefined } }));

/** Payment provider keys (admin): both keys required, shown back only as status and mode. */
export function StripeKeysForm() {
  return (
    <KeyForm
      loadStatus={loadStatus}
      loadFailed="Failed to load the payment configuration"
      renderStatus={(status) =>
        status.configured ? (
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
        )
      }
      fields={[
        { name: "secretKey", id: "stripe-secret", label: "Secret key", placeholder: "sk_test_...", secret: true, required: true },
        { name: "publishableKey", id: "stripe-publishable", label: "Publishable key", placeholder: "pk_test_...", required: true },
        {
          name: "webhookSecret",
          id: "stripe-webhook",
          label: "Webhook signing secret (optional)",
          placeholder: "whsec_...",
          secret: true,
          wide: true,
          hint: "Point a Stripe webhook at /api/subscription/webhook. Keys are stored encrypted and never shown again.",
        },
      ]}
      missing="Please enter both Stripe keys"
      save={save}
      saved="Stripe keys configured successfully"
      saveFailed="Failed to configure Stripe keys"
      submitLabel="Save Stripe Keys"
      icon={CreditCard}
      layout="grid"
    />
  );
}
