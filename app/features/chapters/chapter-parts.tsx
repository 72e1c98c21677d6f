import type { TimelineSession } from "~/features/timeline/timeline-session";
import { Plus } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type CoWriteApi, CoWriteContext } from "~/features/co-writing/co-editor-context";
import type { ListProps } from "~/features/timeline/timeline-body";
import type { TimelineEvents } from "~/features/timeline/timeline-events";
import type { TimelineLayout } from "~/features/timeline/timeline-view";
import { Button } from "~/ui/button";
import { chapterTitleError, type Scene } from "./chapters-api";
import { useChapterActions } from "./chapter-queries";
import { BookProgress } from "./book-progress";
import type { ChapterContext } from "./chapter-context";
import { type Write, chapterContext } from "./chapter-screen-context";
export { chapterContext };
import { ChapteredList } from "./chaptered-list";
import { StructureTools } from "~/features/structure/structure-tools";

/**
 * Chapters on the timeline screen, rendered with the page: a timeline without chapters shows only the book's words
 * and the buttons; the progress chart and the dialogs load on first use.
 */

export type { ChapterContext };

/** 'Add chapter': a title, then the chapter is appended to the book (editors). */
export function AddChapter() {
  const { create } = useChapterActions();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async () => {
    const problem = chapterTitleError(title);
    setError(problem);
    if (problem) return;
    setPending(true);
    const ok = await create(title);
    setPending(false);
    if (ok) {
      setTitle("");
      setOpen(false);
    }
  };
  if (!open) {
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" className="h-4 w-4" /> Add Chapter
      </Button>
    );
  }
  return (
    <form
      className="flex flex-wrap items-start gap-2"
      aria-label="Add chapter"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div>
        <label htmlFor="new-chapter-title" className="sr-only">
          Chapter title
        </label>
        <input
          id="new-chapter-title"
          // biome-ignore lint/a11y/noAutofocus: the writer just asked for this field
          autoFocus
          value={title}
          maxLength={250}
          placeholder="Chapter title"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "new-chapter-error" : undefined}
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setOpen(false);
          }}
          className="h-10 w-56 rounded-md border border-stone-300 bg-white px-3 text-sm"
        />
        {error ? (
          <p id="new-chapter-error" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Adding..." : "Add"}
      </Button>
      <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </form>
  );
}

/** The screen's own objects, as it has them (so the first paint's code passes them along as they are). */
export type ChapterScreen = {
  timeline: {
    id: number;
    title: string;
    wordCount?: number | null;
    targetWords?: number | null;
    structureTemplateId?: string | null;
    series?: { id: number; title: string; position: number } | null;
    isOwner?: boolean;
    deadline?: string | null;
    writingDays?: number[];
  };
  store: { events: Scene[]; complete: boolean; write: Write };
  /** The timeline session (the chapter calls' client and share code). */
  session: TimelineSession;
  view: { chronological: boolean; filtering?: boolean; layout: TimelineLayout };
  live: { canEdit: boolean; coWrite: CoWriteApi; mapTick: number };
  refresh: () => void;
  /** What the view shows. */
  dated: Scene[];
  isOwner: boolean;
  list: ListProps;
  TimelineEvents: typeof TimelineEvents;
};

/**
 * What the screen shows of chapters, as the screen's parts: under the title (the book's words and target),
 * beside 'Add Event', and the list in chapters (story order, the list layouts, once every event is here).
 */
export function chapterParts(screen: ChapterScreen): { progress: ReactNode; tools: ReactNode; list: ReactNode } {
  const { timeline, store, view, live, refresh } = screen;
  const context = chapterContext({
    timelineId: timeline.id,
    shareCode: screen.session.shareCode,
    client: screen.session.client,
    write: store.write,
    refresh,
  });
  const { layout } = view;
  return {
    progress: (
      <BookProgress
        context={context}
        timeline={timeline}
        events={store.events}
        complete={store.complete}
        canEdit={live.canEdit}
        refresh={refresh}
      />
    ),
    tools: (
      <>
        {live.canEdit ? <AddChapter /> : null}
        <StructureTools
          timelineId={timeline.id}
          timelineTitle={timeline.title}
          structureTemplateId={timeline.structureTemplateId ?? null}
          shareCode={screen.session.shareCode}
          canEdit={live.canEdit}
          events={store.events}
          showMarkers={!view.chronological && (layout === "vertical" || layout === "horizontal")}
          onScenesChanged={refresh}
          onSceneWritten={(event) =>
            void store.write(async () => ({ ok: true, data: event }), { result: (e) => ({ kind: "event", event: e }) })
          }
        />
      </>
    ),
    list:
      !view.chronological && store.complete && (layout === "vertical" || layout === "horizontal") ? (
        <CoWriteContext.Provider value={live.coWrite}>
          <ChapteredList
            context={context}
            events={screen.dated}
            all={store.events}
            list={screen.list}
            layout={layout}
            canDelete={screen.isOwner}
            filtering={view.filtering}
            List={screen.TimelineEvents}
          />
        </CoWriteContext.Provider>
      ) : null,
  };
}
