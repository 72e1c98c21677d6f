import { useId, useRef, useState } from "react";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { useOffline } from "~/features/offline/use-offline";
import { Button } from "~/ui/button";
import { Textarea } from "~/ui/input";
import { matchPeople, mentionQuery, usePeople } from "./mention-picker";

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
  // `@` offers the people who can read the timeline; choosing one writes `@Name `.
  const box = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const typing = mentionQuery(body, caret);
  const { people, myUserId } = usePeople(body.includes("@"));
  const offered = typing && dismissed !== typing.start ? matchPeople(people, typing.query, myUserId) : [];
  function mention(name: string) {
    if (!typing) return;
    const next = `${body.slice(0, typing.start)}@${name} ${body.slice(caret)}`;
    const at = typing.start + name.length + 2;
    setBody(next);
    setCaret(at);
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(at, at);
    });
  }
  const offline = useOffline();
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
        ref={box}
        id={id}
        value={body}
        rows={3}
        maxLength={5000}
        placeholder={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        autoFocus
        onChange={(e) => {
          setBody(e.target.value);
          setCaret(e.target.selectionStart);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (offered[0] && (e.key === "Enter" || e.key === "Tab") && !e.metaKey && !e.ctrlKey && !e.shiftKey) {
            e.preventDefault();
            return mention(offered[0].name);
          }
          // Comments are not queued: with no network the shortcut sends nothing either (the button says why).
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey) && !offline) void send();
          if (e.key === "Escape") {
            if (offered.length && typing) return setDismissed(typing.start);
            onCancel();
          }
        }}
      />
      {offered.length ? (
        <ul aria-label="Mention someone" className="flex flex-wrap gap-1" data-testid="mention-picker">
          {offered.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="rounded border border-stone-300 bg-white px-2 py-0.5 text-xs hover:bg-brand-50"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => mention(p.name)}
              >
                @{p.name}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <OnlineOnlyButton size="sm" onClick={() => void send()} disabled={busy}>
          {submit}
        </OnlineOnlyButton>
      </div>
    </div>
  );
}
