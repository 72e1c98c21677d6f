import { Focus } from "lucide-react";
import { type CSSProperties, Suspense, lazy, memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { loadWhenOnline } from "~/lib/load-when-online";
import type { Session } from "~/features/co-writing/doc-session";
import { ModeSwitch, useStoredMode } from "~/features/co-writing/editor-mode";
import { ManuscriptContext, type ManuscriptApi, ManuscriptModeContext, wordsText } from "~/features/manuscript/manuscript-context";
import { useNearViewport } from "~/features/manuscript/near-viewport";
import { manuscriptRuns } from "~/features/manuscript/runs";
import { SceneText } from "~/features/manuscript/scene-text";
import { SessionTarget } from "~/features/manuscript/session-target";
import { useBottomBar } from "~/lib/bottom-bar";
import { useManuscriptLive } from "~/features/manuscript/use-manuscript-live";
import { TimelineQueryProvider } from "~/features/timeline/timeline-query-provider";
import { Button } from "~/ui/button";
import { errorToast } from "~/lib/toast";
import type { ManuscriptChapter, ManuscriptScene } from "../../../worker/services/manuscript-page";
import type { TimelineView } from "../../../worker/services/timelines";

// The manuscript: every scene's text in story order under its chapter headings, one continuous page in a readable
// measure. The text is the server's HTML; editors mount over the scenes near the viewport (writers only).

const SceneEditor = lazy(() => import("~/features/manuscript/scene-editor").then((m) => ({ default: m.SceneEditor })));
// Who is here: nothing to show until the room has connected (after hydration), so its code loads then (with no
// network and no copy on the device yet, once the network is back).
const PresenceStack = lazy(loadWhenOnline(() => import("~/features/live-room/presence").then((m) => ({ default: m.PresenceStack }))));

const SAVED_MS = 3000;

// Focus mode: no navigation, banner or help button; the other scenes and paragraphs dimmed.
const styles = `
/*
 * A scene with no editor open is not laid out or painted until it nears the viewport. Until then its height is
 * estimated from its words and paragraphs (sceneSize) and the words a line of the measure holds at this width (a
 * line is as wide as the screen allows, up to 66ch): the browser keeps each scene's real height once laid out.
 * Not a scene with an editor: the containment would clip the boxes it opens at the text (a comment's).
 */
.ms-root { --ms-line-words: 14; }
@media (max-width: 650px) { .ms-root { --ms-line-words: 12.5; } }
@media (max-width: 520px) { .ms-root { --ms-line-words: 10; } }
@media (max-width: 420px) { .ms-root { --ms-line-words: 8; } }
.ms-scene-far {
  content-visibility: auto;
  contain-intrinsic-size: auto calc(2.5rem + (var(--ms-words) / var(--ms-line-words) + var(--ms-paragraphs) * 0.5) * 2.04rem);
}
.ms-text p + p { text-indent: 1.5em; margin-top: 0; }
.ms-text > * + * { margin-top: 0.6em; }
.ms-root[data-focus] .ms-scene:not([data-active]) { opacity: 0.35; transition: opacity 200ms; }
.ms-root[data-focus] .ms-editor > :not(.has-focus) { opacity: 0.5; }
body:has(.ms-root[data-focus]) :is(header:has(> nav[aria-label="Main"]), [aria-label="Email verification"], [aria-label$="help assistant"]) {
  display: none;
}
`;

type Props = {
  timeline: TimelineView;
  chapters: ManuscriptChapter[];
  scenes: ManuscriptScene[];
  shareCode: string | null;
  me: { id: number; name: string };
};

/**
 * The timeline screen's client data layer (TimelineQueryProvider: one QueryClient for the page's life) around the
 * manuscript: its scene editors read and write comments in the same cache as the timeline's, and the room's comment
 * syncs reach them (useManuscriptLive).
 */
export function ManuscriptView(props: Props) {
  return (
    <TimelineQueryProvider userId={props.me.id}>
      <ManuscriptBody {...props} />
    </TimelineQueryProvider>
  );
}

function ManuscriptBody({ timeline, chapters, scenes, shareCode, me: loadedMe }: Props) {
  // The same writer on every reload of the page's data: the editors' context stays as it is.
  const me = useMemo(() => ({ id: loadedMe.id, name: loadedMe.name }), [loadedMe.id, loadedMe.name]);
  const canEdit = timeline.accessLevel !== "viewer";
  const back = shareCode ? `/timeline/${timeline.id}?share=${encodeURIComponent(shareCode)}` : `/timeline/${timeline.id}`;
  const runs = useMemo(() => manuscriptRuns(scenes), [scenes]);
  const chapterTitle = useMemo(() => new Map(chapters.map((c) => [c.id, c.title])), [chapters]);

  // Counts from the open editors (as typed); every other scene counts as the server last read it.
  const [typedWords, setWordsState] = useState<Record<number, number>>({});
  const words = useMemo<Record<number, number>>(
    () => ({ ...Object.fromEntries(scenes.map((s) => [s.id, s.words])), ...typedWords }),
    [scenes, typedWords],
  );
  const [active, setActiveState] = useState<number | null>(scenes[0]?.id ?? null);
  const [focus, setFocus] = useState(false);
  const [saved, setSaved] = useState(false);
  const [mode, setMode] = useStoredMode();
  const focusRef = useRef(false);
  focusRef.current = focus;
  const sessions = useRef(new Map<number, Session>());
  // The status line at the window's foot: toasts on a phone stand above it.
  const footer = useRef<HTMLElement>(null);
  useBottomBar(footer);
  const live = useManuscriptLive({ timelineId: timeline.id, shareCode, myUserId: me.id, editorsOpen: () => sessions.current.size > 0 });
  const { setWriting } = live;
  // Fresh data from the server: the scenes without an open editor count as it read them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: new loader data (the scenes) is the signal
  useEffect(() => {
    setWordsState((w) => {
      const kept = Object.entries(w).filter(([id]) => sessions.current.has(Number(id)));
      return kept.length === Object.keys(w).length ? w : Object.fromEntries(kept);
    });
  }, [scenes]);

  const api = useMemo<ManuscriptApi>(
    () => ({
      timelineId: timeline.id,
      shareCode,
      me,
      register: (id, session) => {
        if (session) return void sessions.current.set(id, session);
        sessions.current.delete(id);
        setWriting(id, false);
      },
      setWords: (id, n) => setWordsState((w) => (w[id] === n ? w : { ...w, [id]: n })),
      setActive: (id) => {
        setActiveState(id);
        setWriting(id, true);
      },
      focusRef,
    }),
    [timeline.id, shareCode, me, setWriting],
  );

  const save = useCallback(async () => {
    const results = await Promise.all([...sessions.current.values()].map((s) => s.save()));
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok) return errorToast(failed.error);
    setSaved(true);
  }, []);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.shiftKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void save();
      } else if (canEdit && mod && e.shiftKey && e.key.toLowerCase() === "f") {
        e.preventDefault();
        setFocus((f) => !f);
      } else if (e.key === "Escape" && focusRef.current) {
        setFocus(false);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [save, canEdit]);

  const activeScene = scenes.find((s) => s.id === active);
  const book = scenes.reduce((sum, s) => sum + (words[s.id] ?? 0), 0);
  const chapter =
    activeScene?.chapterId != null
      ? scenes.filter((s) => s.chapterId === activeScene.chapterId).reduce((sum, s) => sum + (words[s.id] ?? 0), 0)
      : null;

  return (
    <ManuscriptContext.Provider value={api}>
      <ManuscriptModeContext.Provider value={mode}>
        <style>{styles}</style>
        <main className="ms-root mx-auto w-full max-w-[66ch] px-4 pt-6 pb-[max(8rem,40vh)]" data-focus={focus || undefined}>
          <div className="mb-8 flex flex-wrap items-center justify-between gap-2 font-sans">
            {canEdit ? (
              <Link to={back} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
                {/* A text arrow: the icon shared with the timeline would split into a chunk of its own on the timeline's first paint. */}
                <span aria-hidden="true">←</span> Back to timeline
              </Link>
            ) : (
              // A viewer lands here to read the book; the timeline (the plan, codex and notes) is one click away.
              <Link to={back} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
                Open the timeline <span aria-hidden="true">→</span>
              </Link>
            )}
            {live.users.length > 0 ? (
              <div className="mr-auto ml-2">
                <Suspense fallback={null}>
                  <PresenceStack users={live.users} myUserId={me.id} />
                </Suspense>
              </div>
            ) : null}
            {canEdit ? <ModeSwitch mode={mode} onMode={setMode} /> : null}
            {canEdit ? (
              <Button
                variant={focus ? "default" : "outline"}
                size="sm"
                aria-pressed={focus}
                aria-keyshortcuts="Control+Shift+F Meta+Shift+F"
                title="Focus mode (Ctrl+Shift+F; Esc leaves)"
                onClick={() => setFocus((f) => !f)}
              >
                <Focus aria-hidden="true" className="h-4 w-4" /> Focus mode
              </Button>
            ) : null}
          </div>
          <h1 dir="auto" className="mb-10 text-center font-serif text-4xl font-bold break-words">
            {timeline.title}
          </h1>
          {scenes.length === 0 ? <p className="text-stone-700">No scenes yet.</p> : null}
          {/* One flat list keyed by scene: a scene added, moved or put in another chapter leaves the others' editors open. */}
          {runs.flatMap((run, i) => [
            run.chapterId != null ? (
              <h2
                key={`chapter-${run.chapterId}-${i}`}
                dir="auto"
                className="mt-16 mb-8 text-center font-serif text-3xl font-bold break-words"
              >
                {chapterTitle.get(run.chapterId)}
              </h2>
            ) : null,
            ...run.scenes.map((scene) => <SceneBlock key={scene.id} scene={scene} canEdit={canEdit} active={scene.id === active} />),
          ])}
        </main>
        <footer
          ref={footer}
          className="fixed inset-x-0 bottom-0 z-20 border-t border-stone-200 bg-white/95 font-sans text-sm text-stone-700"
        >
          <p
            aria-live="polite"
            data-testid="manuscript-status"
            className="mx-auto flex max-w-3xl flex-wrap justify-center gap-x-4 px-4 py-2"
          >
            {activeScene ? <span>Scene: {wordsText(words[activeScene.id] ?? 0)}</span> : null}
            {chapter != null ? <span>Chapter: {wordsText(chapter)}</span> : null}
            <span>Book: {wordsText(book)}</span>
            {focus ? <SessionTarget bookWords={book} /> : null}
            {saved ? <span className="font-medium text-emerald-800">Saved</span> : null}
          </p>
        </footer>
      </ManuscriptModeContext.Provider>
    </ManuscriptContext.Provider>
  );
}

