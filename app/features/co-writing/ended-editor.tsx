import { useId, useRef } from "react";
import { Button } from "~/ui/button";
import { Label } from "~/ui/input";
import { showToast } from "~/lib/toast";

/**
 * My access ended while I was writing: why, and my text as it stands in this browser (saved or not) in a
 * read-only box to copy from.
 */
export function EndedEditor({ why, text, onClose }: { why: string; text: string; onClose: () => void }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      showToast({ title: "Copied to clipboard!" });
    } catch {
      // No clipboard (an insecure page, a refused permission): the text is selected for a manual copy.
      box.current?.focus();
      box.current?.select();
    }
  }
  return (
    <div className="space-y-3" data-testid="co-editor-ended">
      <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950">
        {why}
      </p>
      <div className="space-y-1.5">
        <Label htmlFor={id}>Your text</Label>
        <textarea
          ref={box}
          id={id}
          readOnly
          value={text}
          rows={Math.min(12, Math.max(4, text.split("\n").length + 1))}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full rounded-md border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
        />
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onClose}>
          Close
        </Button>
        <Button size="sm" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
    </div>
  );
}
