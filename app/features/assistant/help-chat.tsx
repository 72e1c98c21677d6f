import { Send, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "~/lib/cn";

/** The full assistant lives outside the product; it opens in a new tab. */
export const FULL_ASSISTANT_URL = "https://storyweave.zapier.app/assistant";
export const TYPING_DELAY_MS = 1000;
const OPEN_CHATBOT = "Yes, open StoryWeave chatbot";

type ChatMessage = { text: string; isUser: boolean; options?: string[] };

const greeting: ChatMessage = {
  text: "Hi! I'm the StoryWeave Assistant. What can I help you with today?",
  isUser: false,
  options: ["Timelines", "Writer's Unblock", "Collaboration", "Account settings"],
};

type Reply = { keywords: string[]; text: string; options?: string[] };

// Keyword groups, checked in order; the first group with a matching word answers.
const replies: Reply[] = [
  {
    keywords: ["advanced", "zapier", "more help"],
    text: "For advanced questions our full assistant can dig deeper. Would you like to open it?",
    options: [OPEN_CHATBOT, "No, thanks"],
  },
  {
    keywords: ["timeline"],
    text:
      "Timelines hold your story's events in order. Open Timeline, click New Timeline, then Add Event. " +
      "Drag events (or use the keyboard) to reorder them, and switch between vertical and horizontal layouts.",
  },
  {
    keywords: ["writer", "unblock", "block"],
    text:
      "Writer's Unblock has three tools: Story Ideas from a prompt, Enhance Text to polish a passage, and " +
      "Character Profiles from a short description. Free accounts get 3 AI uses per session; Premium is unlimited.",
  },
  {
    keywords: ["collaborate", "share", "team"],
    text:
      "Premium owners can share a timeline by link or with a co-writer's email, as Viewer or Collaborator. " +
      "Everyone on the timeline sees edits and who is online live.",
  },
  {
    keywords: ["account", "settings", "profile"],
    text:
      "Your Account page shows your name, email, plan and renewal date. From there you can upgrade to " + "Premium or switch back to Free.",
  },
  {
    keywords: ["help", "support", "contact"],
    text:
      "I can explain timelines, Writer's Unblock, collaboration and your account. For anything else, " +
      "ask for more help and I'll open the full assistant.",
    options: ["More help"],
  },
  {
    keywords: ["hello", "hi", "hey"],
    text: "Hello! Ask me about timelines, Writer's Unblock, collaboration or your account.",
  },
];

const fallback: ChatMessage = {
  text:
    "I'm not sure about that one. I can help with timelines, Writer's Unblock, collaboration and account " +
    "settings, or open the full assistant for more help.",
  isUser: false,
  options: ["Timelines", "Writer's Unblock", "More help"],
};

export function replyTo(input: string): ChatMessage {
  const text = input.toLowerCase();
  const words = new Set(text.split(/[^a-z']+/).filter(Boolean));
  const matches = (keyword: string) =>
    keyword.includes(" ")
      ? text.includes(keyword)
      : [...words].some((w) => w === keyword || (keyword.length >= 4 && w.startsWith(keyword)));
  const hit = replies.find((r) => r.keywords.some(matches));
  return hit ? { text: hit.text, isUser: false, options: hit.options } : fallback;
}

/**
 * The assistant's chat panel, loaded on the first open. It stays mounted once opened (rendering
 * nothing while closed), so the conversation survives closing and reopening.
 */
export default function HelpChat({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [messages, setMessages] = useState<ChatMessage[]>([greeting]);
  const [input, setInput] = useState("");
  const [typing, setTyping] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest message whenever one arrives or the typing dots appear
  useEffect(() => {
    listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  }, [messages, typing]);

  function send(text: string) {
    const trimmed = text.trim();
    if (!trimmed || typing) return;
    if (trimmed === OPEN_CHATBOT) {
      window.open(FULL_ASSISTANT_URL, "_blank", "noopener,noreferrer");
    }
    setMessages((m) => [...m, { text: trimmed, isUser: true }]);
    setInput("");
    setTyping(true);
    timer.current = setTimeout(() => {
      const reply = trimmed === OPEN_CHATBOT ? { text: "I've opened the full assistant in a new tab.", isUser: false } : replyTo(trimmed);
      setMessages((m) => [...m, reply]);
      setTyping(false);
    }, TYPING_DELAY_MS);
  }

  if (!open) return null;
  return (
    <section
      aria-label="StoryWeave Assistant"
      className="flex h-[500px] max-h-[calc(100vh-6rem)] w-[350px] max-w-[calc(100vw-2.5rem)] flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-2xl"
    >
      <header className="flex items-center justify-between bg-brand-600 px-4 py-3 text-white">
        <h2 className="font-semibold">StoryWeave Assistant</h2>
        <button type="button" onClick={onClose} aria-label="Close assistant" className="rounded p-1 hover:bg-white/20">
          <X aria-hidden="true" className="h-4 w-4" />
        </button>
      </header>
      <div ref={listRef} className="flex-1 space-y-3 overflow-y-auto p-4" aria-live="polite">
        {messages.map((m, i) => (
          <div key={i} className={cn("flex flex-col", m.isUser ? "items-end" : "items-start")}>
            <p className={cn("max-w-[85%] rounded-2xl px-3 py-2 text-sm", m.isUser ? "bg-brand-600 text-white" : "bg-stone-100 text-ink")}>
              {m.text}
            </p>
            {m.options && i === messages.length - 1 ? (
              <div className="mt-2 flex flex-wrap gap-2">
                {m.options.map((o) => (
                  <button
                    key={o}
                    type="button"
                    disabled={typing}
                    onClick={() => send(o)}
                    className="rounded-full border border-brand-600 px-3 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-50"
                  >
                    {o}
                  </button>
                ))}
              </div>
            ) : null}
          </div>
        ))}
        {typing ? (
          <p className="w-fit rounded-2xl bg-stone-100 px-3 py-2 text-sm text-stone-600">
            <span className="sr-only">Assistant is typing</span>
            <span aria-hidden="true">Typing…</span>
          </p>
        ) : null}
      </div>
      <div className="border-t border-stone-200 px-4 pt-2 text-center">
        <a
          href={FULL_ASSISTANT_URL}
          target="_blank"
          rel="noopener noreferrer"
          className="text-xs font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          Need more help? Open full assistant
        </a>
      </div>
      <form
        className="flex gap-2 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          send(input);
        }}
      >
        <input
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="Type your message..."
          aria-label="Message"
          maxLength={500}
          className="h-10 flex-1 rounded-md border border-stone-300 px-3 text-sm"
        />
        <button
          type="submit"
          disabled={typing || !input.trim()}
          aria-label="Send message"
          className="inline-flex h-10 w-10 items-center justify-center rounded-md bg-brand-600 text-white disabled:opacity-50"
        >
          <Send aria-hidden="true" className="h-4 w-4" />
        </button>
      </form>
    </section>
  );
}
