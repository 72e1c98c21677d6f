import { z } from "zod";
import { dependencyMessages, maxDependencies } from "./lifespans";

// What the codex accepts for a character's lifespan, and an event's `after` list.

export { dependencyMessages, lifespanMessages, maxDependencies } from "./lifespans";

/**
 * A story date as the writer typed it, or null; an empty string clears it. The service reads it in the timeline's
 * calendar ('14 Frostmoon 1185 AR', '1185-13-14') and refuses it with an example in that calendar.
 */
const lifeDate = (field: "Born" | "Died") =>
  z
    .string({ error: `${field} must be a date` })
    .trim()
    .max(100, `${field} can be at most 100 characters`)
    .nullable()
    .transform((v) => v || null);

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
