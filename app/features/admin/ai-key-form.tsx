import { CheckCircle2, KeyRound, XCircle } from "lucide-react";
import { KeyForm } from "~/features/admin/key-form";
import { Badge } from "~/ui/badge";
import { client, unwrap } from "~/lib/client";

const loadStatus = () => unwrap(client.api.config["openai-status"].$get());
const save = ({ apiKey }: { apiKey: string }) => unwrap(client.api.config["openai-key"].$post({ json: { apiKey } }));

/** The admin's OpenAI key form (used on /admin/config and /admin). The key is never shown back. */
export function AiKeyForm() {
  return (
    <KeyForm
      loadStatus={loadStatus}
      loadFailed="Failed to load the AI configuration"
      renderStatus={(status) => (
        <>
          {status.configured ? (
            <Badge variant="success">
              <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" /> Configured
            </Badge>
          ) : (
            <Badge variant="destructive">
              <XCircle aria-hidden="true" className="h-3.5 w-3.5" /> Not configured
            </Badge>
          )}
          {status.configured ? (
            <span className="text-stone-600">
              {status.source === "environment" ? "from the OPENAI_API_KEY secret (takes precedence)" : "key saved by an admin"} · model{" "}
              {status.model}
            </span>
          ) : null}
        </>
      )}
      fields={[
        {
          name: "apiKey",
          id: "openai-key",
          label: "OpenAI API Key",
          placeholder: "sk-...",
          secret: true,
          required: true,
          hint: "Stored encrypted on the server and never shown again. Saving replaces the current key.",
        },
      ]}
      missing="Please enter an API key"
      save={save}
      saved="OpenAI API key configured successfully"
      saveFailed="Failed to configure API key"
      submitLabel="Save API Key"
      icon={KeyRound}
    />
  );
}
