// 'Words written': net words added per day (the writer's days: UTC unless a time zone is given) over the last 30 days, from the scenes' saved versions. A
// version's words minus the previous version's of the same scene is what its writer added (negative when they
// cut); the first version of a scene counts from zero.
import { asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dailyQuota, writingDaysOf } from "../../db/domain/deadlines";
import { countWords } from "../../db/domain/word-count";
import { type User, eventVersions, users } from "../../db/schema";
import { requireTimelineAccess } from "./access";
import { timelineWordCount } from "./chapters";

export const PROGRESS_DAYS = 30;

export type DayWords = { date: string; words: number };
export type Progress = {
  wordCount: number;
  targetWords: number | null;
  days: DayWords[];
  /** The signed-in writer's daily goal (null: none) and how many days in a row, up to today, met it. */
  dailyGoal: number | null;
  streak: number;
  writers?: { userId: number | null; name: string; days: DayWords[] }[];
  /** The deadline (null: none), the words a day still needed to meet it (null: no deadline or no target), today's words. */
  deadline: string | null;
  dailyQuota: number | null;
  today: { words: number };
};

/** The calendar date ('2026-11-24') an instant falls on in `timeZone` (UTC when absent). */
export function dateIn(timeZone?: string) {
  if (!timeZone || timeZone === "UTC") return (iso: string) => iso.slice(0, 10);
  const format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return (iso: string) => {
    const parts = format.formatToParts(new Date(iso));
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
    return `${get("year").padStart(4, "0")}-${get("month")}-${get("day")}`;
  };
}

/** The last `count` dates, oldest first, ending today (today in `timeZone`, UTC when absent). */
export function lastDays(now: Date, count = PROGRESS_DAYS, timeZone?: string) {
  const [y, m, d] = dateIn(timeZone)(now.toISOString()).split("-").map(Number);
  const today = Date.UTC(y, m - 1, d);
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Versions written before counts were kept: counted once, here. */
async function fillVersionCounts(db: Db, timelineId: number) {
  for (let round = 0; round < 20; round++) {
    const rows = await db
      .select({ id: eventVersions.id, content: eventVersions.content })
      .from(eventVersions)
      .where(sql`${eventVersions.timelineId} = ${timelineId} AND ${isNull(eventVersions.wordCount)}`)
      .limit(200);
    if (rows.length === 0) return;
    const counted = rows.map((r) => ({ i: r.id, w: countWords(r.content) }));
    await db.run(sql`UPDATE event_versions SET word_count = json_extract(j.value, '$.w') FROM json_each(${JSON.stringify(counted)}) j
      WHERE event_versions.id = json_extract(j.value, '$.i')`);
  }
}

export async function timelineProgress(
  db: Db,
  user: User,
  timelineId: number,
  {
    shareCode,
    byWriter = false,
    now = new Date(),
    timeZone,
  }: { shareCode?: string | null; byWriter?: boolean; now?: Date; timeZone?: string },
): Promise<Progress> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  await fillVersionCounts(db, timelineId);
  const [versions, wordCount, me] = await Promise.all([
    db
      .select({
        eventId: eventVersions.eventId,
        authorId: eventVersions.authorId,
        authorName: eventVersions.authorName,
        words: eventVersions.wordCount,
        createdAt: eventVersions.createdAt,
      })
      .from(eventVersions)
      .where(eq(eventVersions.timelineId, timelineId))
      .orderBy(asc(eventVersions.eventId), asc(eventVersions.createdAt), asc(eventVersions.id)),
    timelineWordCount(db, timelineId),
    db.select({ goal: users.dailyGoalWords }).from(users).where(eq(users.id, user.id)).get(),
  ]);
  const dates = lastDays(now, PROGRESS_DAYS, timeZone);
  const dayOf = dateIn(timeZone);
  const first = dates[0];
  const total = new Map<string, number>();
  const perWriter = new Map<string, { userId: number | null; name: string; days: Map<string, number> }>();
  // The signed-in writer's days over a year, for the streak.
  const mine = new Map<string, number>();
  let previous: { eventId: number; words: number } | null = null;
  for (const v of versions) {
    const words = v.words ?? 0;
    const before = previous?.eventId === v.eventId ? previous.words : 0;
    previous = { eventId: v.eventId, words };
    const date = dayOf(v.createdAt);
    const added = words - before;
    if (v.authorId === user.id) mine.set(date, (mine.get(date) ?? 0) + added);
    if (date < first) continue;
    total.set(date, (total.get(date) ?? 0) + added);
    const key = v.authorId === null ? `name:${v.authorName}` : `id:${v.authorId}`;
    const writer = perWriter.get(key) ?? { userId: v.authorId, name: v.authorName, days: new Map() };
    writer.days.set(date, (writer.days.get(date) ?? 0) + added);
    perWriter.set(key, writer);
  }
  const series = (byDate: Map<string, number>) => dates.map((date) => ({ date, words: byDate.get(date) ?? 0 }));
  const goal = me?.goal ?? null;
  const today = dates[dates.length - 1];
  const deadline = timeline.deadline ?? null;
  return {
    deadline,
    dailyQuota: dailyQuota({
      today,
      deadline,
      writingDays: writingDaysOf(timeline.writingDays),
      targetWords: timeline.targetWords ?? null,
      wordCount,
    }),
    today: { words: total.get(today) ?? 0 },
    wordCount,
    targetWords: timeline.targetWords ?? null,
    days: series(total),
    dailyGoal: goal,
    streak:
      goal === null
        ? 0
        : streakOf(
            lastDays(now, 366, timeZone).map((date) => ({ date, words: mine.get(date) ?? 0 })),
            goal,
          ),
    ...(byWriter && {
      writers: [...perWriter.values()].map((w) => ({ userId: w.userId, name: w.name, days: series(w.days) })),
    }),
  };
}

/**
 * Days in a row meeting the goal, counted back from today; today not met yet does not break a streak that
 * reaches yesterday (the writer still has today to write).
 */
export function streakOf(days: DayWords[], goal: number) {
  let streak = 0;
  for (let i = days.length - 1; i >= 0; i--) {
    if (days[i].words >= goal) streak++;
    else if (i === days.length - 1) continue;
    else break;
  }
  return streak;
}
