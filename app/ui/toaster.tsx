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
      // Bottom right, stacked above the help button (bottom right, 56 px from 20 px): clear of the navigation, the
      // page's title row and toolbars (top) and of the help button; the manuscript's last line scrolls clear of both
      // (its page ends in a deep margin). A phone: the full width, above the help button.
      position="bottom-right"
      offset={{ bottom: 92, right: 20 }}
      mobileOffset={{ bottom: 88, left: 12, right: 12 }}
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
