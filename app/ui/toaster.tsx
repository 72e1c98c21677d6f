import { useEffect } from "react";
import { Toaster as Sonner, toast } from "sonner";
import { toasterReady } from "~/lib/toast";

/** The toast region, loaded after hydration by root.tsx. */
export default function Toaster() {
  // Runs after Sonner's own effect has subscribed to the toast store, so queued toasts are not lost.
  useEffect(() => toasterReady(toast), []);
  return (
    <Sonner
      visibleToasts={1}
      duration={5000}
      // Top centre, just below the sticky navigation: clear of form buttons (bottom), the
      // page actions (right) and the help button.
      position="top-center"
      offset={{ top: 72 }}
      mobileOffset={{ top: 68 }}
      closeButton
      toastOptions={{
        classNames: {
          toast: "!border-stone-300 !bg-white !text-ink",
          description: "!text-stone-700",
          error: "!border-red-300 !bg-red-50 !text-red-900",
          success: "!border-emerald-300",
        },
      }}
    />
  );
}
