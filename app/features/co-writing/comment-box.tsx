import { useId, useState } from "react";
import { Button } from "~/ui/button";
import { Textarea } from "~/ui/input";

/** A comment's text box (new comment, reply or edit); the server's rules are checked here first, in its words. */
type BoxProps = {
  label: string;
  quote?: string;
  initial?: string;
  submit: string;
  onSubmit: (body: string) => Promise<boolean>;
  onCancel: () => void;
};

export function CommentBox({ label, quote, initial = "", submit, onSubmit, onCancel }: BoxProps) {
  const id = useId();
  const [body, setBody] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send() {
    const text = body.trim();
    if (!text) return setError("Comment cannot be empty");
    if (text.length > 5000) return setError("Comment must be 5,000 characters or less");
    setBusy(true);
    setError(null);
    await onSubmit(text);
    setBusy(false);
  }
  return (
    <div className="space-y-1.5 rounded-md bg-stone-50 p-2" data-testid="comment-box">
      {quote ? <p className="line-clamp-2 text-xs text-stone-600 italic">“{quote}”</p> : null}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Textarea
        id={id}
        value={body}
        rows={3}
        maxLength={5000}
        placeholder={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        autoFocus
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) void send();
          if (e.key === "Escape") onCancel();
        }}
      />
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button size="sm" onClick={() => void send()} disabled={busy}>
          {submit}
        </Button>
      </div>
    </div>
  );
}
