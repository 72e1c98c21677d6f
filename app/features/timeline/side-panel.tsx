import { useEffect, useState } from "react";
import { Button } from "~/ui/button";

// The timeline screen's side column (Codex and Story Assistant): shown or hidden, kept in this browser, so the Grid
// and the timeline body can take the full width. Wide screens only: on a phone the column already sits below the
// scenes ('Jump to Codex').

const SIDE_KEY = "storyweave:side-panel";

const readHidden = (): boolean => {
  try {
    return window.localStorage.getItem(SIDE_KEY) === "hidden";
  } catch {
    return false;
  }
};

/** Whether the side column is hidden in this browser; its setter. */
export function useSidePanelHidden() {
  // Read after hydration: the server's page cannot know it.
  const [hidden, setHidden] = useState(false);
  useEffect(() => setHidden(readHidden()), []);
  const choose = (next: boolean) => {
    setHidden(next);
    try {
      window.localStorage.setItem(SIDE_KEY, next ? "hidden" : "shown");
    } catch {
      // Private browsing: the choice lasts for this page.
    }
  };
  return [hidden, choose] as const;
}

/** 'Hide side panel' | 'Show side panel'. */
export function SidePanelToggle({ hidden, onHidden }: { hidden: boolean; onHidden: (hidden: boolean) => void }) {
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      aria-expanded={!hidden}
      aria-controls="timeline-side-panel"
      onClick={() => onHidden(!hidden)}
    >
      {hidden ? "Show side panel" : "Hide side panel"}
    </Button>
  );
}
