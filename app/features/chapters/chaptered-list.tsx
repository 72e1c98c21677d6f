import { useEffect, useMemo, useRef } from "react";
import type { ListProps } from "~/features/timeline/timeline-body";
import type { Layout, TimelineEvents } from "~/features/timeline/timeline-events";
import type { ChapterContext } from "./chapter-context";
import type { ChapterView, Scene } from "./chapters-api";
import { ChapterHeader } from "./chapter-header";
import { useChapterList } from "./chapter-queries";
import { useCollapsedChapters } from "./collapsed-chapters";

const NO_SCENES: Scene[] = [];

type Group = { key: string; chapter: ChapterView | null; scenes: Scene[] };

/**
 * The story in chapters: runs of scenes in story order, each under its chapter's header (scenes in no chapter
 * under 'No chapter'); chapters without a scene yet come last. Each run is its own list: a card dragged onto
 * another chapter (its header or its cards) moves there.
 */
export function ChapteredList({
  context,
  events,
  all,
  list,
  layout,
  canDelete,
  filtering = false,
  List,
}: {
  context: ChapterContext;
  /** What the view shows, in story order. */
  events: Scene[];
  /** Every event in story order (positions are indices in it). */
  all: Scene[];
  list: ListProps;
  layout: Layout;
  canDelete: boolean;
  /** The view is filtered: only the chapters with a scene shown have a header. */
  filtering?: boolean;
  /** The screen's list (given, not imported: this module stays out of the first paint's chunks). */
  List: typeof TimelineEvents;
}) {
  const { chapters } = useChapterList(context.timelineId, context.api.shareCode, context.api.client);
  const collapsed = useCollapsedChapters(context.timelineId);
  const groups = groupScenes(events, chapters, !filtering);
  const indexOf = (id: number) => all.findIndex((e) => e.id === id);
  // Each chapter's scenes (one array per chapter while the scenes stay the same) and its place: a header
  // re-renders only when what it shows changed, not for every change to another chapter.
  const scenesOf = useMemo(() => {
    const of = new Map<number, Scene[]>();
    for (const scene of all) {
      if (scene.chapterId == null) continue;
      const held = of.get(scene.chapterId);
      if (held) held.push(scene);
      else of.set(scene.chapterId, [scene]);
    }
    return of;
  }, [all]);
  const placeOf = useMemo(() => new Map(chapters.map((c, i) => [c.id, i])), [chapters]);

  // A card dragged out of its run and dropped over another chapter: dnd-kit sees only its own run, so the drop
  // is read here, before dnd-kit's own pointerup (which then must not reorder the run).
  const dragged = useRef<{ scene: Scene; chapterId: number | null } | null>(null);
  const crossed = useRef(false);
  const dragging = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const latest = useRef({ all, groups, moveScene: context.moveScene });
  latest.current = { all, groups, moveScene: context.moveScene };
  useEffect(() => {
    const root = rootRef.current;
    if (!root || !list.canEdit || !list.canReorder) return;
    const down = (e: PointerEvent) => {
      const card = (e.target as Element).closest<HTMLElement>("[data-event-id]");
      const scene = card ? latest.current.all.find((s) => s.id === Number(card.dataset.eventId)) : undefined;
      dragged.current = scene ? { scene, chapterId: scene.chapterId ?? null } : null;
      crossed.current = false;
    };
    const up = (e: PointerEvent) => {
      const from = dragged.current;
      dragged.current = null;
      if (!from || !dragging.current) return;
      // Under the pointer, leaving out the dragged card's overlay (it is rendered inside the card's own chapter).
      const overlay = '[data-testid="drag-overlay"]';
      const under = document.elementsFromPoint(e.clientX, e.clientY).filter((el) => !el.closest(overlay) && !el.querySelector(overlay));
      const zone = under.map((el) => el.closest<HTMLElement>("[data-chapter-drop]")).find(Boolean);
      if (!zone) return;
      const chapterId = zone.dataset.chapterDrop === "none" ? null : Number(zone.dataset.chapterDrop);
      if (chapterId === from.chapterId) return;
      crossed.current = true;
      const card = under.map((el) => el.closest<HTMLElement>("[data-chapter-drop] [data-event-id]")).find(Boolean);
      const target = card ? Number(card.dataset.eventId) : null;
      const { all: scenes } = latest.current;
      const to = target === null || target === from.scene.id ? undefined : scenes.findIndex((s) => s.id === target);
      // Dropped on a card: the scene takes that card's place (after it when it came from above).
      void latest.current.moveScene(from.scene, chapterId, to === undefined || to < 0 ? undefined : to);
    };
    root.addEventListener("pointerdown", down, { capture: true });
    document.addEventListener("pointerup", up, { capture: true });
    return () => {
      root.removeEventListener("pointerdown", down, { capture: true });
      document.removeEventListener("pointerup", up, { capture: true });
    };
  }, [list.canEdit, list.canReorder]);

  return (
    <div ref={rootRef} className="space-y-6">
      {groups.map((group) => {
        const shut = group.chapter !== null && collapsed.has(group.chapter.id);
        const chapterScenes = group.chapter ? (scenesOf.get(group.chapter.id) ?? NO_SCENES) : group.scenes;
        return (
          <section
            key={group.key}
            data-chapter-drop={group.chapter ? group.chapter.id : "none"}
            aria-label={group.chapter ? group.chapter.title : "No chapter"}
          >
            <ChapterHeader
              context={context}
              chapter={group.chapter}
              index={group.chapter ? (placeOf.get(group.chapter.id) ?? -1) : -1}
              count={chapters.length}
              scenes={chapterScenes}
              all={all}
              collapsed={shut}
              canEdit={list.canEdit}
              canDelete={canDelete}
            />
            {shut || group.scenes.length === 0 ? null : (
              <List
                {...list}
                layout={layout}
                events={group.scenes}
                onDragging={(active) => {
                  dragging.current = active;
                  list.onDragging(active);
                }}
                onMove={(eventId, from, to) => {
                  if (crossed.current) {
                    crossed.current = false;
                    return;
                  }
                  const target = group.scenes[to];
                  if (target && from !== to) list.onMove(eventId, indexOf(eventId), indexOf(target.id));
                }}
              />
            )}
          </section>
        );
      })}
    </div>
  );
}

