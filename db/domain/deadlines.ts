// Deadlines (DESIGN §12 'Deadlines, sessions and tasks'): the words a day still needed to reach the book's target
// by its deadline, counting only the writer's writing days (ISO weekdays, 1 = Monday … 7 = Sunday).

export const ALL_WRITING_DAYS = [1, 2, 3, 4, 5, 6, 7];

/** The stored writing days (JSON), all seven when unset or unreadable. */
export function writingDaysOf(json: string | null | undefined): number[] {
  if (!json) return ALL_WRITING_DAYS;
  try {
    const days = JSON.parse(json);
    if (Array.isArray(days) && days.length && days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7)) return days;
  } catch {
    // fall through
  }
  return ALL_WRITING_DAYS;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a 'YYYY-MM-DD' date. */
const isoWeekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** Writing days from `today` to `deadline`, both included (0 when the deadline has passed). */
export function writingDaysLeft(today: string, deadline: string, days: number[]) {
  const start = Date.parse(`${today}T00:00:00Z`);
  const end = Date.parse(`${deadline}T00:00:00Z`);
  let count = 0;
  for (let t = start; t <= end; t += 86_400_000) if (days.includes(isoWeekday(new Date(t).toISOString().slice(0, 10)))) count++;
  return count;
}

/**
 * Words a day to reach `target` by `deadline`: what is still to write (never below 0) over the writing days left,
 * rounded up. Null without a deadline or a target. With no writing day left (the deadline passed), all that is
 * still to write is due now.
 */
export function dailyQuota({
  today,
  deadline,
  writingDays,
  targetWords,
  wordCount,
}: {
  today: string;
  deadline: string | null;
  writingDays: number[];
  targetWords: number | null;
  wordCount: number;
}): number | null {
  if (!deadline || !targetWords) return null;
  const remaining = Math.max(0, targetWords - wordCount);
  const left = writingDaysLeft(today, deadline, writingDays);
  return left === 0 ? remaining : Math.ceil(remaining / left);
}
