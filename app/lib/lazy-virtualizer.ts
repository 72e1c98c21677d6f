import type { Virtualizer, VirtualizerOptions } from "@tanstack/virtual-core";
import { useEffect, useLayoutEffect, useReducer, useState, useSyncExternalStore } from "react";
import { flushSync } from "react-dom";

/**
 * Issue 11: the timeline's event list without @tanstack/virtual-core (11 KB gzip) before its first paint.
 * Until the core is loaded, the list is the rows a virtualizer shows at the first render (those in
 * `initialRect`, plus the overscan) over the full estimated size, which is also what the server renders;
 * the core loads on the first scroll, press, key or focus on the page (or a `scrollToIndex`), and from then
 * on this is @tanstack/react-virtual's `useVirtualizer`/`useWindowVirtualizer` (same options, same instance).
 */
type Core = typeof import("@tanstack/virtual-core");

let core: Core | undefined;
let loading: Promise<Core> | undefined;
const listeners = new Set<() => void>();

function loadCore() {
  loading ??= import("@tanstack/virtual-core").then((m) => {
    core = m;
    for (const listener of listeners) listener();
    return m;
  });
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export type LazyOptions<TScroll extends Element | Window, TItem extends Element> = Pick<
  VirtualizerOptions<TScroll, TItem>,
  "count" | "estimateSize" | "getItemKey" | "gap" | "overscan" | "horizontal" | "scrollMargin" | "initialRect" | "enabled"
> & { getScrollElement?: () => TScroll | null };

type Item = { key: string | number | bigint; index: number; start: number; end: number; size: number; lane: number };

/** What the list reads of a virtualizer (the real one, or the first-render stand-in). */
export type VirtualList<TItem extends Element> = {
  getVirtualItems: () => Item[];
  getTotalSize: () => number;
  measureElement: (node: TItem | null) => void;
  scrollToIndex: (index: number, options?: { align?: "start" | "center" | "end" | "auto" }) => void;
  /** Only on the first-render stand-in (false): nothing is measured or observed until the core is here. */
  live?: false;
};

/** The stand-in's row ref: the same function on every render, so memoized rows keep their props. */
const measureNothing = () => {};

/** The rows a virtualizer renders before it has measured anything (from `initialRect`, offset 0). */
function firstRender<TItem extends Element>(options: LazyOptions<Element | Window, TItem>, onScrollTo: (index: number) => void) {
  const { count, estimateSize, getItemKey, gap = 0, overscan = 1, horizontal = false, scrollMargin = 0, enabled = true } = options;
  const viewport = horizontal ? (options.initialRect?.width ?? 0) : (options.initialRect?.height ?? 0);
  const items: Item[] = [];
  let total = 0;
  if (enabled && count > 0) {
    let start = scrollMargin;
    let visible = 0;
    for (let i = 0; i < count; i++) {
      const size = estimateSize(i);
      if (start - scrollMargin < viewport) visible = i + 1;
      else if (i >= visible + overscan) {
        // The rest only adds to the size.
        start += (count - i) * (size + gap);
        break;
      }
      if (i < visible + overscan) items.push({ key: getItemKey ? getItemKey(i) : i, index: i, start, end: start + size, size, lane: 0 });
      start += size + gap;
    }
    total = start - gap - scrollMargin;
  }
  return {
    getVirtualItems: () => items,
    getTotalSize: () => total,
    measureElement: measureNothing,
    scrollToIndex: (index: number) => onScrollTo(index),
    live: false,
  } satisfies VirtualList<TItem>;
}

/**
 * `useWindowVirtualizer` (window: true) or `useVirtualizer`, with the core loaded on the first interaction.
 * The hooks called are the same before and after the core arrives, so the list keeps its rows and state.
 */
export function useLazyVirtualizer<TScroll extends Element | Window, TItem extends Element>(
  window: boolean,
  options: LazyOptions<TScroll, TItem>,
): VirtualList<TItem> {
  const loaded = useSyncExternalStore(
    subscribe,
    () => core,
    () => undefined,
  );
  const rerender = useReducer((x: number) => x + 1, 0)[1];
  const [held] = useState<{ instance?: Virtualizer<TScroll, TItem>; jump?: number; measuring: boolean }>({ measuring: false });
  const first = loaded
    ? undefined
    : firstRender<TItem>(options as LazyOptions<Element | Window, TItem>, (index) => {
        held.jump = index;
        void loadCore();
      });

  // A list that shows everything at the first render never needs the core.
  const needed = first !== undefined && first.getVirtualItems().length < options.count;
  useEffect(() => {
    if (loaded || !needed) return;
    const events = ["scroll", "wheel", "touchstart", "pointerdown", "keydown", "focusin"] as const;
    const load = () => void loadCore();
    for (const name of events) globalThis.addEventListener(name, load, { capture: true, passive: true, once: true });
    return () => {
      for (const name of events) globalThis.removeEventListener(name, load, { capture: true });
    };
  }, [loaded, needed]);

  let instance = held.instance;
  if (loaded) {
    const resolved = {
      ...(window
        ? {
            getScrollElement: () => globalThis.window as unknown as TScroll,
            observeElementRect: loaded.observeWindowRect,
            observeElementOffset: loaded.observeWindowOffset,
            scrollToFn: loaded.windowScroll,
            initialOffset: () => globalThis.scrollY,
          }
        : {
            getScrollElement: () => null,
            observeElementRect: loaded.observeElementRect,
            observeElementOffset: loaded.observeElementOffset,
            scrollToFn: loaded.elementScroll,
          }),
      ...options,
      // As @tanstack/react-virtual does: a synchronous re-render on scroll, never from inside a ref callback.
      onChange: (_: Virtualizer<TScroll, TItem>, sync: boolean) => (sync && !held.measuring ? flushSync(rerender) : rerender()),
    } as VirtualizerOptions<TScroll, TItem>;
    if (!instance) {
      const created = new loaded.Virtualizer<TScroll, TItem>(resolved);
      const measure = created.measureElement;
      created.measureElement = (node) => {
        held.measuring = true;
        try {
          measure(node);
        } finally {
          held.measuring = false;
        }
      };
      instance = created;
      held.instance = created;
    }
    instance.setOptions(resolved);
  }
  useLayoutEffect(() => {
    if (!instance) return;
    const unmount = instance._didMount();
    // A 'Jump to event' asked for before the core was here.
    if (held.jump !== undefined) {
      instance.scrollToIndex(held.jump, { align: "center" });
      held.jump = undefined;
    }
    return unmount;
  }, [instance, held]);
  useLayoutEffect(() => instance?._willUpdate());

  return (instance as unknown as VirtualList<TItem> | undefined) ?? (first as VirtualList<TItem>);
}
