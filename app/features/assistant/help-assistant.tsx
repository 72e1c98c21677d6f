import { MessageCircle, X } from "lucide-react";
import { Suspense, lazy, useState } from "react";

// The chat itself (replies, messages, form) loads on the first open.
const loadChat = () => import("~/features/assistant/help-chat");
const HelpChat = lazy(loadChat);

/**
 * The help button, docked in the navigation bar (beside the bell) rather than floating over the page: on a phone or
 * a desktop it covers no text, toolbar or control. Its chat opens below the bar, at the window's right.
 */
export function HelpAssistant() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        onPointerEnter={() => void loadChat()}
        onFocus={() => void loadChat()}
        onClick={() => {
          setOpened(true);
          setOpen((o) => !o);
        }}
        aria-label={open ? "Close help assistant" : "Open help assistant"}
        aria-expanded={open}
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white hover:bg-brand-700"
      >
        {open ? <X aria-hidden="true" className="h-5 w-5" /> : <MessageCircle aria-hidden="true" className="h-5 w-5" />}
      </button>
      {opened ? (
        <div className="fixed top-[4.5rem] right-4 z-40">
          <Suspense fallback={null}>
            <HelpChat open={open} onClose={() => setOpen(false)} />
          </Suspense>
        </div>
      ) : null}
    </>
  );
}
