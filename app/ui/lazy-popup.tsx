import {
  type ComponentType,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";

/** A component whose code arrives on demand; `get()` is set once loaded, so remounts render it at once. */
export type OnDemand<P> = { get: () => ComponentType<P> | undefined; load: () => Promise<ComponentType<P>> };

export function onDemand<P>(loader: () => Promise<ComponentType<P>>): OnDemand<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  return {
    get: () => loaded,
    load: () => {
      pending ??= loader().then(
        (component) => {
          loaded = component;
          return component;
        },
        (error) => {
          pending = undefined; // a failed chunk load may be retried by the next hover
          throw error;
        },
      );
      return pending;
    },
  };
}

/** What the plain trigger (before the popup code has loaded) spreads onto its button: radix's closed-state attributes and the loading handlers. */
export type PlainTriggerProps = {
  "aria-haspopup": "menu" | "dialog";
  "aria-expanded": false;
  "data-state": "closed";
  onPointerEnter: () => void;
  onFocus: () => void;
  onPointerDown: (event: PointerEvent) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  onClick: () => void;
};

/** The keys that open a radix menu from its trigger (radix's DropdownMenu.Trigger: Enter and Space toggle, ArrowDown opens). */
const OPENING_KEYS = ["Enter", " ", "ArrowDown"];
const triggerIn = (box: HTMLElement | null) => box?.querySelector<HTMLElement>("button, a");

/**
 * A radix menu/popover whose code loads on first use. Until then its trigger renders without radix, with the
 * same name and look; hovering, focusing or pressing it loads the real component, which then replaces it. The
 * press that started loading is not lost: a click (or Enter, Space, ArrowDown on a popover's button) mounts the
 * real one already open; a menu's opening key is handed to the real trigger once radix runs, so the menu opens as
 * from the keyboard (its first item focused). Keyboard focus moves onto the real trigger.
 */
export function LazyPopup<P extends object>({
  component,
  props,
  haspopup,
  trigger,
}: {
  component: OnDemand<P & { defaultOpen?: boolean }>;
  props: P;
  haspopup: "menu" | "dialog";
  trigger: (props: PlainTriggerProps) => ReactNode;
}) {
  const [Real, setReal] = useState(() => component.get());
  const wantOpen = useRef(false);
  /** A menu's opening key pressed before its code had arrived. */
  const wantKey = useRef<string | null>(null);
  const hadFocus = useRef(false);
  const box = useRef<HTMLSpanElement>(null);

  const load = () => {
    if (Real) return;
    component.load().then(
      (loaded) => {
        hadFocus.current = !!box.current?.contains(document.activeElement);
        setReal(() => loaded);
      },
      () => {}, // offline: the stand-in stays; the next hover tries again
    );
  };
  const open = () => {
    if (wantKey.current === null) wantOpen.current = true;
    load();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!OPENING_KEYS.includes(event.key)) return;
    if (haspopup === "dialog") return open();
    // As radix's trigger does: the key is the menu's (no click follows it).
    event.preventDefault();
    wantOpen.current = false;
    wantKey.current = event.key;
    load();
  };

  // In the commit that swaps the stand-in for the real trigger (a layout effect, not a later one), so no key
  // press can land in between on a focus lost with the stand-in's button. An open menu focuses its content
  // itself (and gives focus back to the trigger when it closes).
  useLayoutEffect(() => {
    if (Real && ((hadFocus.current && !wantOpen.current) || wantKey.current !== null)) triggerIn(box.current)?.focus();
  }, [Real]);
  // After the real popup's own effects (radix's menu starts listening for keys in one): the key that asked for it.
  useEffect(() => {
    const key = wantKey.current;
    if (!Real || key === null) return;
    wantKey.current = null;
    triggerIn(box.current)?.dispatchEvent(new globalThis.KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  }, [Real]);

  return (
    <span ref={box} className="contents">
      {Real ? (
        <Real {...props} defaultOpen={wantOpen.current} />
      ) : (
        trigger({
          "aria-haspopup": haspopup,
          "aria-expanded": false,
          "data-state": "closed",
          onPointerEnter: load,
          onFocus: load,
          // radix menus open on a primary mouse press; touch opens on the click that follows.
          onPointerDown: (event) => (event.pointerType === "mouse" && event.button === 0 ? open() : load()),
          onKeyDown,
          onClick: open,
        })
      )}
    </span>
  );
}
