import { useEffect, useId, useRef, useState } from "react";
import { loadCalendar } from "~/features/calendar/calendar-cache";
import { changedDate, DateField } from "~/features/calendar/date-field";
import type { CodexApi } from "~/features/codex/codex-request";
import { type EntityFields, useCodexActions } from "~/features/codex/codex-queries";
import { ProgressionsSection, type SceneOption } from "~/features/codex/progressions";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { Input, Label, Textarea } from "~/ui/input";
import { type Calendar, storyDisplay } from "../../../db/domain/calendar";
import { defaultEntityColor, type EntityKind, entityKinds, nextEntityColor } from "../../../db/domain/rules";
import type { EntityView } from "../../../worker/services/entities";

const kindNames: Record<EntityKind, string> = { character: "Character", place: "Place", thing: "Thing" };

type DialogProps = CodexApi & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entity: EntityView | null;
  /** The colours the codex's entries have: a new entry is offered one none of them has. */
  usedColors: string[];
  /** The timeline's scenes in story order: an existing entry's 'From this scene on' picks from them. */
  scenes?: SceneOption[];
};

/** 'New codex entry' and 'Edit codex entry' share one form; the server's messages come back as toasts. */
export function EntityDialog({ open, onOpenChange, entity, usedColors, scenes, ...api }: DialogProps) {
  const id = useId();
  const [kind, setKind] = useState<EntityKind>("character");
  const [name, setName] = useState("");
  const [aliases, setAliases] = useState("");
  const [description, setDescription] = useState("");
  const [color, setColor] = useState(defaultEntityColor.character);
  const [colorTouched, setColorTouched] = useState(false);
  const [born, setBorn] = useState("");
  const [died, setDied] = useState("");
  // Born and died as the form first showed them: in words once the calendar is here, else as stored.
  const [shown, setShown] = useState({ born: "", died: "" });
  const [calendar, setCalendar] = useState<Calendar | null>(null);
  const { timelineId, shareCode } = api;
  // Read when the dialog opens (a new list each render must not reset the form).
  const used = useRef(usedColors);
  used.current = usedColors;

  useEffect(() => {
    if (!open) return;
    setKind(entity?.kind ?? "character");
    setName(entity?.name ?? "");
    setAliases(entity?.aliases.join(", ") ?? "");
    setDescription(entity?.description ?? "");
    setColor(entity?.color ?? nextEntityColor("character", used.current));
    setColorTouched(Boolean(entity));
    const stored = { born: entity?.born ?? "", died: entity?.died ?? "" };
    setBorn(stored.born);
    setDied(stored.died);
    setShown(stored);
    // Read in the calendar of the book the entry was created in, as the server reads them.
    let live = true;
    void loadCalendar(entity?.timelineId ?? timelineId, shareCode).then((cal) => {
      if (!live) return;
      setCalendar(cal);
      if (!cal) return;
      const words = { born: storyDisplay(cal, stored.born) ?? "", died: storyDisplay(cal, stored.died) ?? "" };
      // Unless the writer has typed meanwhile.
      setBorn((now) => (now === stored.born ? words.born : now));
      setDied((now) => (now === stored.died ? words.died : now));
      setShown(words);
    });
    return () => {
      live = false;
    };
  }, [open, entity, timelineId, shareCode]);

  // The codex's changes (codex-queries.ts): their toasts, and the list updated, are the data layer's.
  const actions = useCodexActions();
  // Not queued with no network: Save says 'You're offline' (what was typed stays in the form).
  const { offline, lock, note } = useOfflineLock();
  const [pending, setPending] = useState(false);
  const save = {
    pending,
    run: async (fields: EntityFields) => {
      setPending(true);
      const saved = await (entity ? actions.update(entity.id, fields) : actions.create(fields));
      setPending(false);
      if (saved) onOpenChange(false);
    },
  };

  function lifespanChanges() {
    const changes = { born: changedDate(shown.born, born), died: changedDate(shown.died, died) };
    return { ...(changes.born !== undefined && { born: changes.born }), ...(changes.died !== undefined && { died: changes.died }) };
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (offline) return;
    void save.run({
      kind,
      name,
      aliases: aliases
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
      description,
      color,
      // A lifespan is a character's; other kinds keep what they had. Only changed dates are sent: one shown in
      // words is the same date, and is not read again.
      ...(kind === "character" && lifespanChanges()),
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
              if (!colorTouched) setColor(nextEntityColor(next, usedColors));
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
          <div className="grid gap-3 sm:grid-cols-2">
            <DateField id={`${id}-born`} label="Born" field="Born" calendar={calendar} value={born} onChange={setBorn} />
            <DateField
              id={`${id}-died`}
              label="Died"
              field="Died"
              calendar={calendar}
              value={died}
              onChange={setDied}
              placeholder="Leave empty if alive"
              nearby={() => [born]}
            />
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
        <div className="flex items-center justify-end gap-2">
          {note}
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={save.pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.pending} {...lock}>
            {save.pending ? "Saving..." : entity ? "Save Changes" : "Create Entry"}
          </Button>
        </div>
      </form>
      {entity && scenes ? <ProgressionsSection {...api} entityId={entity.id} scenes={scenes} canEdit /> : null}
    </Dialog>
  );
}
