/**
 * Closing a card's editor (Save or Cancel) swaps a tall editor for the shorter read-mode card. Left alone, the
 * browser's scroll anchoring and the list's virtualizer (which re-measures the row a frame later) move the page,
 * and the focused Save button disappears, so focus falls to <body>. Here the card's top stays where it was on
 * screen and focus goes to the card's Edit button: the writer's eyes and keyboard stay on the scene.
 */
import { flushSync } from "react-dom";

/** How long the card is held in place while the list settles (the virtualizer measures on the next frames). */
const HOLD_MS = 600;
/** A read-mode card whose top was out of sight is shown from its top instead, this far below the sticky top bar. */
const MARGIN = 12;
const USER_INPUT = ["wheel", "touchstart", "pointerdown", "keydown"] as const;

/** Closes the card's editor (`setEditing(false)`) and keeps the card where it was on screen, focus on its Edit button. */
export function closeInPlace(card: HTMLElement | null, setEditing: (editing: boolean) => void) {
  const before = card?.getBoundingClientRect().top;
  flushSync(() => setEditing(false));
  if (!card?.isConnected || before === undefined) return;
  const edit = card.querySelector<HTMLElement>('button[title="Edit event"]');
  (edit ?? card).focus({ preventScroll: true });
  holdTop(card, before);
}

function targetTop(card: HTMLElement, before: number) {
  // The top bar stays on screen (sticky): what is under it is out of sight.
  const inset = (document.querySelector("header")?.getBoundingClientRect().bottom ?? 0) + MARGIN;
  // Its top was in sight: it stays there. Else (the writer had scrolled down to Save) the card shows from its top.
  if (before >= inset - MARGIN && before <= window.innerHeight - MARGIN * 4) return before;
  return Math.min(Math.max(before, inset), Math.max(inset, window.innerHeight - card.getBoundingClientRect().height - MARGIN));
}

function holdTop(card: HTMLElement, before: number) {
  const target = targetTop(card, before);
  const correct = () => {
    const delta = card.getBoundingClientRect().top - target;
    if (Math.abs(delta) >= 1) window.scrollBy({ top: delta, behavior: "instant" });
  };
  correct();
  const until = performance.now() + HOLD_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const name of USER_INPUT) window.removeEventListener(name, stop, { capture: true });
    window.removeEventListener("scroll", onScroll);
  };
  // A scroll the writer did not make (anchoring, the virtualizer's size correction) is undone at once.
  const onScroll = () => (card.isConnected ? correct() : stop());
  const tick = () => {
    if (!card.isConnected || performance.now() > until) return stop();
    correct();
    frame = requestAnimationFrame(tick);
  };
  for (const name of USER_INPUT) window.addEventListener(name, stop, { capture: true, passive: true });
  window.addEventListener("scroll", onScroll, { passive: true });
  frame = requestAnimationFrame(tick);
}
