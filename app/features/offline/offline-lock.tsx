import { type MouseEvent, type ReactNode, useId } from "react";
import { Link } from "react-router";
import { cn } from "~/lib/cn";
import { Button, type ButtonProps } from "~/ui/button";
import { useOffline } from "./use-offline";

/** What a control that needs the network says while there is none (DESIGN.md §12 'Write anywhere'). */
export const OFFLINE_MESSAGE = "You're offline";

type LockProps = { disabled?: true; "aria-disabled"?: true; title?: string; "aria-describedby"?: string };

/**
 * For sharing, billing, admin, AI, import and export. While offline, `lock` (spread last on the control) disables
 * it with the title 'You're offline' and points its description at `note`, a visible 'You're offline' to place
 * next to it (one note may serve several controls; a touch screen shows no title). Online, `lock` is empty and
 * `note` null: the controls are as before, and come back by themselves when the network returns.
 */
export function useOfflineLock(noteClassName?: string): { offline: boolean; lock: LockProps; note: ReactNode } {
  const offline = useOffline();
  const id = useId();
  if (!offline) return { offline, lock: {}, note: null };
  return {
    offline,
    lock: { disabled: true, "aria-disabled": true, title: OFFLINE_MESSAGE, "aria-describedby": id },
    note: (
      <span id={id} data-offline-note="" className={cn("text-sm text-stone-600", noteClassName)}>
        {OFFLINE_MESSAGE}
      </span>
    ),
  };
}

/**
 * The action button of a dialog (or form) whose action needs the server and is not queued by the outbox (New
 * Timeline, Edit Timeline, New Series, a delete confirmation, the calendar, Save as template, …). A dialog opened
 * online stays open when the network drops: while offline this button is disabled saying 'You're offline' (its
 * title, and a visible note before it that describes it), the dialog's typed values stay, and it comes back by itself
 * when the network returns. Online it is the plain `Button` (its own `disabled`, e.g. while pending, is kept).
 * Actions the outbox queues offline (scene, chapter and plotline changes) use a plain `Button`.
 */
export function OnlineOnlyButton({ noteClassName, ...props }: ButtonProps & { noteClassName?: string }) {
  const { offline, lock, note } = useOfflineLock(noteClassName ?? "self-center");
  if (!offline) return <Button {...props} />;
  return (
    <>
      {note}
      <Button {...props} {...lock} />
    </>
  );
}

/**
 * A screen that says 'You're offline' once (the timeline: `data-offline-notes="once"` on its main element) places this
 * where it is read; the notes of its locked controls are then not drawn (app.css), and still describe them.
 */
export function OfflineNote({ className }: { className?: string }) {
  const offline = useOffline();
  if (!offline) return null;
  return (
    <span data-offline-note="screen" className={cn("text-sm text-stone-600", className)}>
      {OFFLINE_MESSAGE}
    </span>
  );
}

/**
 * A button-styled link to something that needs the network (billing's 'Upgrade', the admin dashboard): offline,
 * a disabled button of the same name saying 'You're offline' instead (a link cannot be disabled).
 */
export function OnlineOnlyLink({
  to,
  children,
  variant,
  size,
  className,
  noteClassName,
  onClick,
  "aria-label": ariaLabel,
}: Pick<ButtonProps, "variant" | "size" | "className" | "children" | "aria-label"> & {
  to: string;
  noteClassName?: string;
  onClick?: (event: MouseEvent) => void;
}) {
  const { offline, lock, note } = useOfflineLock(noteClassName);
  if (offline) {
    return (
      <>
        <Button variant={variant} size={size} className={className} aria-label={ariaLabel} onClick={onClick} {...lock}>
          {children}
        </Button>
        {note}
      </>
    );
  }
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link to={to} onClick={onClick} aria-label={ariaLabel}>
        {children}
      </Link>
    </Button>
  );
}

/**
 * A link inside a sentence to something that needs the network ('Upgrade to Premium' in a notice): offline, the
 * same words as a disabled button saying 'You're offline', and the words 'You're offline' after it.
 */
export function OnlineOnlyTextLink({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  const { offline, lock, note } = useOfflineLock();
  if (!offline) {
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  }
  return (
    <>
      <button type="button" className={cn(className, "cursor-not-allowed no-underline opacity-60")} {...lock}>
        {children}
      </button>
      <span data-offline-note=""> ({note})</span>
    </>
  );
}
