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
      // Bottom left: never over the navigation or a screen's toolbar (top) nor the help button
      // (bottom right); on a phone it stands above the help button's row.
      position="bottom-left"
      offset={{ bottom: 56, left: 24 }}
      mobileOffset={{ bottom: 88 }}
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
