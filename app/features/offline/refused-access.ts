import { ApiError } from "~/lib/client";

const ended = (status: number) => status === 403 || status === 404;

/** How many times the timeline is asked when it gives no answer (the network or the server just coming back). */
const CHECK_TRIES = 6;
/** The wait before the next ask: 1 s, 2 s, 4 s, … (about a minute in all). */
const checkDelay = (tries: number) => 1000 * 2 ** tries;

/**
 * The timeline's answer (its status), asked again while there is none: a request that failed (fetch's TypeError,
 * as the network or the server comes back), a 5xx or a 429 says nothing about access. Null when it never answered.
 */
async function timelineStatus(url: string): Promise<number | null> {
  for (let tries = 0; tries < CHECK_TRIES; tries++) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, checkDelay(tries - 1)));
    try {
      const res = await fetch(url, { cache: "no-store", credentials: "same-origin" });
      if (res.status < 500 && res.status !== 429) return res.status;
    } catch {
      // No answer: asked again.
    }
  }
  return null;
}

/**
 * A queued change the server refused with 403 or 404: the scene or chapter may be gone, or the writer's access to
 * the timeline may have ended (removed as a collaborator while offline, the queue sent from any page the app shell
 * resumed it on). The timeline itself is asked (again while it gives no answer); when it answers 403 or 404 too,
 * the device's copy of it is deleted and what still waited for it is kept under 'Changes not saved'
 * (forget-timeline.ts), as the timeline's 'Timeline not found' and the live room's access end do.
 */
export function forgetIfAccessEnded(error: unknown, timelineId: number, shareCode?: string | null) {
  if (typeof window === "undefined" || !(error instanceof ApiError) || !ended(error.status)) return;
  if (!Number.isInteger(timelineId) || timelineId <= 0) return;
  const query = shareCode ? `?share=${encodeURIComponent(shareCode)}` : "";
  void timelineStatus(`/api/timelines/${timelineId}${query}`)
    .then(async (status) => {
      if (status === null || !ended(status)) return;
      const { forgetTimelineOnDevice } = await import("./forget-timeline");
      await forgetTimelineOnDevice(timelineId);
    })
    .catch(() => undefined);
}
