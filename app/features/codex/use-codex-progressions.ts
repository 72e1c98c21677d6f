import { useEffect, useMemo, useState } from "react";
import type { Progression, SceneOption } from "~/features/codex/progressions";
import { useProgressionsTick } from "~/features/codex/progressions-changed";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { shareParam, unwrap } from "~/lib/client";
import { statesAsOf } from "../../../db/domain/progressions";

/**
 * Every progression of the timeline's codex (`GET /api/timelines/{id}/progressions`), fetched again whenever the room
 * says progressions changed. Empty until loaded (and when it cannot be).
 */
export function useCodexProgressions(): Progression[] {
  const { client, shareCode, timelineId } = useTimelineSession();
  const [list, setList] = useState<Progression[]>([]);
  const tick = useProgressionsTick();
  useEffect(() => {
    let live = true;
    void tick;
    void unwrap(client.api.timelines[":id"].progressions.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) }))
      .then((rows) => live && setList(rows))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client, shareCode, timelineId, tick]);
  return list;
}

/** Each entry's state as of a scene (null: the story's end), by the story bible's rule. */
export function useStatesAsOf(list: Progression[], scenes: SceneOption[], sceneId: number | null) {
  return useMemo(() => statesAsOf(list, scenes, sceneId), [list, scenes, sceneId]);
}
