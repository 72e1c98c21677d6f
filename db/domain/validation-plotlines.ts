import { z } from "zod";
import { plotlineLimits, plotlineMessages } from "./plotline-rules";

// What the plotlines endpoints accept, and an event's `plotlineIds`.

export { defaultPlotlineColor, plotlineLimits, plotlineMessages, plotlinePalette } from "./plotline-rules";

const plotlineTitle = z
  .string({ error: plotlineMessages.titleRequired })
  .trim()
  .min(1, plotlineMessages.titleRequired)
  .max(plotlineLimits.title, plotlineMessages.titleTooLong);

/** '#rrggbb', stored lower case. */
const plotlineColor = z
  .string({ error: plotlineMessages.color })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, plotlineMessages.color)
  .transform((c) => c.toLowerCase());

const position = z.number({ error: plotlineMessages.position }).int(plotlineMessages.position).min(0, plotlineMessages.position);

/** The plotlines a scene belongs to (all of them: the list replaces the old one); repeats are dropped. */
export const plotlineIdsField = z
  .array(
    z
      .number({ error: plotlineMessages.plotlineIds })
      .int(plotlineMessages.plotlineIds)
      .positive(plotlineMessages.plotlineIds)
      .max(Number.MAX_SAFE_INTEGER, plotlineMessages.plotlineIds),
    { error: plotlineMessages.plotlineIds },
  )
  .max(plotlineLimits.plotlineIds, plotlineMessages.plotlineIds)
  .transform((ids) => [...new Set(ids)]);

export const CreatePlotlineSchema = z.object({ title: plotlineTitle, color: plotlineColor.optional() });
export type CreatePlotline = z.infer<typeof CreatePlotlineSchema>;

export const UpdatePlotlineSchema = z
  .object({ title: plotlineTitle.optional(), color: plotlineColor.optional(), position: position.optional() })
  .refine((v) => v.title !== undefined || v.color !== undefined || v.position !== undefined, { message: "Nothing to update" });
export type UpdatePlotline = z.infer<typeof UpdatePlotlineSchema>;
