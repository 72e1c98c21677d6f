import { X } from "lucide-react";
import { useContext, useEffect, useId, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { AttachmentsContext } from "~/features/timeline/event-attachments";
import { loadCalendar } from "~/features/calendar/calendar-cache";
import { ColorDot, matchesEntity } from "~/features/codex/codex";
import { Input, Label } from "~/ui/input";
import { cn } from "~/lib/cn";
import { type Calendar, exampleDate, parseStoryText, dateInWords } from "../../../db/domain/calendar";
import { weekdayOf } from "../../../db/domain/calendar/weekday";
import { type EntityKind, entityKinds } from "../../../db/domain/rules";
import type { EntityView } from "../../../worker/services/entities";

// Edit mode's other half, in this chunk so the card's first paint loads nothing more for it.
export { closeInPlace } from "~/features/timeline/keep-in-place";

export type StoryFieldValues = {
  entityIds: number[];
  povEntityId: number | null;
  storyStart: string;
  storyEnd: string;
  storyLabel: string;
};

type Props = {
  idPrefix: string;
  value: StoryFieldValues;
  onChange: (value: StoryFieldValues) => void;
  entities: EntityView[];
  byId: Map<number, EntityView>;
  /** 'Create character "X"' from the picker: resolves to the new entity, or null when it failed (toast shown). */
  onCreateEntity?: (kind: EntityKind, name: string) => Promise<EntityView | null>;
  /** The timeline whose calendar reads the dates typed here. */
  timelineId: number;
};

/**
 * The dates to send: only those the writer changed (the form shows them in words, which the server would read
 * back as the same date but keep as what was typed).
 */
export function changedDates(shown: StoryFieldValues, now: StoryFieldValues): { storyStart?: string | null; storyEnd?: string | null } {
  const start = now.storyStart.trim();
  const end = now.storyEnd.trim();
  return {
    ...(start !== shown.storyStart.trim() && { storyStart: start || null }),
    ...(end !== shown.storyEnd.trim() && { storyEnd: end || null }),
  };
}

/** The event card's edit mode for links, POV and story time. */
export function StoryFields({ idPrefix, value, onChange, entities, byId, onCreateEntity, timelineId }: Props) {
  const shareCode = useContext(AttachmentsContext)?.shareCode;
  const [calendar, setCalendar] = useState<Calendar | null>(null);
  useEffect(() => {
    let live = true;
    void loadCalendar(timelineId, shareCode).then((cal) => live && setCalendar(cal));
    return () => {
      live = false;
    };
  }, [timelineId, shareCode]);
  const linked = value.entityIds.map((id) => byId.get(id)).filter((e): e is EntityView => Boolean(e));
  const set = (patch: Partial<StoryFieldValues>) => onChange({ ...value, ...patch });
  const link = (entity: EntityView) => set({ entityIds: [...value.entityIds.filter((id) => id !== entity.id), entity.id] });
  const unlink = (id: number) =>
    set({ entityIds: value.entityIds.filter((x) => x !== id), povEntityId: value.povEntityId === id ? null : value.povEntityId });

  // A point of view is a character's. A place or thing chosen before stays shown (and saved) until changed.
  const povChoices = linked.filter((e) => e.kind === "character" || e.id === value.povEntityId);

  return (
    <div className="space-y-3 rounded-md border border-stone-200 bg-stone-50 p-3" data-story-fields="">
      <div className="space-y-1.5">
        <Label htmlFor={`${idPrefix}-picker`}>Codex links</Label>
        {linked.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Linked codex entries">
            {linked.map((entity) => (
              <li
                key={entity.id}
                className="inline-flex items-center gap-1 rounded-full border border-stone-300 bg-white py-0.5 pr-1 pl-2 text-xs font-medium"
              >
                <ColorDot color={entity.color} />
                {entity.name}
                <button
                  type="button"
                  aria-label={`Remove ${entity.name}`}
                  onClick={() => unlink(entity.id)}
                  className="rounded-full p-0.5 text-stone-600 hover:bg-stone-100"
                >
                  <X aria-hidden="true" className="h-3 w-3" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <EntityPicker
          id={`${idPrefix}-picker`}
          entities={entities.filter((e) => !value.entityIds.includes(e.id))}
          allEntities={entities}
          onPick={link}
          onCreate={
            onCreateEntity
              ? async (kind, name) => {
                  const created = await onCreateEntity(kind, name);
                  if (created) link(created);
                }
              : undefined
          }
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${idPrefix}-pov`}>Point of view</Label>
        <select
          id={`${idPrefix}-pov`}
          value={value.povEntityId ?? ""}
          onChange={(e) => set({ povEntityId: e.target.value ? Number(e.target.value) : null })}
          className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
        >
          <option value="">None</option>
          {povChoices.map((entity) => (
            <option key={entity.id} value={entity.id}>
              {entity.kind === "character" ? entity.name : `${entity.name} (${kindLabels[entity.kind]})`}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <DateField
          id={`${idPrefix}-start`}
          label="Story start"
          field="Start"
          calendar={calendar}
          value={value.storyStart}
          onChange={(storyStart) => set({ storyStart })}
        />
        <DateField
          id={`${idPrefix}-end`}
          label="Story end"
          field="End"
          calendar={calendar}
          value={value.storyEnd}
          onChange={(storyEnd) => set({ storyEnd })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${idPrefix}-label`}>Story label</Label>
        <Input
          id={`${idPrefix}-label`}
          value={value.storyLabel}
          placeholder="e.g. Day 3, dusk"
          maxLength={100}
          onChange={(e) => set({ storyLabel: e.target.value })}
        />
      </div>
    </div>
  );
}

/**
 * A story date as the writer types it: 'Reads as 14 Frostmoon 1203 AR' while it reads in the timeline's calendar,
 * and once the writer leaves a date that does not, the refusal the server would give, under the field.
 */
function DateField(props: {
  id: string;
  label: string;
  field: "Start" | "End";
  calendar: Calendar | null;
  value: string;
  onChange: (value: string) => void;
}) {
  const { id, field, calendar, value } = props;
  // The locale the server wrote the page's dates in (the request's Accept-Language), never the browser's own.
  const locale = (useRouteLoaderData("root") as { locale?: string } | undefined)?.locale;
  const [left, setLeft] = useState(false);
  const text = value.trim();
  const read = calendar && text ? parseStoryText(calendar, text, field, locale) : null;
  const refused = read && !read.ok && left ? read.error : null;
  const words =
    calendar && read?.ok
      ? [weekdayOf(calendar, read.date, { locale }), dateInWords(calendar, read.date, { locale })].filter(Boolean).join(", ")
      : null;
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{props.label}</Label>
      <Input
        id={id}
        value={value}
        placeholder={calendar ? `e.g. ${exampleDate(calendar)}` : undefined}
        maxLength={100}
        aria-invalid={refused ? true : undefined}
        aria-describedby={read ? hintId : undefined}
        onChange={(e) => {
          props.onChange(e.target.value);
          setLeft(false);
        }}
        onBlur={() => setLeft(true)}
      />
      {words ? (
        <p id={hintId} className="text-xs text-stone-600">
          Reads as {words}
        </p>
      ) : read ? (
        <p id={hintId} className={cn("text-xs", refused ? "font-medium text-red-700" : "text-stone-600")}>
          {refused ?? "Keep typing a date…"}
        </p>
      ) : null}
    </div>
  );
}

type Option = { key: string; label: string; entity?: EntityView; create?: { kind: EntityKind; name: string } };

const kindLabels: Record<EntityKind, string> = { character: "character", place: "place", thing: "thing" };

/** A type-ahead combobox (WAI-ARIA combobox with a listbox popup): typing filters names and aliases, Enter adds. */
function EntityPicker({
  id,
  entities,
  allEntities,
  onPick,
  onCreate,
}: {
  id: string;
  entities: EntityView[];
  allEntities: EntityView[];
  onPick: (entity: EntityView) => void;
  onCreate?: (kind: EntityKind, name: string) => Promise<void>;
}) {
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [creating, setCreating] = useState(false);
  const listId = useId();
  const name = query.trim();
  const options: Option[] = entities
    .filter((e) => matchesEntity(e, query))
    .slice(0, 8)
    .map((entity) => ({ key: `e${entity.id}`, label: entity.name, entity }));
  if (onCreate && name && !allEntities.some((e) => e.name.toLowerCase() === name.toLowerCase())) {
    for (const kind of entityKinds) {
      options.push({ key: `create-${kind}`, label: `Create ${kindLabels[kind]} "${name}"`, create: { kind, name } });
    }
  }
  const expanded = open && options.length > 0;
  const current = Math.min(active, options.length - 1);

  async function choose(option: Option | undefined) {
    if (!option) return;
    if (option.entity) onPick(option.entity);
    else if (option.create && onCreate) {
      setCreating(true);
      await onCreate(option.create.kind, option.create.name);
      setCreating(false);
    }
    setQuery("");
    setActive(0);
  }

  return (
    <div className="relative">
      <Input
        id={id}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded ? `${listId}-${options[current]?.key}` : undefined}
        placeholder="Type a name to link a character, place or thing"
        value={query}
        disabled={creating}
        autoComplete="off"
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            setActive((i) => (options.length ? (i + 1) % options.length : 0));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((i) => (options.length ? (i - 1 + options.length) % options.length : 0));
          } else if (e.key === "Enter") {
            e.preventDefault();
            if (expanded) void choose(options[current]);
          } else if (e.key === "Escape" && expanded) {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Codex entries"
        className={cn(
          "absolute z-20 mt-1 max-h-60 w-full overflow-y-auto rounded-md border border-stone-200 bg-white py-1 shadow-lg",
          !expanded && "hidden",
        )}
      >
        {options.map((option, index) => (
          <div
            key={option.key}
            id={`${listId}-${option.key}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === current}
            className={cn(
              "flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm",
              index === current && "bg-brand-50",
              option.create && "font-medium text-brand-700",
            )}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(index)}
            onClick={() => void choose(option)}
            onKeyDown={(e) => e.key === "Enter" && void choose(option)}
          >
            {option.entity ? <ColorDot color={option.entity.color} /> : null}
            {option.label}
            {option.entity?.aliases.length ? <span className="text-xs text-stone-600">({option.entity.aliases.join(", ")})</span> : null}
          </div>
        ))}
      </div>
    </div>
  );
}
