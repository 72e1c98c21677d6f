import { useState } from "react";
import { useRouteLoaderData } from "react-router";
import { type DateFieldName, PickerButton } from "~/features/calendar/picker-button";
import { Input, Label } from "~/ui/input";
import { LazyPopup, onDemand } from "~/ui/lazy-popup";
import { cn } from "~/lib/cn";
import { type Calendar, dateInWords, exampleDate, parseStoryText, seasonInWords } from "../../../db/domain/calendar";
import { weekdayOf } from "../../../db/domain/calendar/weekday";

/** The date to send for a field the form showed in words: undefined when unchanged, null when cleared. */
export function changedDate(shown: string, now: string): string | null | undefined {
  const value = now.trim();
  return value === shown.trim() ? undefined : value || null;
}

const picker = onDemand(() => import("~/features/calendar/date-picker").then((m) => m.DatePicker));

/**
 * A story date as the writer types it, or picks it from the calendar: 'Reads as 14 Frostmoon 1203 AR' while it
 * reads in the timeline's calendar, and once the writer leaves a date that does not, the refusal the server
 * would give, under the field.
 */
export function DateField(props: {
  id: string;
  label: string;
  field: DateFieldName;
  calendar: Calendar | null;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  nearby?: () => Array<string | null | undefined>;
}) {
  const { id, field, calendar, value } = props;
  // The locale the server wrote the page's dates in (the request's Accept-Language), never the browser's own.
  const locale = (useRouteLoaderData("root") as { locale?: string } | undefined)?.locale;
  const [left, setLeft] = useState(false);
  const text = value.trim();
  const read = calendar && text ? parseStoryText(calendar, text, field, locale) : null;
  const refused = read && !read.ok && left ? read.error : null;
  const season = calendar && read?.ok ? seasonInWords(calendar, text) : null;
  const words =
    calendar && read?.ok
      ? (season?.words ??
        [weekdayOf(calendar, read.date, { locale }), dateInWords(calendar, read.date, { locale })].filter(Boolean).join(", "))
      : null;
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{props.label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={value}
          placeholder={props.placeholder ?? (calendar ? `e.g. ${exampleDate(calendar)}` : undefined)}
          maxLength={100}
          aria-invalid={refused ? true : undefined}
          aria-describedby={read ? hintId : undefined}
          onChange={(e) => {
            props.onChange(e.target.value);
            setLeft(false);
          }}
          onBlur={() => setLeft(true)}
        />
        {/* A relative calendar's 'Day 3' is quicker typed than picked. */}
        {calendar && calendar.kind !== "relative" ? (
          <LazyPopup
            component={picker}
            props={{
              field,
              calendar,
              value,
              nearby: props.nearby,
              onPick: (picked: string) => {
                props.onChange(picked);
                setLeft(true);
              },
            }}
            haspopup="dialog"
            trigger={(t) => <PickerButton field={field} {...t} />}
          />
        ) : null}
      </div>
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
