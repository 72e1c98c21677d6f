import { client, shareParam, unwrap } from "~/lib/client";
import { whenOnline } from "~/lib/when-idle";
import type { Calendar } from "../../../db/domain/calendar";

// A timeline's calendar as the date fields read typed dates with it: asked for once per timeline, and again
// after the owner saves a new one (the Calendar dialog forgets it).
const cache = new Map<number, Promise<Calendar | null>>();

export function loadCalendar(timelineId: number, shareCode?: string | null): Promise<Calendar | null> {
  let found = cache.get(timelineId);
  if (!found) {
    // Asked for only while online: an editor opened offline reads dates once the network is back.
    found = new Promise<void>((resolve) => whenOnline(resolve))
      .then(() => unwrap(client.api.timelines[":id"].calendar.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) })))
      .then(
        (cal) => cal as Calendar,
        () => {
          cache.delete(timelineId);
          return null;
        },
      );
    cache.set(timelineId, found);
  }
  return found;
}

export function forgetCalendar(timelineId: number) {
  cache.delete(timelineId);
}
