import { useEffect, useState } from "react";
import { Button } from "~/ui/button";
import { cn } from "~/lib/cn";

// The editor's mode, Editing or Suggesting, kept in this browser; its switch. Light: the Manuscript page shows the
// switch before any editor (and the suggestion library) has loaded.

export type EditorMode = "editing" | "suggesting";
const MODE_KEY = "storyweave:editor-mode";

const readMode = (): EditorMode => {
  try {
    return window.localStorage.getItem(MODE_KEY) === "suggesting" ? "suggesting" : "editing";
  } catch {
    return "editing";
  }
};

/** My mode, kept in this browser. */
export function useStoredMode() {
  // Read after hydration: the server's page cannot know it.
  const [mode, setMode] = useState<EditorMode>("editing");
  useEffect(() => setMode(readMode()), []);
  const choose = (next: EditorMode) => {
    setMode(next);
    try {
      window.localStorage.setItem(MODE_KEY, next);
    } catch {
      // Private browsing: the mode lasts for this page.
    }
  };
  return [mode, choose] as const;
}

/** 'Editing' | 'Suggesting'. */
export function ModeSwitch({ mode, onMode, disabled }: { mode: EditorMode; onMode: (m: EditorMode) => void; disabled?: boolean }) {
  const option = (value: EditorMode, label: string) => (
    <Button
      type="button"
      size="sm"
      variant="ghost"
      aria-pressed={mode === value}
      disabled={disabled}
      className={cn("h-8 px-2", mode === value && "bg-brand-100 text-brand-700")}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onMode(value)}
    >
      {label}
    </Button>
  );
  return (
    <fieldset className="flex gap-1 rounded-md border border-stone-200 p-0.5">
      <legend className="sr-only">Editor mode</legend>
      {option("editing", "Editing")}
      {option("suggesting", "Suggesting")}
    </fieldset>
  );
}
