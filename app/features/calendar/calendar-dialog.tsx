import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { type ApiClient, ApiError, shareParam, unwrap } from "~/lib/client";
import { showToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { forgetCalendar } from "~/features/calendar/calendar-cache";
import { ConversionPreview, type Preview } from "~/features/calendar/conversion-preview";
import { SeasonFields } from "~/features/calendar/season-fields";
import { type Calendar, type Era, PRESETS } from "../../../db/domain/calendar";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  timelineId: number;
  shareCode?: string | null;
  /** The timeline session's typed client (it names the room connection). */
  client: ApiClient;
  /** After a save: the screen reloads its events (their dates in the new words). */
  onSaved: () => void;
};

const selectClass = "h-10 w-full rounded-md border border-stone-300 bg-white px-2 text-sm";
const move = <T,>(list: T[], from: number, to: number) => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
};

/** The owner's Calendar dialog: a preset to start from, then months, weekdays, eras, leap years, day length, seasons. */
export function CalendarDialog({ open, onOpenChange, timelineId, shareCode, client, onSaved }: Props) {
  const [draft, setDraft] = useState<Calendar | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();
  const param = { id: String(timelineId) };

  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded again each time the dialog opens
  useEffect(() => {
    if (!open) return;
    setError(null);
    setPreview(null);
    // Not the draft of the last opening: a field typed into before the calendar arrives would be overwritten by it.
    setDraft(null);
    let live = true;
    void unwrap(client.api.timelines[":id"].calendar.$get({ param, query: shareParam(shareCode) }))
      .then((cal) => live && setDraft(cal as Calendar))
      .catch(() => live && setError("Could not load the calendar"));
    return () => {
      live = false;
    };
  }, [open, timelineId, shareCode]);

  async function save(convert: boolean) {
    if (!draft) return;
    setPending(true);
    setError(null);
    try {
      await unwrap(
        client.api.timelines[":id"].calendar.$put({
          param,
          query: shareParam(shareCode),
          json: convert ? { ...draft, convert: true } : draft,
        }),
      );
      forgetCalendar(timelineId);
      setPreview(null);
      onOpenChange(false);
      showToast({ title: "Calendar saved" });
      onSaved();
    } catch (e) {
      const body = e instanceof ApiError ? (e.body as (Preview & { error?: string }) | null) : null;
      if (e instanceof ApiError && e.status === 409 && body?.changes) setPreview(body);
      else setError(body?.error ?? "Could not save the calendar");
    } finally {
      setPending(false);
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(false);
  };
  const set = (patch: Partial<Calendar>) => draft && setDraft({ ...draft, ...patch });
  const errorId = `${id}-error`;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Calendar" description="How this story's dates are counted and written.">
      {!draft ? (
        <p className="text-sm text-stone-600" role={error ? "alert" : undefined}>
          {error ?? "Loading the calendar…"}
        </p>
      ) : preview ? (
        <ConversionPreview preview={preview} pending={pending} onCancel={() => setPreview(null)} onConvert={() => void save(true)} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4" aria-describedby={error ? errorId : undefined}>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-preset`}>Start from a preset</Label>
            <select
              id={`${id}-preset`}
              className={selectClass}
              value=""
              onChange={(e) => {
                const preset = PRESETS[e.target.value as keyof typeof PRESETS];
                if (preset) setDraft(structuredClone(preset.calendar) as Calendar);
              }}
            >
              <option value="">Choose…</option>
              {Object.entries(PRESETS).map(([key, p]) => (
                <option key={key} value={key}>
                  {p.label}
                </option>
              ))}
            </select>
            <p className="flex flex-wrap items-center gap-2 text-xs text-stone-600">
              Now: {draft.kind === "gregorian" ? "Gregorian" : draft.kind === "relative" ? "Relative (Day 1, Day 2…)" : "Custom"}
              {draft.kind === "gregorian" ? (
                <Button type="button" size="sm" variant="link" onClick={() => set({ kind: "custom" })}>
                  Customize its months and eras
                </Button>
              ) : null}
            </p>
          </div>
          {draft.kind === "relative" ? (
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-unit`}>Count in</Label>
              <select
                id={`${id}-unit`}
                className={selectClass}
                value={draft.relativeUnit ?? "day"}
                onChange={(e) => set({ relativeUnit: e.target.value as "day" | "week" })}
              >
                <option value="day">Days (Day 1, Day 2)</option>
                <option value="week">Weeks (Week 1, day 3)</option>
              </select>
            </div>
          ) : null}
          {draft.kind === "custom" ? <CustomFields id={id} draft={draft} set={set} /> : null}
          {draft.kind !== "relative" ? <SeasonFields draft={draft} set={set} /> : null}
          {error ? (
            <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <OnlineOnlyButton type="submit" disabled={pending}>
              {pending ? "Saving..." : "Save Calendar"}
            </OnlineOnlyButton>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** A custom calendar's parts. Every row's buttons name their row, so a screen reader knows which one moves. */
function CustomFields({ id, draft, set }: { id: string; draft: Calendar; set: (patch: Partial<Calendar>) => void }) {
  const months = draft.months;
  const setMonth = (i: number, patch: Partial<Calendar["months"][number]>) =>
    set({ months: months.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  const setEra = (i: number, patch: Partial<Era>) => set({ eras: draft.eras.map((e, j) => (j === i ? { ...e, ...patch } : e)) });
  const num = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));
  return (
    <>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Months</legend>
        <ol className="space-y-2">
          {months.map((m, i) => (
            <li key={i} className="flex flex-wrap items-center gap-1.5">
              <Input
                aria-label={`Month ${i + 1} name`}
                className="min-w-0 flex-1 basis-32"
                value={m.name}
                maxLength={40}
                onChange={(e) => setMonth(i, { name: e.target.value })}
              />
              <Input
                aria-label={`Month ${i + 1} days`}
                className="w-20"
                inputMode="numeric"
                value={Number.isNaN(m.days) ? "" : String(m.days)}
                onChange={(e) => setMonth(i, { days: num(e.target.value) })}
              />
              <Button
                type="button"
                size="icon"
                variant="ghost"
                aria-label={`Move month ${i + 1} up`}
                disabled={i === 0}
                onClick={() => set({ months: move(months, i, i - 1) })}
              >
                <ArrowUp aria-hidden="true" className="h-4 w-4" />
              </Button>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                aria-label={`Move month ${i + 1} down`}
                disabled={i === months.length - 1}
                onClick={() => set({ months: move(months, i, i + 1) })}
              >
                <ArrowDown aria-hidden="true" className="h-4 w-4" />
              </Button>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                aria-label={`Remove month ${i + 1}`}
                onClick={() => set({ months: months.filter((_, j) => j !== i) })}
              >
                <Trash2 aria-hidden="true" className="h-4 w-4" />
              </Button>
            </li>
          ))}
        </ol>
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => set({ months: [...months, { name: `Month ${months.length + 1}`, days: 30 }] })}
        >
          Add month
        </Button>
      </fieldset>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-weekdays`}>Weekdays (comma-separated, empty for none)</Label>
        <Input
          id={`${id}-weekdays`}
          value={draft.weekdays.join(", ")}
          onChange={(e) =>
            set({
              weekdays: e.target.value
                .split(",")
                .map((w) => w.trimStart())
                .filter((w, i, all) => w || i < all.length - 1),
            })
          }
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Eras</legend>
        {draft.eras.map((era, i) => (
          <div key={i} className="grid grid-cols-2 gap-1.5 rounded-md border border-stone-200 p-2 sm:grid-cols-4">
            <Input aria-label={`Era ${i + 1} name`} value={era.name} maxLength={40} onChange={(e) => setEra(i, { name: e.target.value })} />
            <Input
              aria-label={`Era ${i + 1} abbreviation`}
              value={era.abbreviation}
              maxLength={40}
              onChange={(e) => setEra(i, { abbreviation: e.target.value })}
            />
            <select
              aria-label={`Era ${i + 1} direction`}
              className={selectClass}
              value={era.direction}
              onChange={(e) => setEra(i, { direction: e.target.value as Era["direction"] })}
            >
              <option value="forward">Counts forward</option>
              <option value="backward">Counts backward</option>
            </select>
            <div className="flex gap-1">
              <Input
                aria-label={`Era ${i + 1} start year`}
                inputMode="numeric"
                value={Number.isNaN(era.startYear) ? "" : String(era.startYear)}
                onChange={(e) => setEra(i, { startYear: num(e.target.value) })}
              />
              <Button
                type="button"
                size="icon"
                variant="ghost"
                aria-label={`Remove era ${i + 1}`}
                onClick={() => set({ eras: draft.eras.filter((_, j) => j !== i) })}
              >
                <Trash2 aria-hidden="true" className="h-4 w-4" />
              </Button>
            </div>
          </div>
        ))}
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => set({ eras: [...draft.eras, { name: "", abbreviation: "", direction: "forward", startYear: 1 }] })}
        >
          Add era
        </Button>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-leap-every`}>Leap year every (years, empty for none)</Label>
          <Input
            id={`${id}-leap-every`}
            inputMode="numeric"
            value={draft.leap ? String(Number.isNaN(draft.leap.every) ? "" : draft.leap.every) : ""}
            onChange={(e) =>
              set({ leap: e.target.value.trim() === "" ? null : { every: num(e.target.value), month: draft.leap?.month ?? months.length } })
            }
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-leap-month`}>Leap day goes to</Label>
          <select
            id={`${id}-leap-month`}
            className={selectClass}
            disabled={!draft.leap}
            value={draft.leap?.month ?? ""}
            onChange={(e) => draft.leap && set({ leap: { ...draft.leap, month: Number(e.target.value) } })}
          >
            {months.map((m, i) => (
              <option key={i} value={i + 1}>
                {m.name || `Month ${i + 1}`}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-hours`}>Hours per day</Label>
          <Input
            id={`${id}-hours`}
            inputMode="numeric"
            value={Number.isNaN(draft.hoursPerDay) ? "" : String(draft.hoursPerDay)}
            onChange={(e) => set({ hoursPerDay: num(e.target.value) })}
          />
        </div>
      </div>
    </>
  );
}
