import type { LayoutMenuProps, PanelsMenuProps } from "~/features/timeline/desk-menu-parts";
import { LayoutTrigger, PanelsTrigger } from "~/features/timeline/desk-menu-parts";
import { LazyPopup, onDemand } from "~/ui/lazy-popup";

// The Layout and Panels menus as the Export menu: their buttons render with the page, the radix menus behind them
// (desk-menus-radix.tsx) load on the first hover, focus or press of either button; the press that loaded one opens it.
const radixMenus = () => import("~/features/timeline/desk-menus-radix");
const layoutMenu = onDemand(() => radixMenus().then((m) => m.RadixLayoutMenu));
const panelsMenu = onDemand(() => radixMenus().then((m) => m.RadixPanelsMenu));

/** The layout menu: one button naming the current layout; its menu picks another (each stays in the address, `?layout=`). */
export function LayoutMenu(props: LayoutMenuProps) {
  return <LazyPopup component={layoutMenu} props={props} haspopup="menu" trigger={(t) => <LayoutTrigger layout={props.layout} {...t} />} />;
}

/** The Panels menu: every dialog of the timeline screen in one place. */
export function PanelsMenu(props: PanelsMenuProps) {
  return <LazyPopup component={panelsMenu} props={props} haspopup="menu" trigger={(t) => <PanelsTrigger {...t} />} />;
}