/**
 * What a scene's height is estimated from before it is laid out (the CSS of .ms-scene-far): its words, and its
 * paragraphs, whose last lines are on average half full. Each line is 1.7 × 1.2rem high; the title is above.
 */
const sceneSize = (scene: ManuscriptScene) =>
  ({ "--ms-words": scene.words, "--ms-paragraphs": scene.html.match(/<(?:p|h[1-6]|li|blockquote)[\s>]/g)?.length ?? 1 }) as CSSProperties;

const SceneBlock = memo(function SceneBlock({ scene, canEdit, active }: { scene: ManuscriptScene; canEdit: boolean; active: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const near = useNearViewport(ref, canEdit);
  const [html, setHtml] = useState(scene.html);
  // The server's text changed (a co-writer saved it): shown where no editor is open (an open one has the doc).
  const [served, setServed] = useState(scene.html);
  if (served !== scene.html) {
    setServed(scene.html);
    setHtml(scene.html);
  }
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (near) setOpen(true);
  }, [near]);
  const release = useCallback((next: string | null) => {
    if (next !== null) setHtml(next);
    setOpen(false);
  }, []);
  const fallback = <SceneText html={html} />;
  return (
    <section
      ref={ref}
      aria-labelledby={`scene-${scene.id}-title`}
      data-testid="manuscript-scene"
      data-active={active || undefined}
      className={open ? "ms-scene mb-12" : "ms-scene ms-scene-far mb-12"}
      style={open ? undefined : sceneSize(scene)}
    >
      <h3
        id={`scene-${scene.id}-title`}
        dir="auto"
        className="mb-3 font-sans text-xs font-semibold tracking-wider text-stone-600 uppercase"
      >
        {scene.title}
      </h3>
      {open ? (
        <Suspense fallback={fallback}>
          <SceneEditor sceneId={scene.id} title={scene.title} html={html} near={near} onRelease={release} />
        </Suspense>
      ) : (
        fallback
      )}
    </section>
  );
});
