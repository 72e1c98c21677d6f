import type { Editor } from "@tiptap/core";
import { type ReactNode, useLayoutEffect, useRef } from "react";
import type { CommentView } from "../../../worker/services/comments";
import { rangeOfAnchor } from "./comment-anchors";

// A comment box on selected text opens at the text: floating just below it (above it when the screen has no room
// below), always inside the screen, and following the text as the page scrolls.

type Anchor = NonNullable<CommentView["anchor"]>;

const GAP = 8;
/** Room kept free at the screen's foot (the Manuscript's status bar). */
const FOOT = 56;

/** Where the anchor's text is on screen now (null: not in the editor). */
function textRect(editor: Editor | null, anchor: Anchor) {
  if (!editor || editor.isDestroyed) return null;
  const range = rangeOfAnchor(editor.state, anchor);
  if (!range) return null;
  try {
    const a = editor.view.coordsAtPos(range.from);
    const b = editor.view.coordsAtPos(range.to);
    return { top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom), left: Math.min(a.left, b.left) };
  } catch {
    return null;
  }
}

/**
 * Where the box may be on screen: the window (less its foot), and inside a dialog only the dialog's own box. A dialog
 * is moved by a transform, so a fixed box in it is placed and clipped like an absolute one: below its foot it would be
 * cut off, with 'Post comment' out of reach (and every scroll to reach it would move the box again).
 */
function roomFor(el: HTMLElement) {
  const room = { top: GAP, left: GAP, bottom: window.innerHeight - FOOT, right: window.innerWidth - GAP };
  const dialog = el.parentElement?.closest('[role="dialog"]');
  if (!dialog) return room;
  const box = dialog.getBoundingClientRect();
  return {
    top: Math.max(room.top, box.top + GAP),
    left: Math.max(room.left, box.left + GAP),
    bottom: Math.min(window.innerHeight - GAP, box.bottom - GAP),
    right: Math.min(room.right, box.right - GAP),
  };
}

const clamp = (n: number, low: number, high: number) => Math.min(Math.max(n, low), Math.max(low, high));

export function AtSelection({ editor, anchor, children }: { editor: Editor | null; anchor: Anchor; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const scrolled = useRef(false);
  const first = textRect(editor, anchor);
  useLayoutEffect(() => {
    const place = () => {
      const el = ref.current;
      const rect = textRect(editor, anchor);
      if (!el || !rect) return;
      // A dialog's transform moves fixed boxes with it: measured from where (0, 0) lands.
      el.style.top = "0px";
      el.style.left = "0px";
      const origin = el.getBoundingClientRect();
      const room = roomFor(el);
      let top = rect.bottom + GAP;
      if (top + origin.height > room.bottom) top = rect.top - origin.height - GAP;
      top = clamp(top, room.top, room.bottom - origin.height);
      const left = clamp(rect.left, room.left, room.right - origin.width);
      el.style.top = `${top - origin.top}px`;
      el.style.left = `${left - origin.left}px`;
    };
    // Opened near the screen's foot: the text is brought up first, so the box opens below it and covers no text.
    const el = ref.current;
    const rect = textRect(editor, anchor);
    if (!scrolled.current && el && rect && editor) {
      scrolled.current = true;
      const height = el.getBoundingClientRect().height;
      if (rect.bottom + GAP + height > roomFor(el).bottom) {
        const range = rangeOfAnchor(editor.state, anchor);
        const at = range ? editor.view.domAtPos(range.from).node : null;
        const block = at instanceof Element ? at : at?.parentElement;
        block?.scrollIntoView({ block: "center" });
      }
    }
    place();
    window.addEventListener("scroll", place, true);
    window.addEventListener("resize", place);
    return () => {
      window.removeEventListener("scroll", place, true);
      window.removeEventListener("resize", place);
    };
  });
  // The text is not in an editor on screen: the box stays where it is in the page.
  if (!first) return <>{children}</>;
  return (
    <div
      ref={ref}
      data-testid="comment-popover"
      className="fixed z-50 w-[min(22rem,calc(100vw-1rem))] rounded-md border border-stone-300 bg-white font-sans text-sm shadow-lg"
      style={{ top: first.bottom + GAP, left: first.left }}
    >
      {children}
    </div>
  );
}
