import { X } from "lucide-react";
import { AlertDialog as AD, Dialog as D } from "radix-ui";
import type { ReactNode } from "react";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { cn } from "~/lib/cn";

const overlay = "fixed inset-0 z-50 bg-black/40 data-[state=open]:animate-in";
const content =
  "fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-stone-200 bg-white p-6 shadow-xl max-h-[calc(100vh-2rem)] overflow-y-auto";

/**
 * The dialog's default width unless the caller gives its own `max-w-*` (both classes would otherwise be on the
 * element, and the stylesheet's order, not the caller, would decide: the History and Comments dialogs stayed narrow).
 */
const widthOf = (className: string | undefined) => (className && /(^|\s)max-w-/.test(className) ? null : "max-w-lg");

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className={overlay} />
        <D.Content className={cn(content, widthOf(className), className)} aria-describedby={description ? undefined : undefined}>
          <D.Title className="text-lg font-semibold">{title}</D.Title>
          {description ? (
            <D.Description className="mt-1 text-sm text-stone-600">{description}</D.Description>
          ) : (
            <D.Description className="sr-only">{title}</D.Description>
          )}
          <div className="mt-4">{children}</div>
          <D.Close asChild>
            <button type="button" aria-label="Close" className="absolute top-4 right-4 rounded p-1 text-stone-500 hover:bg-stone-100">
              <X aria-hidden="true" className="h-4 w-4" />
            </button>
          </D.Close>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
  needsNetwork = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  /**
   * The action needs the server and is not queued offline (deleting a timeline, restoring a version): while there is
   * no network its button is disabled saying 'You're offline' (`OnlineOnlyButton`), even in a dialog opened online.
   */
  needsNetwork?: boolean;
}) {
  const Confirm = needsNetwork ? OnlineOnlyButton : Button;
  return (
    <AD.Root open={open} onOpenChange={onOpenChange}>
      <AD.Portal>
        <AD.Overlay className={overlay} />
        <AD.Content className={cn(content, "max-w-lg")}>
          <AD.Title className="text-lg font-semibold">{title}</AD.Title>
          <AD.Description className="mt-2 text-sm text-stone-600">{description}</AD.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AD.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                Cancel
              </Button>
            </AD.Cancel>
            <Confirm
              variant="destructive"
              disabled={pending}
              onClick={(e) => {
                e.preventDefault();
                onConfirm();
              }}
            >
              {pending ? pendingLabel : confirmLabel}
            </Confirm>
          </div>
        </AD.Content>
      </AD.Portal>
    </AD.Root>
  );
}
