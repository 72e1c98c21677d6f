import { useEffect, useRef, useState } from "react";
import type { TimelineLayout } from "~/features/timeline/timeline-view";
import type { EventView } from "../../../worker/services/events";

const notAList = (layout: TimelineLayout) =>
  layout === "lanes" || layout === "map" || layout === "grid" || layout === "ruler" || layout === "relationships";

/**
 * 'Jump to event' scrolls the chosen one into the window; from the lanes, the grid, the ruler or the map, the list
 * layout opens first. A notification's link (`?event=…&comment=…`) brings its scene into view the same way.
 */
export function useTimelineJump({
  layout,
  setLayout,
  searchParams,
}: {
  layout: TimelineLayout;
  setLayout: (layout: TimelineLayout) => void;
  searchParams: URLSearchParams;
}) {
  // The lists register a function that scrolls to one of their events (false if not theirs).
  const jumpers = useRef(new Set<(eventId: number) => boolean>()).current;
  const [pendingJump, setPendingJump] = useState<number | null>(null);
  const openFromLanes = (event: EventView) => {
    setLayout("vertical");
    setPendingJump(event.id);
  };
  const jumpTo = (event: EventView) => {
    if (notAList(layout)) return openFromLanes(event);
    for (const jump of jumpers) if (jump(event.id)) break;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the address the page opened with.
  useEffect(() => {
    const linked = Number(searchParams.get("event"));
    if (Number.isSafeInteger(linked) && linked > 0) setPendingJump(linked);
  }, []);
  useEffect(() => {
    if (pendingJump === null || notAList(layout)) return;
    for (const jump of jumpers) if (jump(pendingJump)) break;
    setPendingJump(null);
  }, [pendingJump, layout, jumpers]);
  return { jumpers, openFromLanes, jumpTo };
}
