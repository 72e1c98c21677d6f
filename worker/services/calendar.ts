// A timeline's calendar: read it, change it, and move its dated scenes when its structure changes.
import { eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type Calendar,
  GREGORIAN,
  fromAbsolute,
  formatMachine,
  parseMachine,
  readStoryInput,
  samePrecision,
  storedCalendar,
  storyDisplay,
  storySort,
  structureChanged,
  toAbsolute,
  validateCalendar,
} from "../../db/domain/calendar";
import { type User, entities, events, timelines } from "../../db/schema";
import { badRequest, conflict } from "../lib/errors";
import { nowIso } from "../lib/time";
import { requireTimelineAccess } from "./access";
import { type Deps, authorOf } from "./deps";

export async function getCalendar(db: Db, user: User, timelineId: number, shareCode?: string | null): Promise<Calendar> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  return storedCalendar(timeline.calendar);
}

/** A stored date moved into another calendar: what the writer typed, read again; else the same moment. */
function moveDate(from: Calendar, to: Calendar, stored: string | null, typed: string | null) {
  if (!stored) return null;
  const again = typed ? readStoryInput(to, typed, "Start") : null;
  if (again?.ok) return again.stored;
  const old = parseMachine(from, stored);
  if (!old.ok) return stored;
  const moment = fromAbsolute(to, Math.min(toAbsolute(from, old.date), Number.MAX_SAFE_INTEGER));
  return formatMachine(samePrecision(moment, old.date));
}

type Lived = { id: number; name: string; born: string | null; died: string | null };

/** "Changing the calendar moves 3 dated scenes and 2 characters' born or died dates". */
function conversionMessage(scenes: number, lifespans: number) {
  const parts = [
    scenes > 0 && `${scenes} dated ${scenes === 1 ? "scene" : "scenes"}`,
    lifespans > 0 && `${lifespans} born or died ${lifespans === 1 ? "date" : "dates"}`,
  ].filter(Boolean);
  return `Changing the calendar moves ${parts.join(" and ")}`;
}

type Dated = {
  id: number;
  title: string;
  storyStart: string | null;
  storyEnd: string | null;
  startText: string | null;
  endText: string | null;
  trashed: boolean;
};

/**
 * Owners only. Names-only changes apply at once; a change of structure with dated scenes answers 409 with a
 * preview of where each scene moves unless `convert` is true, and then moves them, keeping what was typed.
 */
export async function putCalendar({ db, room, locale }: Deps, user: User, timelineId: number, body: unknown, shareCode?: string | null) {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "owner", shareCode);
  const checked = validateCalendar(body);
  if (!checked.ok) throw badRequest(checked.error);
  const before = storedCalendar(timeline.calendar);
  const after = checked.calendar;
  const convert = typeof body === "object" && body !== null && (body as { convert?: unknown }).convert === true;
  const moves: Array<Dated & { start: string | null; end: string | null }> = [];
  const lives: Array<Lived & { bornAfter: string | null; diedAfter: string | null }> = [];
  if (structureChanged(before, after)) {
    const dated: Dated[] = await db
      .select({
        id: events.id,
        title: events.title,
        storyStart: events.storyStart,
        storyEnd: events.storyEnd,
        startText: events.storyStartText,
        endText: events.storyEndText,
        trashed: sql<boolean>`${events.deletedAt} IS NOT NULL`.mapWith(Boolean),
      })
      .from(events)
      .where(sql`${events.timelineId} = ${timelineId} AND ${isNotNull(events.storyStart)}`);
    for (const e of dated) {
      moves.push({ ...e, start: moveDate(before, after, e.storyStart, e.startText), end: moveDate(before, after, e.storyEnd, e.endText) });
    }
    // Characters' born and died move to the same moments, sorted in the new calendar like the scenes.
    const codex: Lived[] = await db
      .select({ id: entities.id, name: entities.name, born: entities.born, died: entities.died })
      .from(entities)
      .where(sql`${entities.timelineId} = ${timelineId} AND (${entities.born} IS NOT NULL OR ${entities.died} IS NOT NULL)`);
    // Born and died keep no typed text: their words in the old calendar are read again, as a scene's typed text
    // is, so a lifespan stays where the scenes around it stay (ages do not shift); else the same moment.
    const moved = (stored: string | null) => moveDate(before, after, stored, storyDisplay(before, stored));
    for (const e of codex) lives.push({ ...e, bornAfter: moved(e.born), diedAfter: moved(e.died) });
  }
  const changes = moves
    .filter((m) => !m.trashed)
    .map((m) => ({
      eventId: m.id,
      title: m.title,
      before: storyDisplay(before, m.storyStart, { typed: m.startText, locale }),
      after: storyDisplay(after, m.start, { typed: m.startText, locale }),
    }));
  const lifespans = lives.flatMap((l) =>
    (["born", "died"] as const).flatMap((field) => {
      const [from, to] = field === "born" ? [l.born, l.bornAfter] : [l.died, l.diedAfter];
      return from
        ? [
            {
              entityId: l.id,
              name: l.name,
              field,
              before: storyDisplay(before, from, { locale }),
              after: storyDisplay(after, to, { locale }),
            },
          ]
        : [];
    }),
  );
  if (changes.length + lifespans.length > 0 && !convert) {
    const message = conversionMessage(changes.length, lifespans.length);
    throw conflict(message, { message, changes, lifespans });
  }
  // Gregorian with its own seasons is the one Gregorian calendar stored; the usual one is no calendar at all.
  const usual = after.kind === "gregorian" && JSON.stringify(after.seasons) === JSON.stringify(GREGORIAN.seasons);
  const json = usual ? null : JSON.stringify(after);
  const updates = moves.map((m) =>
    db
      .update(events)
      .set({ storyStart: m.start, storyEnd: m.end, storySort: storySort(after, m.start) })
      .where(eq(events.id, m.id)),
  );
  const lived = lives.map((l) =>
    db
      .update(entities)
      .set({ born: l.bornAfter, died: l.diedAfter, bornSort: storySort(after, l.bornAfter), diedSort: storySort(after, l.diedAfter) })
      .where(eq(entities.id, l.id)),
  );
  // The list shows the dates in the calendar's words: its revision moves even when no scene did.
  const save = db
    .update(timelines)
    .set({ calendar: json, eventsRevision: sql`${timelines.eventsRevision} + 1`, updatedAt: nowIso() })
    .where(eq(timelines.id, timelineId));
  await db.batch([save, ...updates, ...lived]);
  room(timelineId, { action: "timeline-updated", by: authorOf(user), subject: timeline.title });
  return after;
}
