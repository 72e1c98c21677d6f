import { useEffect, useId, useState } from "react";
import { type CodexApi, createEntityRequest } from "~/features/codex/codex-request";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { Input, Label, Textarea } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, shareParam, unwrap } from "~/lib/client";
import { defaultEntityColor, type EntityKind, entityKinds } from "../../../db/domain/rules";
import type { EntityView } from "../../../worker/services/entities";

const kindNames: Record<EntityKind, string> = { character: "Character", place: "Place", thing: "Thing" };

type DialogProps = CodexApi & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entity: EntityView | null;
  onSaved: (entity: EntityView, created: boolean) => void;
};

/** 'New codex entry' and 'Edit codex entry' share one form; the server's messages come back as toasts. */
export function EntityDialog({ open, onOpenChange, entity, onSaved, ...api }: DialogProps) {
  const id = useId();
  const [kind, setKind] = useState<EntityKind>("character");
  const [name, setName] = useState("");
  const [aliases, setAliases] = useState("");
  const [description, setDescription] = useState("");
  const [color, setColor] = useState(defaultEntityColor.character);
  const [colorTouched, setColorTouched] = useState(false);
  const [born, setBorn] = useState("");
  const [died, setDied] = useState("");

  useEffect(() => {
    if (!open) return;
    setKind(entity?.kind ?? "character");
    setName(entity?.name ?? "");
    setAliases(entity?.aliases.join(", ") ?? "");
    setDescription(entity?.description ?? "");
    setColor(entity?.color ?? defaultEntityColor.character);
    setColorTouched(Boolean(entity));
    setBorn(entity?.born ?? "");
    setDied(entity?.died ?? "");
  }, [open, entity]);

  const save = useMutation(
    (fields: {
      kind: EntityKind;
      name: string;
      aliases: string[];
      description: string;
      color: string;
      born?: string | null;
      died?: string | null;
    }) =>
      entity
        ? unwrap(
            client.api.entities[":id"].$patch(
              { param: { id: String(entity.id) }, query: shareParam(api.shareCode), json: fields },
              { headers: api.roomHeaders },
            ),
          )
        : createEntityRequest(api, fields),
    {
      success: { title: "Success", description: entity ? "Codex entry updated" : "Codex entry created" },
      error: entity ? "Failed to update codex entry" : "Failed to create codex entry",
      // An edited name or color shows on the event cards at once; the codex is local state.
      revalidate: false,
      onSuccess: (saved) => {
        onSaved(saved, !entity);
        onOpenChange(false);
      },
    },
  );

  function submit(e: React.FormEvent) {
    e.preventDefault();
    void save.run({
      kind,
      name,
      aliases: aliases
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
      description,
      color,
      // A lifespan is a character's; other kinds keep what they had.
      ...(kind === "character" && { born: born.trim() || null, died: died.trim() || null }),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={entity ? "Edit codex entry" : "New codex entry"}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-kind`}>Kind</Label>
          <select
            id={`${id}-kind`}
            value={kind}
            onChange={(e) => {
              const next = e.target.value as EntityKind;
              setKind(next);
              if (!colorTouched) setColor(defaultEntityColor[next]);
            }}
            className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
          >
            {entityKinds.map((k) => (
              <option key={k} value={k}>
                {kindNames[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-aliases`}>Aliases</Label>
          <Input
            id={`${id}-aliases`}
            value={aliases}
            onChange={(e) => setAliases(e.target.value)}
            placeholder="Comma-separated, e.g. The Captain, Mar"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-description`}>Description</Label>
          <Textarea id={`${id}-description`} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        {kind === "character" ? (
          <div className="grid grid-cols-2 gap-3">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-born`}>Born</Label>
              <Input
                id={`${id}-born`}
                value={born}
                onChange={(e) => setBorn(e.target.value)}
                placeholder="e.g. 10 May 2014"
                maxLength={100}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-died`}>Died</Label>
              <Input
                id={`${id}-died`}
                value={died}
                onChange={(e) => setDied(e.target.value)}
                placeholder="Leave empty if alive"
                maxLength={100}
              />
            </div>
          </div>
        ) : null}
        <div className="flex items-center gap-3">
          <Label htmlFor={`${id}-color`}>Color</Label>
          <input
            id={`${id}-color`}
            type="color"
            value={color}
            onChange={(e) => {
              setColor(e.target.value);
              setColorTouched(true);
            }}
            className="h-9 w-14 cursor-pointer rounded border border-stone-300 bg-white p-0.5"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={save.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.pending}>
            {save.pending ? "Saving..." : entity ? "Save Changes" : "Create Entry"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
