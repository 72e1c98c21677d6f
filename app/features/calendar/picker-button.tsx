import { CalendarDays } from "lucide-react";
import type { ComponentProps } from "react";
import type { Calendar } from "../../../db/domain/calendar";

// What the date field and its lazily loaded picker share: the field names, the picker's button and its props.

export type DateFieldName = "Start" | "End" | "Born" | "Died";

export const pickerNames: Record<DateFieldName, string> = {
  Start: "story start",
  End: "story end",
  Born: "birth date",
  Died: "date of death",
};

/** The picker's button, as the stand-in before the picker's code loads and as the real popover's trigger. */
export function PickerButton({ field, ...props }: { field: DateFieldName } & ComponentProps<"button">) {
  return (
    // Named by its content, not aria-label, so the field's own label stays the only label with its words.
    <button
      type="button"
      className="inline-flex h-10 w-10 shrink-0 cursor-pointer items-center justify-center rounded-md border border-stone-300 bg-white text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      {...props}
    >
      <CalendarDays aria-hidden="true" className="h-4 w-4" />
      <span className="sr-only">Choose {pickerNames[field]} from the calendar</span>
    </button>
  );
}

export type DatePickerProps = {
  field: DateFieldName;
  calendar: Calendar;
  value: string;
  onPick: (text: string) => void;
  /** Other dates to open at when the field has none (the other end of the range, nearby scenes). */
  nearby?: () => Array<string | null | undefined>;
};
