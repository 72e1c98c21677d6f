import { useEffect } from "react";
import type { LayoutMenuProps, PanelsMenuProps } from "~/features/timeline/desk-menu-parts";
import { LayoutTrigger, PanelsTrigger } from "~/features/timeline/desk-menu-parts";
import { LazyPopup, onDemand } from "~/ui/lazy-popup";

const radixMenus = () => import("~/features/timeline/desk-menus-radix");
const layoutMenu = onDemand(() => radixMenus().then((m) => m.RadixLayoutMenu));
const panelsMenu = onDemand(() => radixMenus().then((m) => m.RadixPanelsMenu));

/**
 * The menus' code arrives soon after the page is up (and at once on hover, focus or a press), so they open
 * without a wait, offline too.
 */
function usePreloadMenus() {
  useEffect(() => {
    const timer = window.setTimeout(() => {
      void layoutMenu.load().catch(() => {});
      void panelsMenu.load().catch(() => {});
    }, 200);
    return () => window.clearTimeout(timer);
  }, []);
}

/** The layout menu: one button naming the current layout; its menu picks another (each stays in the address, `?layout=`). */
export function LayoutMenu(props: LayoutMenuProps) {
  usePreloadMenus();
  return <LazyPopup component={layoutMenu} props={props} haspopup="menu" trigger={(t) => <LayoutTrigger layout={props.layout} {...t} />} />;
}

/** The Panels menu: every dialog of the timeline screen in one place. */
export function PanelsMenu(props: PanelsMenuProps) {
  return <LazyPopup component={panelsMenu} props={props} haspopup="menu" trigger={(t) => <PanelsTrigger {...t} />} />;
}
