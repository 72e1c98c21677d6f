import { useEffect, useMemo, useRef, useState } from "react";
import type { StoryHints } from "~/features/timeline/event-card";
import { whenIdleOnline } from "~/lib/when-idle";
import { type ContinuityFlag, unlinkedMentions } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";

type Lifespans = typeof import("../../../db/domain/lifespans");
type StoryTime = import("~/features/story-time/story-time-loader").StoryTime;

/**
 * The story model's notes on the cards: in chronological order the gap to the previous dated event and
 * continuity clashes (counted in the timeline's calendar, loaded with their arithmetic once chronological order is
 * shown); always, codex names mentioned but not linked ('Link Mara?').
 */
export function useStoryHints({
  timelineId,
  shareCode,
  chronological,
  events,
  dated,
  entities,
}: {
  timelineId: number;
  shareCode?: string | null;
  chronological: boolean;
  events: EventView[];
  dated: EventView[];
  entities: EntityView[];
}) {
  const keptHints = useRef(new Map<number, StoryHints>());
  // Ages, lifespans and dependencies: a chunk of their own, loaded once a chronological view is shown.
  const [life, setLife] = useState<Lifespans | null>(null);
  useEffect(() => {
    if (chronological && !life) void import("../../../db/domain/lifespans").then(setLife);
  }, [chronological, life]);
  const time = useStoryTime(timelineId, shareCode, chronological, events);
  return useMemo(() => {
    const flags = new Map<number, ContinuityFlag[]>();
    const gaps = new Map<number, string | null>();
    if (chronological) {
      for (const flag of time?.continuityFlags(events, entities, time.calendar) ?? [])
        flags.set(flag.eventId, [...(flags.get(flag.eventId) ?? []), flag]);
      for (const flag of life?.lifeFlags(events, entities) ?? []) flags.set(flag.eventId, [...(flags.get(flag.eventId) ?? []), flag]);
      if (time) for (let i = 1; i < dated.length; i++) gaps.set(dated[i].id, time.storyGap(dated[i - 1], dated[i], time.calendar));
    }
    const cache = new WeakMap<EventView, StoryHints>();
    const kept = keptHints.current;
    return (event: EventView): StoryHints => {
      let found = cache.get(event);
      if (!found) {
        found = { gap: gaps.get(event.id) ?? null, flags: flags.get(event.id) ?? [], mentions: unlinkedMentions(event, entities) };
        if (chronological && life) found.ages = Object.fromEntries(life.sceneAges(event, entities));
        // What a card was told before, while it still holds: its memoized card does not render again.
        const before = kept.get(event.id);
        if (before && JSON.stringify(before) === JSON.stringify(found)) found = before;
        else kept.set(event.id, found);
        cache.set(event, found);
      }
      return found;
    };
  }, [chronological, events, entities, dated, life, time]);
}

/** The timeline's calendar and its gap and overlap arithmetic (a lazy chunk), once `active`. */
export function useStoryTime(timelineId: number, shareCode: string | null | undefined, active: boolean, events: EventView[]) {
  const [time, setTime] = useState<StoryTime | null>(null);
  useEffect(() => {
    if (!active) return;
    return whenIdleOnline(() => {
      void import("~/features/story-time/story-time-loader").then((m) => m.storyTimeFor(timelineId, shareCode, events)).then(setTime);
    }, 300);
  }, [active, timelineId, shareCode, events]);
  return time;
}
