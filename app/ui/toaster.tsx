import { useEffect, useState } from "react";
import { Toaster as Sonner, toast } from "sonner";
import { toasterReady } from "~/lib/toast";

// Sonner's own phone breakpoint: at most this wide, a toast takes the window's width.
const PHONE = "(max-width: 600px)";

/** Whether the window is phone-sized (the toaster is drawn in the browser only, after hydration). */
function usePhone() {
  const [phone, setPhone] = useState(() => typeof window !== "undefined" && window.matchMedia(PHONE).matches);
  useEffect(() => {
    const query = window.matchMedia(PHONE);
    setPhone(query.matches);
    const change = () => setPhone(query.matches);
    query.addEventListener("change", change);
    return () => query.removeEventListener("change", change);
  }, []);
  return phone;
}

/** The toast region, loaded after hydration by root.tsx. */
export default function Toaster() {
  // Runs after Sonner's own effect has subscribed to the toast store, so queued toasts are not lost.
  useEffect(() => toasterReady(toast), []);
  const phone = usePhone();
  return (
    <Sonner
      visibleToasts={1}
      duration={5000}
      // Nothing floats over text or toolbars. A wide window: top centre, over the navigation bar's empty middle
      // (its links stand left, the help button, bell and account right), clear of the page's title row, its
      // toolbars and the side column (Codex, Story Assistant). A phone, whose navigation bar is full: the window's
      // foot, the full width, above any bar fixed there (the Manuscript's status line, `--sw-bottom-bar`) and the
      // home indicator; the page's toolbars are at its top.
      position={phone ? "bottom-center" : "top-center"}
      offset={{ top: 8 }}
      mobileOffset={{
        bottom: "calc(12px + var(--sw-bottom-bar, 0px) + env(safe-area-inset-bottom, 0px))",
        left: 12,
        right: 12,
      }}
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
