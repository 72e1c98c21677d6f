// Ages, lifespans and dependencies between scenes: what a character's born/died dates and a scene's `after` list
// tell a writer in chronological order. Pure functions, no zod: the screens load them in a lazy chunk. Dates are
// compared by their parts (year, month, day, time), which holds in every calendar.
import { type StoredParts, storedParts, storyOrderSpan } from "./story-order";

export const dependencyMessages = {
  afterIds: "Dependencies must be a list of scene ids",
  tooMany: "A scene can depend on at most 50 scenes",
  foreign: "Dependencies must be scenes of this timeline",
  self: "A scene cannot depend on itself",
  loop: "These dependencies would make a loop",
} as const;

export const maxDependencies = 50;

export const lifespanMessages = { diedBeforeBorn: "Died must come after Born" } as const;

/**
 * Whole years from `born` to `at`: the year difference, minus one when the month (and day) of `at` come before
 * those of `born`; a part missing on either side is not compared, so year-only dates give the year difference.
 */
export function ageBetween(born: StoredParts, at: StoredParts): number {
  let age = at.year - born.year;
  if (born.month !== undefined && at.month !== undefined) {
    if (at.month < born.month) age -= 1;
    else if (at.month === born.month && born.day !== undefined && at.day !== undefined && at.day < born.day) age -= 1;
  }
  return age;
}

/** The age at a scene's start when both are valid story dates; null otherwise. */
export function ageAt(born: string | null | undefined, at: string | null | undefined): number | null {
  if (!born || !at) return null;
  const b = storedParts(born);
  const a = storedParts(at);
  return b && a ? ageBetween(b, a) : null;
}

/** False when `died` lies wholly before `born` (the same year or month may hold both). */
export function isLifespanOrdered(born: string | null | undefined, died: string | null | undefined) {
  const b = storyOrderSpan(born);
  const d = storyOrderSpan(died);
  return !b || !d || d.to >= b.from;
}

type Dated = { storyStart: string | null; storyEnd: string | null };
export type LifeScene = Dated & { id: number; title: string; entityIds: number[]; after?: number[] };
export type LifeEntity = { id: number; kind: string; name: string; born?: string | null; died?: string | null };

/** As the continuity flags: `otherEventId` is the scene followed (0 before birth, -1 after death), `characterId` 0 for those. */
export type LifeFlag = { eventId: number; otherEventId: number; characterId: number; message: string };

const bounds = storyOrderSpan;

/** The instants a scene covers (start's first to end's last); null when undated. */
const sceneSpan = (e: Dated) => {
  const start = bounds(e.storyStart);
  if (!start) return null;
  return { from: start.from, to: bounds(e.storyEnd)?.to ?? start.to };
};

/**
 * A character linked to a dated scene wholly before their birth ('Mara is not born yet') or wholly after their
 * death ('Mara has died'), and a dated scene whose start comes wholly before the start of a dated scene it must
 * follow ('Comes before The letter arrives, which it follows'). Scenes not in `events` (trashed) are ignored.
 */
export function lifeFlags(events: LifeScene[], entities: LifeEntity[]): LifeFlag[] {
  const characters = new Map(entities.filter((e) => e.kind === "character").map((e) => [e.id, e]));
  const byId = new Map(events.map((e) => [e.id, e]));
  const flags: LifeFlag[] = [];
  for (const event of events) {
    const span = sceneSpan(event);
    if (!span) continue;
    for (const id of event.entityIds) {
      const c = characters.get(id);
      if (!c) continue;
      const born = bounds(c.born);
      const died = bounds(c.died);
      if (born && span.to < born.from)
        flags.push({ eventId: event.id, otherEventId: 0, characterId: id, message: `${c.name} is not born yet` });
      else if (died && span.from > died.to)
        flags.push({ eventId: event.id, otherEventId: -1, characterId: id, message: `${c.name} has died` });
    }
    const start = bounds(event.storyStart);
    for (const afterId of event.after ?? []) {
      const other = byId.get(afterId);
      const otherStart = bounds(other?.storyStart);
      if (!other || !start || !otherStart || start.to >= otherStart.from) continue;
      flags.push({ eventId: event.id, otherEventId: afterId, characterId: 0, message: `Comes before ${other.title}, which it follows` });
    }
  }
  return flags;
}

/** Ages of the scene's characters with a birth date, when the scene is dated: entity id → whole years (≥ 0). */
export function sceneAges(event: Pick<LifeScene, "storyStart" | "entityIds">, entities: LifeEntity[]): Map<number, number> {
  const ages = new Map<number, number>();
  if (!event.storyStart) return ages;
  for (const e of entities) {
    if (e.kind !== "character" || !event.entityIds.includes(e.id)) continue;
    const age = ageAt(e.born, event.storyStart);
    if (age !== null && age >= 0) ages.set(e.id, age);
  }
  return ages;
}

/**
 * True when making `eventId` depend on `after` closes a loop: one of them already depends (directly or through
 * others) on `eventId`. `edges` holds the timeline's other dependencies, scene id → the scenes it follows.
 */
export function wouldLoop(eventId: number, after: number[], edges: Map<number, number[]>): boolean {
  const seen = new Set<number>();
  const stack = [...after];
  while (stack.length) {
    const id = stack.pop() as number;
    if (id === eventId) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of edges.get(id) ?? []) stack.push(next);
  }
  return false;
}
