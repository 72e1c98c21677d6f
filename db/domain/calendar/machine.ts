// The stored machine form of a story date, `[-]Y[-MM[-DD[THH:mm]]]`, read in a calendar. A custom calendar may
// have up to 100 months of up to 1000 days, so MM and DD may have more than two digits there.
import { daysInMonth, monthsOf } from "./arithmetic";
import type { CalDate, Calendar } from "./types";

const PATTERN = /^(-?)(\d{1,6})(?:-(\d{2,3})(?:-(\d{2,4})(?:T(\d{2}):(\d{2}))?)?)?$/;

export type MachineReason = "format" | "month" | "day" | "hour" | "minute";
export type MachineResult = { ok: true; date: CalDate } | { ok: false; reason: MachineReason };

/** True when the text is shaped like the machine form (digits and dashes), valid or not. */
export const looksMachine = (text: string) => /^-?\d+(?:-\d+)*(?:T[\d:]*)?$/.test(text);

export function parseMachine(cal: Calendar, value: string): MachineResult {
  const m = PATTERN.exec(value);
  if (!m) return { ok: false, reason: "format" };
  const date: CalDate = { year: (m[1] ? -1 : 1) * Number(m[2]) || 0 };
  if (m[3] === undefined) return { ok: true, date };
  date.month = Number(m[3]);
  if (date.month < 1 || date.month > monthsOf(cal).length) return { ok: false, reason: "month" };
  if (m[4] === undefined) return { ok: true, date };
  date.day = Number(m[4]);
  if (date.day < 1 || date.day > daysInMonth(cal, date.year, date.month)) return { ok: false, reason: "day" };
  if (m[5] === undefined) return { ok: true, date };
  date.hour = Number(m[5]);
  date.minute = Number(m[6]);
  if (date.hour >= (cal.kind === "relative" ? 24 : cal.hoursPerDay)) return { ok: false, reason: "hour" };
  if (date.minute > 59) return { ok: false, reason: "minute" };
  return { ok: true, date };
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

export function formatMachine(date: CalDate) {
  let out = `${date.year < 0 ? "-" : ""}${Math.abs(date.year)}`;
  if (date.month === undefined) return out;
  out += `-${pad(date.month, 2)}`;
  if (date.day === undefined) return out;
  out += `-${pad(date.day, 2)}`;
  if (date.hour === undefined) return out;
  return `${out}T${pad(date.hour, 2)}:${pad(date.minute ?? 0, 2)}`;
}

/** Completes "<Start|End> …" for a machine-shaped date the calendar does not have. */
export function machineReason(cal: Calendar, reason: Exclude<MachineReason, "format">) {
  const hours = cal.kind === "relative" ? 24 : cal.hoursPerDay;
  return {
    month: `has a month outside 01-${pad(monthsOf(cal).length, 2)}`,
    day: "has a day that month does not have",
    hour: `has an hour outside 00-${pad(hours - 1, 2)}`,
    minute: "has a minute outside 00-59",
  }[reason];
}
