import { z } from "zod";

// What the chapters, targets and goals endpoints accept.

export const chapterLimits = { title: 200, targetWords: 10_000_000, eventIds: 1000 } as const;

export const chapterMessages = {
  titleRequired: "Chapter title is required",
  titleTooLong: `Chapter title must be ${chapterLimits.title} characters or less`,
  targetWords: "Target must be a whole number of words between 1 and 10,000,000, or empty",
  dailyGoal: "Daily goal must be a whole number of words between 1 and 10,000,000, or empty",
  position: "Position must be a whole number",
  chapterId: "Chapter must be a chapter id or null",
  foreignChapter: "Chapter must belong to this timeline",
  eventIds: "Scenes must be a list of event ids",
  foreignEvent: "Scenes must belong to this timeline",
  notFound: "Chapter not found",
} as const;

const chapterTitle = z
  .string({ error: chapterMessages.titleRequired })
  .trim()
  .min(1, chapterMessages.titleRequired)
  .max(chapterLimits.title, chapterMessages.titleTooLong);

/** A word target: a positive whole number up to 10 million, or null (no target). */
const wordTarget = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(chapterLimits.targetWords, message).nullable();

export const targetWords = wordTarget(chapterMessages.targetWords);
export const dailyGoalWords = wordTarget(chapterMessages.dailyGoal);

const position = z.number({ error: chapterMessages.position }).int(chapterMessages.position).min(0, chapterMessages.position);

/** A chapter id in an event's PATCH/POST: a positive integer, or null (no chapter). */
export const chapterIdField = z
  .number({ error: chapterMessages.chapterId })
  .int(chapterMessages.chapterId)
  .positive(chapterMessages.chapterId)
  .max(Number.MAX_SAFE_INTEGER, chapterMessages.chapterId)
  .nullable();

export const CreateChapterSchema = z.object({
  title: chapterTitle,
  targetWords: targetWords.optional(),
  /** Scenes that move into the new chapter (in story order, at the end of the story like any move into a chapter). */
  eventIds: z
    .array(z.number({ error: chapterMessages.eventIds }).int(chapterMessages.eventIds).positive(chapterMessages.eventIds), {
      error: chapterMessages.eventIds,
    })
    .max(chapterLimits.eventIds, chapterMessages.eventIds)
    .transform((ids) => [...new Set(ids)])
    .optional(),
});
export type CreateChapter = z.infer<typeof CreateChapterSchema>;

export const UpdateChapterSchema = z
  .object({ title: chapterTitle.optional(), targetWords: targetWords.optional(), position: position.optional() })
  .refine((v) => v.title !== undefined || v.targetWords !== undefined || v.position !== undefined, { message: "Nothing to update" });
export type UpdateChapter = z.infer<typeof UpdateChapterSchema>;

export const TIME_ZONE_MESSAGE = "Time zone must be an IANA time zone such as Europe/Paris";

/** A time zone the runtime knows by its IANA name ('Europe/Paris', 'UTC'). */
export function isTimeZone(value: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const ProgressQuerySchema = z.object({
  by: z.enum(["writer"], { error: "By must be writer" }).optional(),
  /** The writer's zone: days start at their midnight (default UTC). */
  tz: z.string({ error: TIME_ZONE_MESSAGE }).max(64, TIME_ZONE_MESSAGE).refine(isTimeZone, TIME_ZONE_MESSAGE).optional(),
});
