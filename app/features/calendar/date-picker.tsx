import { Popover } from "radix-ui";
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from "react";
import { type DatePickerProps, PickerButton, pickerNames } from "~/features/calendar/picker-button";
import { cn } from "~/lib/cn";
import type { Calendar } from "../../../db/domain/calendar";
import {
  type Day,
  dayOfText,
  monthGrid,
  moveDays,
  moveMonths,
  moveYears,
  openingDay,
  pickedText,
  rowEdge,
} from "../../../db/domain/calendar/month-grid";
import { weekdayOf } from "../../../db/domain/calendar/weekday";
import { dateInWords } from "../../../db/domain/calendar/words";

const sameDay = (a: Day | null, b: Day | null) => !!a && !!b && a.year === b.year && a.month === b.month && a.day === b.day;

function today(): Day {
  const now = new Date();
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** Where the picker opens: the field's date, else a date nearby, else the calendar's usual start. */
const startOf = ({ calendar, value, nearby }: DatePickerProps) => openingDay(calendar, [value, ...(nearby?.() ?? [])], today());

/**
 * One month of the timeline's calendar in a popover (the WAI-ARIA date picker dialog): arrows move by day and
 * week, Page Up/Down by month (with Shift by year), Home/End to the row's ends, Enter or Space picks, Escape
 * closes and gives focus back to the button.
 */
export function DatePicker(props: DatePickerProps & { defaultOpen?: boolean }) {
  const { field, calendar, value, onPick } = props;
  const [open, setOpen] = useState(Boolean(props.defaultOpen));
  const [focus, setFocus] = useState<Day>(() => startOf(props));
  const gridRef = useRef<HTMLTableElement>(null);
  const focusCell = useRef(false);
  const headingId = useId();

  const grid = monthGrid(calendar, focus.year, focus.month);
  const selected = dayOfText(calendar, value);
  const now = calendar.kind === "gregorian" ? today() : null;

  // A key that moved the focused day into another month: the new month's cell takes focus once it is there.
  useLayoutEffect(() => {
    if (!focusCell.current) return;
    focusCell.current = false;
    gridRef.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
  });

  const pick = (day: Day) => {
    onPick(pickedText(calendar, day, value));
    setOpen(false);
  };

  function onKeyDown(e: KeyboardEvent) {
    const width = grid.rows[0]?.length ?? 7;
    const moves: Record<string, () => Day> = {
      ArrowLeft: () => moveDays(calendar, focus, -1),
      ArrowRight: () => moveDays(calendar, focus, 1),
      ArrowUp: () => moveDays(calendar, focus, -width),
      ArrowDown: () => moveDays(calendar, focus, width),
      PageUp: () => (e.shiftKey ? moveYears : moveMonths)(calendar, focus, -1),
      PageDown: () => (e.shiftKey ? moveYears : moveMonths)(calendar, focus, 1),
      Home: () => ({ ...focus, day: rowEdge(grid, focus.day, "start") }),
      End: () => ({ ...focus, day: rowEdge(grid, focus.day, "end") }),
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      focusCell.current = true;
      setFocus(move());
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      pick(focus);
    }
  }

  const step = (to: Day) => setFocus(to);
  // Plain glyphs, not icons: an icon shared with other chunks would be split out and named in the first paint's preload lists.
  const navButton =
    "inline-flex h-8 w-8 cursor-pointer items-center justify-center rounded-md text-lg leading-none text-stone-700 hover:bg-stone-100";
  const short = grid.columns.length > 7 ? 2 : 3;

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        // Opened again: at the field's date as it is now.
        if (next) setFocus(startOf(props));
        setOpen(next);
      }}
      modal
    >
      <Popover.Trigger asChild>
        <PickerButton field={field} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label={`Choose ${pickerNames[field]}`}
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 w-[min(22rem,calc(100vw-1rem))] rounded-xl border border-stone-200 bg-white p-3 shadow-lg"
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            gridRef.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
          }}
        >
          <div className="mb-2 flex items-center gap-1">
            <button type="button" className={navButton} onClick={() => step(moveYears(calendar, focus, -1))}>
              <span aria-hidden="true">«</span>
              <span className="sr-only">Previous year</span>
            </button>
            <button type="button" className={navButton} onClick={() => step(moveMonths(calendar, focus, -1))}>
              <span aria-hidden="true">‹</span>
              <span className="sr-only">Previous month</span>
            </button>
            <h2 id={headingId} aria-live="polite" className="min-w-0 flex-1 text-center text-sm font-semibold break-words">
              {grid.title}
            </h2>
            <button type="button" className={navButton} onClick={() => step(moveMonths(calendar, focus, 1))}>
              <span aria-hidden="true">›</span>
              <span className="sr-only">Next month</span>
            </button>
            <button type="button" className={navButton} onClick={() => step(moveYears(calendar, focus, 1))}>
              <span aria-hidden="true">»</span>
              <span className="sr-only">Next year</span>
            </button>
          </div>
          <div className="max-h-72 overflow-y-auto">
            {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date picker's grid is a table */}
            <table ref={gridRef} role="grid" aria-labelledby={headingId} className="w-full table-fixed border-collapse text-center text-sm">
              {grid.columns.length ? (
                <thead>
                  <tr>
                    {grid.columns.map((name, i) => (
                      <th key={i} scope="col" abbr={name} className="pb-1 text-xs font-medium text-stone-600">
                        {name.slice(0, short)}
                      </th>
                    ))}
                  </tr>
                </thead>
              ) : null}
              <tbody>
                {grid.rows.map((row) => (
                  <tr key={row.find((d) => d !== null)}>
                    {row.map((day, i) =>
                      day === null ? (
                        <td key={`blank-${i}`} />
                      ) : (
                        <DayCell
                          key={day}
                          calendar={calendar}
                          day={{ year: grid.year, month: grid.month, day }}
                          focused={day === focus.day}
                          selected={sameDay(selected, { year: grid.year, month: grid.month, day })}
                          today={sameDay(now, { year: grid.year, month: grid.month, day })}
                          onPick={pick}
                          onKeyDown={onKeyDown}
                        />
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function DayCell(props: {
  calendar: Calendar;
  day: Day;
  focused: boolean;
  selected: boolean;
  today: boolean;
  onPick: (day: Day) => void;
  onKeyDown: (e: KeyboardEvent) => void;
}) {
  const { calendar, day } = props;
  return (
    <td
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a day of the date picker's grid
      role="gridcell"
      tabIndex={props.focused ? 0 : -1}
      aria-selected={props.selected}
      aria-current={props.today ? "date" : undefined}
      aria-label={[weekdayOf(calendar, day), dateInWords(calendar, day)].filter(Boolean).join(", ")}
      onClick={() => props.onPick(day)}
      onKeyDown={props.onKeyDown}
      className={cn(
        "h-9 cursor-pointer rounded-md tabular-nums hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600",
        props.today && "font-semibold text-brand-700",
        props.selected && "bg-brand-600 text-white hover:bg-brand-700",
      )}
    >
      {day.day}
    </td>
  );
}
