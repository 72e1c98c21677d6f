import { useEffect, useState } from "react";
import { whenIdleOnline } from "~/lib/when-idle";

type ChapterKit = typeof import("~/features/chapters/chapter-kit");
type PlotlineKit = typeof import("~/features/plotlines/plotline-kit");
type ReviewKit = typeof import("~/features/review/review-kit");

/**
 * The timeline screen's kits, loaded when the browser is idle after hydration (none of them is in the first paint):
 * chapters, word counts, targets and structure (a timeline without chapters looks as it did); plotlines' manager
 * and filter (the chips come with the page); comments across the timeline, the cards' counts and the activity
 * list. Until then their buttons are disabled stand-ins of the same size (kit-stand-ins.tsx).
 */
export function useScreenKits() {
  const [chapters, setChapters] = useState<ChapterKit>();
  const [plotlines, setPlotlines] = useState<PlotlineKit>();
  const [review, setReview] = useState<ReviewKit>();
  useEffect(
    () =>
      whenIdleOnline(() => {
        void import("~/features/chapters/chapter-kit").then(setChapters, () => undefined);
        void import("~/features/plotlines/plotline-kit").then(setPlotlines, () => undefined);
        void import("~/features/review/review-kit").then(setReview, () => undefined);
      }, 1500),
    [],
  );
  return { chapters, plotlines, review };
}

export type ScreenKits = ReturnType<typeof useScreenKits>;
