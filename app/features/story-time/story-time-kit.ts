// What the chronological views need of story time, in a chunk of its own: the timeline's calendar and the gap and
// overlap arithmetic counted in it. Loaded once a chronological view (or the ruler) is shown.
import { client, shareParam, unwrap } from "~/lib/client";
import { type Calendar, GREGORIAN } from "../../../db/domain/calendar/types";

export { continuityFlags, storyGap } from "../../../db/domain/story-gaps";

/** The timeline's calendar; Gregorian when it cannot be read (the gaps are then only approximate, never wrong order). */
export async function loadCalendar(timelineId: number, shareCode: string | null | undefined): Promise<Calendar> {
  try {
    const res = client.api.timelines[":id"].calendar.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) });
    return (await unwrap(res)) as Calendar;
  } catch {
    return GREGORIAN;
  }
}
