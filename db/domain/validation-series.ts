import { z } from "zod";

// What the series endpoints accept.

export const seriesLimits = { title: 200, books: 50 } as const;

export const seriesMessages = {
  notFound: "Series not found",
  titleRequired: "Please enter a series title",
  titleTooLong: `Series titles can be at most ${seriesLimits.title} characters`,
  timelineIds: `Choose between 1 and ${seriesLimits.books} of your timelines`,
  timelineId: "Choose one of your timelines",
  inAnotherSeries: (title: string) => `"${title}" is already in another series: remove it from that one first`,
  alreadyHere: (title: string) => `"${title}" is already in this series`,
  order: "List every book of the series once, in the new order",
  tooManyBooks: `A series can have at most ${seriesLimits.books} books`,
  notInSeries: "That timeline is not in this series",
} as const;

export const SeriesTitleSchema = z
  .string({ error: seriesMessages.titleRequired })
  .trim()
  .min(1, seriesMessages.titleRequired)
  .max(seriesLimits.title, seriesMessages.titleTooLong);

const timelineId = z
  .number({ error: seriesMessages.timelineId })
  .int(seriesMessages.timelineId)
  .positive(seriesMessages.timelineId)
  .max(Number.MAX_SAFE_INTEGER, seriesMessages.timelineId);

const timelineIds = z
  .array(timelineId, { error: seriesMessages.timelineIds })
  .min(1, seriesMessages.timelineIds)
  .max(seriesLimits.books, seriesMessages.timelineIds);

/** Books in the order given (book 1 first); repeats are dropped. */
export const CreateSeriesSchema = z.object({
  title: SeriesTitleSchema,
  timelineIds: timelineIds.transform((ids) => [...new Set(ids)]),
});
export type CreateSeries = z.infer<typeof CreateSeriesSchema>;

/** A new title and/or the books' new order (every book of the series, once). */
export const UpdateSeriesSchema = z
  .object({ title: SeriesTitleSchema.optional(), timelineIds: timelineIds.optional() })
  .refine((v) => v.title !== undefined || v.timelineIds !== undefined, { message: "Nothing to update" });
export type UpdateSeries = z.infer<typeof UpdateSeriesSchema>;

export const AddBookSchema = z.object({ timelineId });
