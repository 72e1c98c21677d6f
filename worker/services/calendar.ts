// A timeline's calendar: read it, change it, and move its dated scenes when its structure changes.
import { eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type Calendar,
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
  const lives: Array<{ id: number; born: string | null; died: string | null }> = [];
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
    const codex = await db
      .select({ id: entities.id, born: entities.born, died: entities.died })
      .from(entities)
      .where(sql`${entities.timelineId} = ${timelineId} AND (${entities.born} IS NOT NULL OR ${entities.died} IS NOT NULL)`);
    for (const e of codex)
      lives.push({ id: e.id, born: moveDate(before, after, e.born, null), died: moveDate(before, after, e.died, null) });
  }
  const changes = moves
    .filter((m) => !m.trashed)
    .map((m) => ({
      eventId: m.id,
      title: m.title,
      before: storyDisplay(before, m.storyStart, { locale }),
      after: storyDisplay(after, m.start, { locale }),
    }));
  if (changes.length > 0 && !convert) {
    const message = `Changing the calendar moves ${changes.length} dated ${changes.length === 1 ? "scene" : "scenes"}`;
    throw conflict(message, { message, changes });
  }
  const json = after.kind === "gregorian" ? null : JSON.stringify(after);
  const updates = moves.map((m) =>
    db
      .update(events)
      .set({ storyStart: m.start, storyEnd: m.end, storySort: storySort(after, m.start) })
      .where(eq(events.id, m.id)),
  );
  const lifespans = lives.map((l) =>
    db
      .update(entities)
      .set({ born: l.born, died: l.died, bornSort: storySort(after, l.born), diedSort: storySort(after, l.died) })
      .where(eq(entities.id, l.id)),
  );
  // The list shows the dates in the calendar's words: its revision moves even when no scene did.
  const save = db
    .update(timelines)
    .set({ calendar: json, eventsRevision: sql`${timelines.eventsRevision} + 1`, updatedAt: nowIso() })
    .where(eq(timelines.id, timelineId));
  await db.batch([save, ...updates, ...lifespans]);
  room(timelineId, { action: "timeline-updated", by: authorOf(user), subject: timeline.title });
  return after;
}
