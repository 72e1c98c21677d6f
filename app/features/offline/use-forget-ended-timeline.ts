import { useEffect } from "react";
import { useParams } from "react-router";

/**
 * On a timeline's 'Timeline not found' (the server answered 404: access ended, or the timeline was deleted), the
 * device's copy of that timeline is deleted (forget-timeline.ts, loaded only then).
 */
export function useForgetEndedTimeline() {
  const { id } = useParams();
  useEffect(() => {
    const timelineId = id && /^\d{1,12}$/.test(id) ? Number(id) : 0;
    if (!timelineId) return;
    void import("./forget-timeline").then((m) => m.forgetTimelineOnDevice(timelineId));
  }, [id]);
}
