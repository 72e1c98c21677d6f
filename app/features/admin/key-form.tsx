import type { LucideIcon } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Input, Label } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { errorMessage } from "~/lib/client";
import { cn } from "~/lib/cn";
import { errorToast } from "~/lib/toast";

export type KeyField<Name extends string> = {
  name: Name;
  id: string;
  label: string;
  placeholder: string;
  /** Secrets are typed blind. */
  secret?: boolean;
  /** Must be filled before saving (the `missing` toast otherwise). */
  required?: boolean;
  hint?: ReactNode;
  /** Spans both columns of the grid layout. */
  wide?: boolean;
};

type KeyFormProps<Status, Name extends string> = {
  loadStatus: () => Promise<Status>;
  /** 'Error' toast when the status cannot be read. */
  loadFailed: string;
  renderStatus: (status: Status) => ReactNode;
  fields: KeyField<Name>[];
  /** 'Error' toast when a required field is empty. */
  missing: string;
  /** Receives the trimmed values. */
  save: (values: Record<Name, string>) => Promise<unknown>;
  saved: string;
  saveFailed: string;
  submitLabel: string;
  icon: LucideIcon;
  layout?: "stack" | "grid";
};

/**
 * An admin's secret keys (OpenAI, payments): the current status, the fields, save. Keys are never
 * shown back; after saving the fields are cleared and the status read again.
 */
export function KeyForm<Status, Name extends string>(props: KeyFormProps<Status, Name>) {
  const { loadStatus, loadFailed, fields, layout = "stack" } = props;
  const empty = () => Object.fromEntries(fields.map((f) => [f.name, ""])) as Record<Name, string>;
  const [status, setStatus] = useState<Status | null>(null);
  const [values, setValues] = useState<Record<Name, string>>(empty);

  const load = useCallback(async () => {
    try {
      setStatus(await loadStatus());
    } catch (error) {
      errorToast(errorMessage(error, loadFailed));
    }
  }, [loadStatus, loadFailed]);
  useEffect(() => {
    void load();
  }, [load]);

  const offline = useOfflineLock();
  const saveKeys = useMutation(async (trimmed: Record<Name, string>) => props.save(trimmed), {
    success: { title: "Success", description: props.saved },
    error: props.saveFailed,
    revalidate: false,
    onSuccess: () => {
      setValues(empty());
      void load();
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const trimmed = Object.fromEntries(fields.map((f) => [f.name, values[f.name].trim()])) as Record<Name, string>;
    if (fields.some((f) => f.required && !trimmed[f.name])) return errorToast(props.missing);
    void saveKeys.run(trimmed);
  }

  const grid = layout === "grid";
  const Icon = props.icon;
  const button = (
    <span className="flex flex-wrap items-center gap-2">
      <Button type="submit" disabled={saveKeys.pending} {...offline.lock}>
        <Icon aria-hidden="true" className="h-4 w-4" />
        {saveKeys.pending ? "Saving..." : props.submitLabel}
      </Button>
      {offline.note}
    </span>
  );
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
        <span className="font-medium">Status:</span>
        {status === null ? <span className="text-stone-500">Checking…</span> : props.renderStatus(status)}
      </div>
      <form onSubmit={submit} noValidate className={grid ? "grid gap-3 sm:grid-cols-2" : "space-y-3"}>
        {fields.map((f) => (
          <div key={f.name} className={cn("space-y-1.5", grid && f.wide && "sm:col-span-2")}>
            <Label htmlFor={f.id}>{f.label}</Label>
            <Input
              id={f.id}
              type={f.secret ? "password" : undefined}
              autoComplete="off"
              spellCheck={false}
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              placeholder={f.placeholder}
            />
            {f.hint ? <p className="text-xs text-stone-600">{f.hint}</p> : null}
          </div>
        ))}
        {grid ? <div className="sm:col-span-2">{button}</div> : button}
      </form>
    </div>
  );
}
