import { useEffect, useId, useRef, useState } from "react";
import { wordsText } from "~/features/manuscript/manuscript-context";

// Focus mode's session target (DESIGN §12): the words written since focus mode opened against a target the writer
// sets ('Session: 500 words'), with a progress bar. The target is remembered in this browser.

const KEY = "storyweave:session-target";
const DEFAULT_TARGET = 500;
const MAX_TARGET = 100_000;

function storedTarget() {
  if (typeof localStorage === "undefined") return DEFAULT_TARGET;
  const n = Number(localStorage.getItem(KEY));
  return Number.isInteger(n) && n > 0 && n <= MAX_TARGET ? n : DEFAULT_TARGET;
}

/** Shown while focus mode is on; `bookWords` is the book's live count, the session counting from its value at start. */
export function SessionTarget({ bookWords }: { bookWords: number }) {
  const start = useRef(bookWords);
  const [target, setTarget] = useState(storedTarget);
  const [editing, setEditing] = useState(false);
  const inputId = useId();
  const written = Math.max(0, bookWords - start.current);
  useEffect(() => {
    localStorage.setItem(KEY, String(target));
  }, [target]);

  return (
    <span className="inline-flex items-center gap-2" data-testid="session-target">
      {editing ? (
        <form
          className="inline-flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(new FormData(e.currentTarget).get("target"));
            if (Number.isInteger(n) && n > 0 && n <= MAX_TARGET) setTarget(n);
            setEditing(false);
          }}
        >
          <label htmlFor={inputId}>Session target</label>
          <input
            id={inputId}
            name="target"
            type="number"
            min={1}
            max={MAX_TARGET}
            defaultValue={target}
            // biome-ignore lint/a11y/noAutofocus: the field opens because the writer asked to change it.
            autoFocus
            onBlur={(e) => e.currentTarget.form?.requestSubmit()}
            className="h-7 w-20 rounded border border-stone-300 px-1"
          />
        </form>
      ) : (
        <button
          type="button"
          className="underline-offset-2 hover:underline"
          title="Change the session target"
          onClick={() => setEditing(true)}
        >
          Session: {wordsText(target)}
        </button>
      )}
      <progress
        className="h-2 w-24 accent-brand-600"
        max={target}
        value={Math.min(written, target)}
        aria-label="Session progress"
        aria-valuetext={`${written.toLocaleString("en-US")} of ${wordsText(target)}`}
      />
      <span>{written.toLocaleString("en-US")} written</span>
    </span>
  );
}
