// Codex progressions in the StoryWeave JSON document (DESIGN.md §12): each entry's optional `progressions`, a list
// of `{event, text}` where `event` counts the file's events from 0. Read after the events, so the count is known.
import { fail, type TimelineDocument, type TransferProgression } from "./document";

export const PROGRESSION_TEXT_MAX = 2000;
/** At most this many per entry in one import. */
export const MAX_PROGRESSIONS_PER_ENTRY = 500;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One entry's progressions as the file has them, checked against the file's event count. */
export function jsonProgressions(where: string, raw: unknown, eventCount: number): TransferProgression[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return fail(where, "progressions must be a list");
  if (raw.length > MAX_PROGRESSIONS_PER_ENTRY) fail(where, `at most ${MAX_PROGRESSIONS_PER_ENTRY} progressions`);
  return raw.map((p, i) => {
    const at = `${where}, progression ${i + 1}`;
    if (!isObject(p)) return fail(at, "must be an object");
    const { event, text } = p;
    if (!(Number.isInteger(event) && (event as number) >= 0 && (event as number) < eventCount)) {
      fail(at, "event must be the number of one of the file's events (counting from 0)");
    }
    const clean = typeof text === "string" ? text.trim() : "";
    if (!clean) fail(at, "text is required");
    if (clean.length > PROGRESSION_TEXT_MAX) fail(at, `text must be at most ${PROGRESSION_TEXT_MAX.toLocaleString("en-US")} characters`);
    return { event: event as number, text: clean };
  });
}

/** Adds the raw entries' progressions to the parsed document (same order as its entities). */
export function attachProgressions(doc: TimelineDocument, rawEntities: unknown[]) {
  rawEntities.forEach((raw, i) => {
    const list = jsonProgressions(`Codex entry ${i + 1}`, isObject(raw) ? raw.progressions : undefined, doc.events.length);
    if (list.length > 0 && doc.entities[i]) doc.entities[i].progressions = list;
  });
}
