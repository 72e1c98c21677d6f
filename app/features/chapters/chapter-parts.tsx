import type { TimelineSession } from "~/features/timeline/timeline-session";
import { Plus } from "lucide-react";
import { type ComponentProps, type ComponentType, type ReactNode, useEffect, useState } from "react";
import { refreshTimeline } from "~/features/timeline/change-sessions";
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
import type { ChapteredList as ChapteredListType } from "./chaptered-list";
import { StructureTools } from "~/features/structure/structure-tools";
import { onDemand } from "~/ui/lazy-popup";
import { loadWhenOnline } from "~/lib/load-when-online";

/**
 * Chapters on the timeline screen, rendered with the page: a timeline without chapters shows only the book's words
 * and the buttons; the progress chart and the dialogs load on first use, the list in chapters (its headers, collapsing,
 * moving scenes between chapters) when the timeline has chapters.
 */

// With no network on a page the installed app does not hold yet, asked for once the network is back (a failed
// module load would stay failed for the page's life).
const chapteredList = onDemand<ComponentProps<typeof ChapteredListType>>(
  loadWhenOnline(() => import("./chaptered-list").then((m) => m.ChapteredList)),
);

/**
 * The list in chapters once its code is here, asked for when `wanted` (the chapters are loaded and there are some);
 * until then the screen shows the plain list, as it does before the chapters have loaded.
 */
export function useChapteredList(wanted: boolean): ComponentType<ComponentProps<typeof ChapteredListType>> | undefined {
  const [List, setList] = useState(() => chapteredList.get());
  useEffect(() => {
    if (!wanted || List) return;
    let live = true;
    chapteredList.load().then(
      (loaded) => live && setList(() => loaded),
      () => undefined, // not loaded (a network gone before the service worker kept it): the plain list stays
    );
    return () => {
      live = false;
    };
  }, [wanted, List]);
  return List;
}

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
  /** The timeline session (the chapter calls' client and share code; whether I may edit; whether I own it). */
  session: TimelineSession;
  view: { chronological: boolean; filtering?: boolean; layout: TimelineLayout };
  /** What the view shows. */
  dated: Scene[];
  list: ListProps;
  TimelineEvents: typeof TimelineEvents;
  /** The list in chapters, once its code is here (useChapteredList). */
  ChapteredList?: ComponentType<ComponentProps<typeof ChapteredListType>>;
};

/** Reloads the page's data as the screen registered it (change-sessions.ts): one function per timeline, for memos. */
const refreshers = new Map<number, () => void>();
const refresher = (timelineId: number) => {
  let refresh = refreshers.get(timelineId);
  if (!refresh) {
    refresh = () => refreshTimeline(timelineId);
    refreshers.set(timelineId, refresh);
  }
  return refresh;
};

/**
 * What the screen shows of chapters, as the screen's parts: under the title (the book's words and target),
 * beside 'Add Event', and the list in chapters (story order, the list layouts, once every event is here).
 */
export function chapterParts(screen: ChapterScreen): { progress: ReactNode; tools: ReactNode; list: ReactNode } {
  const { timeline, store, view, session } = screen;
  const refresh = refresher(timeline.id);
  const { canEdit } = session;
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
        canEdit={canEdit}
        refresh={refresh}
      />
    ),
    tools: (
      <>
        {canEdit ? <AddChapter /> : null}
        <StructureTools
          timelineId={timeline.id}
          timelineTitle={timeline.title}
          structureTemplateId={timeline.structureTemplateId ?? null}
          shareCode={screen.session.shareCode}
          canEdit={canEdit}
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
      screen.ChapteredList && !view.chronological && store.complete && (layout === "vertical" || layout === "horizontal") ? (
        <screen.ChapteredList
          context={context}
          events={screen.dated}
          all={store.events}
          list={screen.list}
          layout={layout}
          canDelete={session.role === "owner"}
          filtering={view.filtering}
          List={screen.TimelineEvents}
        />
      ) : null,
  };
}
