import { useCallback, useEffect, useRef, useState } from "react";
import { useParams } from "react-router";

// The reading view of a reader link (DESIGN §12 'Readers'): no account, chapters in order, a table of contents,
// where the reader stopped remembered, and a comment on selected text after giving a name once.

export const meta = () => [{ title: "Reading · StoryWeave" }];

type Scene = { id: number; title: string; content: string };
type Book = {
  timeline: { title: string; author: string };
  chapters: { title: string | null; scenes: Scene[] }[];
  reader: { name: string; eventId: number | null } | null;
};
type ReaderComment = { id: number; eventId: number; body: string; quote: string | null };
/** A comment being written: on the selected words, with the words around them (which of a repeated phrase it is). */
type Draft = { eventId: number; quote: string; prefix: string; suffix: string };

const CONTEXT = 200;

/**
 * The scene's text just before and just after the selection, its paragraphs apart as in the scene's text: the
 * server anchors the comment on the occurrence of the quote these name (DESIGN §12 'Readers').
 */
function contextOf(scene: HTMLElement, range: Range) {
  const paras = [...scene.querySelectorAll<HTMLElement>(":scope > p")];
  const paraOf = (node: Node) => paras.findIndex((p) => p.contains(node));
  const start = paraOf(range.startContainer);
  const end = paraOf(range.endContainer);
  if (start < 0 || end < 0) return { prefix: "", suffix: "" };
  const head = document.createRange();
  head.setStart(paras[start], 0);
  head.setEnd(range.startContainer, range.startOffset);
  const tail = document.createRange();
  tail.setStart(range.endContainer, range.endOffset);
  tail.setEnd(paras[end], paras[end].childNodes.length);
  const text = (list: HTMLElement[]) => list.map((p) => p.textContent ?? "");
  const prefix = [...text(paras.slice(0, start)), head.toString()].join("\n\n");
  const suffix = [tail.toString(), ...text(paras.slice(end + 1))].join("\n\n");
  return { prefix: prefix.slice(-CONTEXT), suffix: suffix.slice(0, CONTEXT) };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

const readingOnly = `body:has(main[data-reading]) :is(header:has(> nav[aria-label="Main"]), [aria-label$="help assistant"]) { display: none; }`;

export default function ReadPage() {
  const { code = "" } = useParams();
  const api = `/api/read/${encodeURIComponent(code)}`;
  const [book, setBook] = useState<Book | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [named, setNamed] = useState(false);
  const [name, setName] = useState("");
  const [draft, setDraft] = useState<Draft | null>(null);
  const [body, setBody] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [mine, setMine] = useState<ReaderComment[]>([]);
  const lastSaved = useRef<number | null>(null);

  useEffect(() => {
    fetch(api, { credentials: "same-origin" })
      .then(async (res) => {
        const json = (await res.json()) as Book & { error?: string };
        if (!res.ok) throw new Error(json.error ?? "This link was not found");
        setBook(json);
        if (json.reader) {
          setNamed(true);
          setName(json.reader.name);
          lastSaved.current = json.reader.eventId;
          if (json.reader.eventId) document.getElementById(`scene-${json.reader.eventId}`)?.scrollIntoView();
          const own = await fetch(`${api}/comments`, { credentials: "same-origin" });
          if (own.ok) setMine((await own.json()) as ReaderComment[]);
        }
      })
      .catch((e: Error) => setError(e.message));
  }, [api]);

  // Where the reader stopped: the last scene whose top passed the upper third of the screen (once named).
  const saveProgress = useCallback(() => {
    if (!book || !named) return;
    const scenes = [...document.querySelectorAll<HTMLElement>("[data-scene-id]")];
    const seen = scenes.filter((el) => el.getBoundingClientRect().top < window.innerHeight / 3).at(-1) ?? scenes[0];
    const id = seen ? Number(seen.dataset.sceneId) : null;
    if (!id || id === lastSaved.current) return;
    lastSaved.current = id;
    void post(`${api}/progress`, { eventId: id });
  }, [api, book, named]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(saveProgress, 800);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener("scroll", onScroll);
    };
  }, [saveProgress]);

  const takeSelection = () => {
    const selection = window.getSelection();
    const quote = selection?.toString().trim() ?? "";
    const node = selection?.anchorNode;
    const scene = (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>("[data-scene-id]");
    if (!quote || !scene || !selection?.rangeCount) return;
    const { prefix, suffix } = contextOf(scene, selection.getRangeAt(0));
    setDraft({ eventId: Number(scene.dataset.sceneId), quote: quote.slice(0, 1000), prefix, suffix });
  };

  const send = async () => {
    if (!draft) return;
    const anchor = { quote: draft.quote, prefix: draft.prefix, suffix: draft.suffix };
    const res = await post(`${api}/comments`, { eventId: draft.eventId, body, anchor, ...(named ? {} : { name }) });
    const json = (await res.json()) as ReaderComment & { error?: string };
    if (!res.ok) {
      setNotice(json.error ?? "Your comment could not be sent");
      return;
    }
    setNamed(true);
    setMine((list) => [...list, json]);
    // A comment also marks how far the reader got, should they not scroll on.
    if (lastSaved.current !== draft.eventId) {
      lastSaved.current = draft.eventId;
      void post(`${api}/progress`, { eventId: draft.eventId });
    }
    setDraft(null);
    setBody("");
    setNotice("Comment sent to the author");
  };

  if (error) {
    return (
      <main className="mx-auto max-w-xl px-5 py-24 text-center">
        <h1 className="text-2xl font-semibold">Link not found</h1>
        <p className="mt-3 text-stone-600">{error}</p>
      </main>
    );
  }
  if (!book) return <main className="mx-auto max-w-xl px-5 py-24 text-center text-stone-500">Loading…</main>;

  return (
    <main data-reading className="mx-auto max-w-[38rem] px-5 pb-40 pt-10 font-serif text-[1.15rem] leading-[1.7] text-stone-900">
      {/* A page for reading, as the Manuscript's focus mode: no app navigation and no help button over the text. */}
      <style>{readingOnly}</style>
      <header className="mb-8 text-center">
        <h1 dir="auto" className="text-3xl font-semibold">
          {book.timeline.title}
        </h1>
        <p className="mt-1 text-stone-600">by {book.timeline.author}</p>
      </header>
      <nav aria-label="Contents" className="mb-10 rounded border border-stone-200 p-4 font-sans text-base">
        <h2 className="mb-2 font-semibold">Contents</h2>
        <ol className="list-decimal space-y-1 pl-6">
          {book.chapters.map((chapter, i) => (
            <li key={chapter.scenes[0]?.id ?? i}>
              <a dir="auto" className="underline" href={`#chapter-${i + 1}`}>
                {chapter.title ?? `Part ${i + 1}`}
              </a>
            </li>
          ))}
        </ol>
        <p className="mt-3 text-sm text-stone-500">Select a sentence to leave the author a comment.</p>
      </nav>
      <article onMouseUp={takeSelection} onTouchEnd={takeSelection} onKeyUp={takeSelection}>
        {book.chapters.map((chapter, i) => (
          <section key={chapter.scenes[0]?.id ?? i} id={`chapter-${i + 1}`} className="mb-12">
            {chapter.title ? (
              <h2 dir="auto" className="mb-6 text-center text-2xl font-semibold">
                {chapter.title}
              </h2>
            ) : null}
            {chapter.scenes.map((scene) => (
              <div key={scene.id} id={`scene-${scene.id}`} data-scene-id={scene.id} className="mb-8">
                {scene.content.split(/\n{2,}/).map((para, p) => (
                  <p key={p} dir="auto" className="mb-4 whitespace-pre-wrap">
                    {para}
                  </p>
                ))}
                {mine
                  .filter((c) => c.eventId === scene.id)
                  .map((c) => (
                    <aside key={c.id} className="mb-3 rounded bg-amber-50 p-3 font-sans text-sm">
                      {c.quote ? <q className="italic">{c.quote}</q> : null}
                      <p className="mt-1">Your comment: {c.body}</p>
                    </aside>
                  ))}
              </div>
            ))}
          </section>
        ))}
      </article>
      {notice ? (
        <p role="status" className="fixed inset-x-0 top-2 mx-auto w-fit rounded bg-stone-800 px-4 py-2 font-sans text-sm text-white">
          {notice}
        </p>
      ) : null}
      {draft ? (
        <form
          aria-label="Comment"
          className="fixed inset-x-0 bottom-0 border-t border-stone-300 bg-white p-4 font-sans text-base shadow-lg"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <div className="mx-auto max-w-[38rem] space-y-2">
            <p className="text-sm text-stone-600">
              On: <q className="italic">{draft.quote}</q>
            </p>
            {named ? null : (
              <label className="block text-sm">
                Your name
                <input
                  className="mt-1 block w-full rounded border px-2 py-1"
                  required
                  maxLength={60}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                />
              </label>
            )}
            <label className="block text-sm">
              Comment
              <textarea
                className="mt-1 block w-full rounded border px-2 py-1"
                required
                maxLength={5000}
                rows={3}
                value={body}
                onChange={(e) => setBody(e.target.value)}
              />
            </label>
            <div className="flex gap-2">
              <button type="submit" className="rounded bg-stone-900 px-4 py-2 text-white">
                Send comment
              </button>
              <button type="button" className="rounded border px-4 py-2" onClick={() => setDraft(null)}>
                Cancel
              </button>
            </div>
          </div>
        </form>
      ) : null}
    </main>
  );
}
