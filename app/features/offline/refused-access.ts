import { ApiError } from "~/lib/client";

const ended = (status: number) => status === 403 || status === 404;

/**
 * A queued change the server refused with 403 or 404: the scene or chapter may be gone, or the writer's access to
 * the timeline may have ended (removed as a collaborator while offline, the queue sent from any page the app shell
 * resumed it on). The timeline itself is asked once; when it answers 403 or 404 too, the device's copy of it is
 * deleted and what still waited for it is kept under 'Changes not saved' (forget-timeline.ts), as the timeline's
 * 'Timeline not found' and the live room's access end do.
 */
export function forgetIfAccessEnded(error: unknown, timelineId: number, shareCode?: string | null) {
  if (typeof window === "undefined" || !(error instanceof ApiError) || !ended(error.status)) return;
  if (!Number.isInteger(timelineId) || timelineId <= 0) return;
  const query = shareCode ? `?share=${encodeURIComponent(shareCode)}` : "";
  void fetch(`/api/timelines/${timelineId}${query}`, { cache: "no-store", credentials: "same-origin" })
    .then(async (res) => {
      if (!ended(res.status)) return;
      const { forgetTimelineOnDevice } = await import("./forget-timeline");
      await forgetTimelineOnDevice(timelineId);
    })
    .catch(() => undefined);
}
