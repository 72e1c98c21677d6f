import { Trash2 } from "lucide-react";
import { Button } from "~/ui/button";
import { Input } from "~/ui/input";
import type { Calendar } from "../../../db/domain/calendar";

const selectClass = "h-10 w-full rounded-md border border-stone-300 bg-white px-2 text-sm";

/**
 * A calendar's seasons: a name and the month each begins in ('Spring' from March). Writers may then date a scene
 * 'spring 1203'. Renaming or moving a season moves no scene, so it never asks to convert.
 */
export function SeasonFields({ draft, set }: { draft: Calendar; set: (patch: Partial<Calendar>) => void }) {
  const seasons = draft.seasons ?? [];
  const months = draft.months;
  const setSeason = (i: number, patch: Partial<Calendar["seasons"][number]>) =>
    set({ seasons: seasons.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  // A new season starts in the first month no season has yet.
  const taken = new Set(seasons.map((s) => s.startMonth));
  const free = months.findIndex((_, i) => !taken.has(i + 1)) + 1;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Seasons</legend>
      {seasons.length === 0 ? <p className="text-xs text-stone-600">None: scenes are dated by month, day and year.</p> : null}
      <ol className="space-y-2">
        {seasons.map((s, i) => (
          <li key={i} className="flex flex-wrap items-center gap-1.5">
            <Input
              aria-label={`Season ${i + 1} name`}
              className="min-w-0 flex-1 basis-32"
              value={s.name}
              maxLength={40}
              onChange={(e) => setSeason(i, { name: e.target.value })}
            />
            <select
              aria-label={`Season ${i + 1} starts in`}
              className={`${selectClass} w-auto min-w-0 flex-1 basis-32`}
              value={s.startMonth}
              onChange={(e) => setSeason(i, { startMonth: Number(e.target.value) })}
            >
              {months.map((m, j) => (
                <option key={j} value={j + 1}>
                  From {m.name || `Month ${j + 1}`}
                </option>
              ))}
            </select>
            <Button
              type="button"
              size="icon"
              variant="ghost"
              aria-label={`Remove season ${i + 1}`}
              onClick={() => set({ seasons: seasons.filter((_, j) => j !== i) })}
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
        disabled={seasons.length >= 12 || months.length === 0}
        onClick={() => set({ seasons: [...seasons, { name: "", startMonth: free || 1 }] })}
      >
        Add season
      </Button>
    </fieldset>
  );
}
