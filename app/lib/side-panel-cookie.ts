// The timeline's side column hidden or shown ('Hide side panel'), kept in a cookie: the root loader reads it from the
// request so the server draws the column as the writer left it; the browser writes it (features/timeline/side-panel.tsx).

export const SIDE_PANEL_COOKIE = "storyweave-side-panel";

/** Whether a Cookie header (or document.cookie) says the side column is hidden. */
export function sidePanelHiddenIn(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => part.trim() === `${SIDE_PANEL_COOKIE}=hidden`);
}
