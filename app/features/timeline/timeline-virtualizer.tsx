/**
 * The event list's virtualizers (@tanstack/react-virtual), loaded after the first paint: timeline-events.tsx
 * renders this beside its rows, so adding it remounts nothing, and draws its rows from the instance it hands up.
 */
import { useVirtualizer, useWindowVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { type RefObject, useLayoutEffect } from "react";
import { CARD, GAP, INITIAL_RECT, OVERSCAN, ROW } from "~/features/timeline/first-rows";

type HostProps<TScroll extends Element | Window> = {
  count: number;
  enabled: boolean;
  getItemKey: (index: number) => string | number;
  /** The list re-renders itself from here (the rows are its own), so the host never needs a synchronous render. */
  onChange: (instance: Virtualizer<TScroll, HTMLLIElement>, sync: boolean) => void;
  onReady: (instance: Virtualizer<TScroll, HTMLLIElement> | null) => void;
};

function useHandUp<TScroll extends Element | Window>(
  instance: Virtualizer<TScroll, HTMLLIElement>,
  onReady: HostProps<TScroll>["onReady"],
) {
  useLayoutEffect(() => {
    onReady(instance);
    return () => onReady(null);
  }, [instance, onReady]);
}

const estimateRow = () => ROW;
const estimateCard = () => CARD;

/** The vertical list: the window scrolls; `margin` is where the list starts on the page. */
export function WindowVirtualizer({ margin, onReady, ...options }: HostProps<Window> & { margin: number }) {
  const instance = useWindowVirtualizer<HTMLLIElement>({
    ...options,
    estimateSize: estimateRow,
    gap: GAP,
    overscan: OVERSCAN.vertical,
    scrollMargin: margin,
    initialRect: INITIAL_RECT,
    useFlushSync: false,
  });
  useHandUp(instance, onReady);
  return null;
}

/** The horizontal list: its own element scrolls. */
export function ElementVirtualizer({
  scroller,
  onReady,
  ...options
}: HostProps<HTMLDivElement> & { scroller: RefObject<HTMLDivElement | null> }) {
  const instance = useVirtualizer<HTMLDivElement, HTMLLIElement>({
    ...options,
    horizontal: true,
    getScrollElement: () => scroller.current,
    estimateSize: estimateCard,
    gap: GAP,
    overscan: OVERSCAN.horizontal,
    initialRect: INITIAL_RECT,
    useFlushSync: false,
  });
  useHandUp(instance, onReady);
  return null;
}
