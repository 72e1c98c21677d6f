import { type ReactNode, useId } from "react";
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
      <span id={id} className={cn("text-sm text-stone-600", noteClassName)}>
        {OFFLINE_MESSAGE}
      </span>
    ),
  };
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
}: Pick<ButtonProps, "variant" | "size" | "className" | "children"> & { to: string }) {
  const { offline, lock, note } = useOfflineLock();
  if (offline) {
    return (
      <>
        <Button variant={variant} size={size} className={className} {...lock}>
          {children}
        </Button>
        {note}
      </>
    );
  }
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link to={to}>{children}</Link>
    </Button>
  );
}
