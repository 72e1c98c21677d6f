import { MessageCircle, X } from "lucide-react";
import { Suspense, lazy, useState } from "react";

// The chat itself (replies, messages, form) loads on the first open.
const loadChat = () => import("~/features/assistant/help-chat");
const HelpChat = lazy(loadChat);

export function HelpAssistant() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <div className="fixed right-5 bottom-5 z-40 flex flex-col items-end gap-3">
      {opened ? (
        <Suspense fallback={null}>
          <HelpChat open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
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
        className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg hover:bg-brand-700"
      >
        {open ? <X aria-hidden="true" className="h-6 w-6" /> : <MessageCircle aria-hidden="true" className="h-6 w-6" />}
      </button>
    </div>
  );
}
