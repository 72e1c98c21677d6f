import { useEffect, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { SIDE_PANEL_COOKIE, sidePanelHiddenIn } from "~/lib/side-panel-cookie";
import { Button } from "~/ui/button";

// The timeline screen's side column (Codex and Story Assistant): shown or hidden, kept in a cookie of this browser so
// the server's page is already drawn with the writer's choice (no open column flashing before hydration), and the
// Grid and the timeline body can take the full width. Wide screens only: on a phone the column already sits below
// the scenes ('Jump to Codex').

// Where the choice lived before the cookie: moved once, then removed.
const OLD_KEY = "storyweave:side-panel";

const writeCookie = (hidden: boolean) => {
  // A year; the whole site (the timeline opened by id or by share link).
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the app supports
  document.cookie = `${SIDE_PANEL_COOKIE}=${hidden ? "hidden" : "shown"}; Path=/; Max-Age=31536000; SameSite=Lax`;
};

/** Whether the side column is hidden in this browser; its setter. */
export function useSidePanelHidden() {
  const root = useRouteLoaderData("root") as { sidePanelHidden?: boolean } | undefined;
  // The server read the same cookie, so the first render matches its HTML; in the browser the cookie itself is read,
  // as the root's data is not reloaded on every navigation.
  const [hidden, setHidden] = useState(() =>
    typeof document === "undefined" ? Boolean(root?.sidePanelHidden) : sidePanelHiddenIn(document.cookie),
  );
  useEffect(() => {
    try {
      const old = window.localStorage.getItem(OLD_KEY);
      if (old === null) return;
      window.localStorage.removeItem(OLD_KEY);
      // The cookie, once set, is the newer choice.
      if (document.cookie.includes(`${SIDE_PANEL_COOKIE}=`)) return;
      writeCookie(old === "hidden");
      setHidden(old === "hidden");
    } catch {
      // Private browsing: nothing was kept.
    }
  }, []);
  const choose = (next: boolean) => {
    setHidden(next);
    writeCookie(next);
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
