// What the chronological views need of story time, in a chunk of its own: the timeline's calendar and the gap and
// overlap arithmetic counted in it. Loaded once a chronological view (or the ruler) is shown.
import { client, shareParam, unwrap } from "~/lib/client";
import { whenOnline } from "~/lib/when-idle";
import { type Calendar, GREGORIAN } from "../../../db/domain/calendar/types";
import { continuityFlags, storyGap } from "../../../db/domain/story-gaps";
import type { EventView } from "../../../worker/services/events";

/** The timeline's calendar; Gregorian when it cannot be read (the gaps are then only approximate, never wrong order). */
export async function loadCalendar(timelineId: number, shareCode: string | null | undefined): Promise<Calendar> {
  try {
    // Only while online (a page that went offline asks when it is back).
    await new Promise<void>((resolve) => whenOnline(resolve));
    const res = client.api.timelines[":id"].calendar.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) });
    return (await unwrap(res)) as Calendar;
  } catch {
    return GREGORIAN;
  }
}

export type StoryTime = { calendar: Calendar; storyGap: typeof storyGap; continuityFlags: typeof continuityFlags };

let last: { key: string; time: StoryTime } | null = null;

/**
 * The calendar and its arithmetic for a timeline's events. The calendar is read again only when the dates' words
 * change (a new calendar rewrites them); the same calendar gives the same object, so nothing renders again.
 */
export async function storyTimeFor(timelineId: number, shareCode: string | null | undefined, events: EventView[]): Promise<StoryTime> {
  const key = `${timelineId}\n${shareCode ?? ""}\n${events.map((e) => e.storyStartDisplay).join("\n")}`;
  if (last?.key === key) return last.time;
  const calendar = await loadCalendar(timelineId, shareCode);
  const same = last && JSON.stringify(last.time.calendar) === JSON.stringify(calendar);
  last = { key, time: same && last ? last.time : { calendar, storyGap, continuityFlags } };
  return last.time;
}
