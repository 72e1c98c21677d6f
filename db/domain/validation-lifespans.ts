import { z } from "zod";
import { dependencyMessages, maxDependencies } from "./lifespans";
import { parseStoryDate, storyDateReason } from "./story-date";

// What the codex accepts for a character's lifespan, and an event's `after` list.

export { dependencyMessages, lifespanMessages, maxDependencies } from "./lifespans";

/** A story date or null; an empty string clears it. */
const lifeDate = (field: "Born" | "Died") =>
  z
    .string({ error: `${field} ${storyDateReason.format}` })
    .trim()
    .max(20, `${field} ${storyDateReason.format}`)
    .nullable()
    .transform((v, ctx) => {
      if (!v) return null;
      const parsed = parseStoryDate(v);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: `${field} ${storyDateReason[parsed.reason]}` });
        return z.NEVER;
      }
      return v;
    });

export const lifespanFields = { born: lifeDate("Born").optional(), died: lifeDate("Died").optional() };

/** The scenes this one must come after (the list replaces the old one); repeats are dropped. */
export const afterField = z
  .array(
    z
      .number({ error: dependencyMessages.afterIds })
      .int(dependencyMessages.afterIds)
      .positive(dependencyMessages.afterIds)
      .max(Number.MAX_SAFE_INTEGER, dependencyMessages.afterIds),
    { error: dependencyMessages.afterIds },
  )
  .max(maxDependencies, dependencyMessages.tooMany)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));