/**
 * The groups in story order: each chapter once, where its first scene is (its scenes are one run in story order;
 * while a move is on its way they may briefly not be), runs of scenes in no chapter between them, and a chapter
 * without a scene yet where its scenes will go: right after the chapter before it (first of all when none is).
 */
export function groupScenes(scenes: Scene[], chapters: ChapterView[], withEmpty = true): Group[] {
  const byId = new Map(chapters.map((c) => [c.id, c]));
  const groups: Group[] = [];
  const ofChapter = new Map<number, Group>();
  for (const scene of scenes) {
    const chapter = (scene.chapterId != null && byId.get(scene.chapterId)) || null;
    const last = groups[groups.length - 1];
    if (chapter) {
      const held = ofChapter.get(chapter.id);
      if (held) held.scenes.push(scene);
      else {
        const group = { key: `chapter-${chapter.id}`, chapter, scenes: [scene] };
        ofChapter.set(chapter.id, group);
        groups.push(group);
      }
    } else if (last && last.chapter === null) last.scenes.push(scene);
    else groups.push({ key: `none-${scene.id}`, chapter: null, scenes: [scene] });
  }
  if (!withEmpty) return groups;
  const ordered = [...chapters].sort((a, b) => a.position - b.position);
  for (const [i, chapter] of ordered.entries()) {
    if (ofChapter.has(chapter.id)) continue;
    const group: Group = { key: `chapter-${chapter.id}`, chapter, scenes: [] };
    const before = i > 0 ? ofChapter.get(ordered[i - 1].id) : undefined;
    const firstChapter = groups.findIndex((g) => g.chapter !== null);
    const at = before ? groups.indexOf(before) + 1 : i === 0 && firstChapter >= 0 ? firstChapter : groups.length;
    groups.splice(at, 0, group);
    ofChapter.set(chapter.id, group);
  }
  return groups;
}
