import { type ComponentProps, lazy, Suspense, useState } from "react";

// radix Dialog (focus scope, dismissable layer, scroll lock) loads when a dialog first opens,
// not with the page. Every dialog here is controlled: closed and never opened, it renders nothing.
const RadixDialog = lazy(() => import("~/ui/dialog-radix").then((m) => ({ default: m.Dialog })));
const RadixConfirmDialog = lazy(() => import("~/ui/dialog-radix").then((m) => ({ default: m.ConfirmDialog })));

/** True once `open` has been true: the dialog then stays mounted so radix can close it (focus, animation). */
function useOpened(open: boolean) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export function Dialog(props: ComponentProps<typeof RadixDialog>) {
  if (!useOpened(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <RadixDialog {...props} />
    </Suspense>
  );
}

export function ConfirmDialog(props: ComponentProps<typeof RadixConfirmDialog>) {
  if (!useOpened(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <RadixConfirmDialog {...props} />
    </Suspense>
  );
}
