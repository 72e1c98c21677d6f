import { type ReactNode, Suspense, lazy, memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { CodexPanel, createEntityRequest, useEntityMap } from "~/features/codex/codex";
import { AttachmentsContext } from "~/features/timeline/event-attachments";
import type { CardCodex } from "~/features/timeline/event-card";
import { type ChapterOption, EventFilters } from "~/features/timeline/event-filters";
import { EventHistoryContext } from "~/features/co-writing/event-history-context";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { Page } from "~/ui/page";
import { TimelineBody } from "~/features/timeline/timeline-body";
import { TimelineEvents } from "~/features/timeline/timeline-events";
import { TimelineHeader } from "~/features/timeline/timeline-header";
import { TimelineJump } from "~/features/timeline/timeline-jump";
import { TimelineToolbar } from "~/features/timeline/timeline-toolbar";
import { useEventWrites } from "~/features/timeline/use-event-writes";
import { useFreshData } from "~/lib/use-fresh-data";
import { useMutation } from "~/lib/use-mutation";
import { useSameValue } from "~/lib/use-same-value";
import { whenIdleOnline } from "~/lib/when-idle";
import { useStoryHints } from "~/features/timeline/use-story-hints";
import { useTimelineEvents } from "~/features/timeline/use-timeline-events";
import { useTimelineLive } from "~/features/timeline/use-timeline-live";
import { useTimelineView } from "~/features/timeline/use-timeline-view";
import { plotlineFromParams, serverFilters } from "~/features/timeline/timeline-view";
import { type CardPlotlines, PlotlinesContext } from "~/features/plotlines/plotline-context";
import { ReviewContext } from "~/features/review/review-context";
import type { EntityKind } from "../../../db/domain/rules";
import { filterEvents } from "../../../db/domain/story-analysis";
import { sortChronologically, storyOrderKey } from "../../../db/domain/story-order";
import type { EntityView } from "../../../worker/services/entities";
import type { EventPage, EventView } from "../../../worker/services/events";
import type { PlotlineView } from "../../../worker/services/plotlines";
import type { AddPreset } from "~/features/plotlines/plotline-grid";
import type { TimelineView } from "../../../worker/services/timelines";

type ChapterKit = typeof import("~/features/chapters/chapter-kit");
const NO_PLOTLINES: PlotlineView[] = [];
type PlotlineKit = typeof import("~/features/plotlines/plotline-kit");
type ReviewKit = typeof import("~/features/review/review-kit");
const TimelineDialogs = lazy(() => import("~/features/timeline/timeline-dialogs").then((m) => ({ default: m.TimelineDialogs })));

export { TimelineNotFound } from "~/features/timeline/timeline-not-found";

export type TimelineScreenProps = {
  timeline: TimelineView;
  /** The first screenful of events and the counts; the rest is fetched after hydration. */
  page: EventPage;
  /** The codex (characters, places, things), loaded with the page. */
  entities: EntityView[];
  /** The timeline's plotlines, loaded with the page (the cards' chips). */
  plotlines?: PlotlineView[];
  premium: boolean;
  myUserId: number;
  /** Shared mode (/timeline/shared/{code}): the code is sent along with every call. */
  shareCode?: string | null;
  /** Open the Share dialog on arrival (/timeline/{id}/share). */
  openShare?: boolean;
  assistant?: ReactNode;
};

const isDated = (e: EventView) => storyOrderKey(e.storyStart) !== null;

/** Memoized: the route's own re-renders (same loader data) do not render the whole screen again. */
export const TimelineScreen = memo(function TimelineScreen(props: TimelineScreenProps) {
  const { timeline, premium, shareCode, page } = props;
  const revalidator = useRevalidator();
  const refresh = useCallback(() => void revalidator.revalidate(), [revalidator]);
  // Every event in story order once loaded; until then the server's first screenful of the view.
  const store = useTimelineEvents({ timelineId: timeline.id, shareCode, page, loadState: revalidator.state, refresh });
  const { events, complete } = store;
  const [entities, setEntities] = useState(props.entities);
  const view = useTimelineView();
  const { chronological, filter, filtering, layout, setLayout, setFilter } = view;
  const [codexRequest, setCodexRequest] = useState<{ entity: EntityView } | null>(null);
  const [laneKind, setLaneKind] = useState<LaneKind>("character");
  // true, or the cell of the grid whose chapter and plotline the new event gets.
  const [adding, setAdding] = useState<boolean | AddPreset>(false);
  const [deleting, setDeleting] = useState<EventView | null>(null);
  const [sharing, setSharing] = useState(Boolean(props.openShare));
  // The dialogs' code loads when the first of them opens, and stays.
  const [dialogsUsed, setDialogsUsed] = useState(false);
  // Chapters, word counts and targets load just after hydration: a timeline without chapters looks as it did.
  const [kit, setKit] = useState<ChapterKit>();
  const [chaptered, setChaptered] = useState(false);
  const [chapterList, setChapterList] = useState<ChapterOption[]>();
  useEffect(() => whenIdleOnline(() => void import("~/features/chapters/chapter-kit").then(setKit, () => undefined), 1500), []);
  // Plotlines' manager and filter: after hydration too (the chips come with the page).
  const [plotKit, setPlotKit] = useState<PlotlineKit>();
  useEffect(() => whenIdleOnline(() => void import("~/features/plotlines/plotline-kit").then(setPlotKit, () => undefined), 1500), []);
  // Comments across the timeline, the cards' counts and the activity list: after hydration too.
  const [review, setReview] = useState<ReviewKit>();
  useEffect(() => whenIdleOnline(() => void import("~/features/review/review-kit").then(setReview, () => undefined), 1500), []);
  const plotlines = useSameValue(props.plotlines ?? NO_PLOTLINES);
  const plotlineId = plotlineFromParams(view.searchParams);
  const anyDialog = sharing || adding !== false || deleting !== null;
  useEffect(() => {
    if (anyDialog) setDialogsUsed(true);
  }, [anyDialog]);
  // A reload that brings the same codex keeps the list as it was (the cards it reaches stay as they are).
  useEffect(
    () => setEntities((current) => (JSON.stringify(current) === JSON.stringify(props.entities) ? current : props.entities)),
    [props.entities],
  );
  useFreshData(page.all === 0, timeline.id);

  const live = useTimelineLive({ timeline, shareCode, myUserId: props.myUserId, events, patch: store.patch, refresh });
  const { room, ended, viewOnly, canEdit, coWrite, mapTick } = live;
  const isOwner = timeline.accessLevel === "owner" && !ended;
  const { patch } = store;

  const writes = useEventWrites({ shareCode, roomHeaders: room.writeHeaders, store, refresh });
  const { link } = writes;
  const onLink = useCallback((event: EventView, entity: EntityView) => void link(event, entity), [link]);
  const confirmDelete = async (event: EventView) => {
    if (await writes.remove(event)) setDeleting(null);
  };

  // Attachments: the cards upload and remove on their own; the screen keeps the event list in step.
  // One object for the page's life: the room's headers are read when a card sends, so a (re)connection does
  // not render every card again.
  const writeHeaders = useRef(room.writeHeaders);
  writeHeaders.current = room.writeHeaders;
  const eventsNow = useRef(events);
  eventsNow.current = events;
  const attachmentsApi = useMemo(
    () => ({
      shareCode,
      get roomHeaders() {
        return writeHeaders.current;
      },
      get scenes() {
        return eventsNow.current;
      },
      onChange: (eventId: number, update: (list: EventView["attachments"]) => EventView["attachments"]) =>
        patch(eventId, (e) => ({ attachments: update(e.attachments) })),
    }),
    [shareCode, patch],
  );

  // The codex as the cards see it: chips filter the timeline, the picker may create a character.
  const codexApi = { timelineId: timeline.id, shareCode, roomHeaders: room.writeHeaders };
  const createFromPicker = useMutation((kind: EntityKind, name: string) => createEntityRequest(codexApi, { kind, name }), {
    success: { title: "Success", description: "Codex entry created" },
    error: "Failed to create codex entry",
    revalidate: false,
    onSuccess: (created) => setEntities((list) => [...list, created]),
  });
  const selectEntity = useCallback(
    (entity: EntityView) => setFilter({ entityIds: [entity.id], match: "any", text: "", dated: null, chapter: null }),
    [setFilter],
  );
  const latestCreate = useRef(createFromPicker.run);
  latestCreate.current = createFromPicker.run;
  const createEntity = useCallback(async (kind: EntityKind, name: string) => {
    const outcome = await latestCreate.current(kind, name);
    return outcome.ok ? outcome.data : null;
  }, []);
  const byId = useEntityMap(entities);

  // What is shown: story order (draggable) or chronological (by story start, undated last, like the server).
  const shown = useMemo(
    () => filterEvents(events, filter).filter((e) => plotlineId === null || e.plotlineIds?.includes(plotlineId)),
    [events, filter, plotlineId],
  );
  const sorted = useMemo(() => (chronological ? sortChronologically(shown) : null), [chronological, shown]);
  const dated = useMemo(() => (sorted ? sorted.filter(isDated) : shown), [sorted, shown]);
  const undated = sorted ? sorted.filter((e) => !isDated(e)) : [];
  const canReorder = !chronological && !filtering && plotlineId === null && complete;
  const shownEventIds = useMemo(
    () => (filtering || plotlineId !== null ? new Set(shown.map((e) => e.id)) : null),
    [filtering, plotlineId, shown],
  );
  // Until every event is here, the rows the view still lacks are placeholders (the scroll height is right);
  // a filter the server did not apply is known only once every event is here.
  const viewTotal = complete || !serverFilters(filter) || plotlineId !== null ? shown.length : Math.max(shown.length, page.total);
  const missing = viewTotal - shown.length;
  const hints = useStoryHints({ timelineId: timeline.id, shareCode, chronological, events, dated, entities });
  const codex = useMemo<CardCodex>(
    () => ({
      entities,
      byId,
      onSelect: selectEntity,
      onCreate: canEdit ? createEntity : undefined,
      onLink: canEdit ? onLink : undefined,
    }),
    [entities, byId, selectEntity, createEntity, canEdit, onLink],
  );

  // 'Jump to event' scrolls the chosen one into the window; from the lanes or the map, the list layout opens first.
  const jumpers = useRef(new Set<(eventId: number) => boolean>()).current;
  const [pendingJump, setPendingJump] = useState<number | null>(null);
  const openFromLanes = (event: EventView) => {
    setLayout("vertical");
    setPendingJump(event.id);
  };
  const jumpTo = (event: EventView) => {
    if (layout === "lanes" || layout === "map" || layout === "grid" || layout === "ruler") return openFromLanes(event);
    for (const jump of jumpers) if (jump(event.id)) break;
  };
  // A notification's link (`?event=…&comment=…`) brings its scene into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the address the page opened with.
  useEffect(() => {
    const linked = Number(view.searchParams.get("event"));
    if (Number.isSafeInteger(linked) && linked > 0) setPendingJump(linked);
  }, []);
  useEffect(() => {
    if (pendingJump === null || layout === "lanes" || layout === "map" || layout === "grid" || layout === "ruler") return;
    for (const jump of jumpers) if (jump(pendingJump)) break;
    setPendingJump(null);
  }, [pendingJump, layout, jumpers]);
  // From the map: an event opens in the list; an entry opens in the codex (its dialog for writers, its events for readers).
  const map = {
    timelineId: timeline.id,
    shareCode,
    canEdit,
    premium,
    roomHeaders: room.writeHeaders,
    syncTick: mapTick,
    shownEventIds,
    onOpenEvent: (eventId: number) => {
      const event = events.find((e) => e.id === eventId);
      if (event) openFromLanes(event);
    },
    onOpenEntity: (entityId: number) => {
      const entity = byId.get(entityId);
      if (!entity) return;
      if (canEdit) setCodexRequest({ entity });
      else {
        setLayout("vertical");
        selectEntity(entity);
      }
    },
    onLink: async (eventId: number, entityId: number) => {
      const event = events.find((e) => e.id === eventId);
      const entity = byId.get(entityId);
      if (!event || !entity) return false;
      if (event.entityIds.includes(entityId)) return true;
      return (await link(event, entity)).ok;
    },
  };
  const list = {
    jumpers,
    canEdit,
    canReorder,
    canDelete: isOwner,
    codex,
    hints,
    writingHere: room.writingHere,
    onMove: writes.move,
    onDragging: store.setDragging,
    onSave: writes.save,
    onDelete: setDeleting,
  };
  const chapters = kit?.chapterParts({
    timeline,
    shareCode,
    store,
    room,
    view,
    live,
    refresh,
    dated,
    isOwner,
    list,
    setChaptered,
    setChapters: setChapterList,
    TimelineEvents,
  });
  const cardPlotlines = useMemo<CardPlotlines>(
    () => ({ plotlines, onSelect: (id) => view.setParam("plotline", String(id)) }),
    [plotlines, view.setParam],
  );
  const oneEntry = filter.entityIds.length === 1 && !filter.text.trim() && !filter.dated;
  const emptyView =
    viewTotal > 0
      ? null
      : oneEntry
        ? `No events are linked to ${byId.get(filter.entityIds[0])?.name ?? "this entry"} yet.`
        : "No events match these filters.";

  return (
    <EventHistoryContext.Provider value={writes.historyActions}>
      <PlotlinesContext.Provider value={cardPlotlines}>
        <AttachmentsContext.Provider value={attachmentsApi}>
          <Page>
            <TimelineHeader
              timeline={timeline}
              room={room}
              myUserId={props.myUserId}
              ended={ended}
              viewOnly={viewOnly}
              isOwner={isOwner}
              canEdit={canEdit}
              premium={premium}
              shareCode={shareCode}
              onShare={() => setSharing(true)}
              onAdd={() => setAdding(true)}
              progress={chapters?.progress}
              tools={chapters?.tools}
            />
            <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
              <section aria-label="Timeline events" className="min-w-0">
                <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
                  <h2 className="text-lg font-semibold">Events</h2>
                  <a href="#codex" className="text-sm font-medium text-brand-700 hover:underline lg:hidden">
                    Jump to Codex ({entities.length})
                  </a>
                  <TimelineToolbar
                    chronological={chronological}
                    layout={layout}
                    laneKind={laneKind}
                    onOrder={view.setOrder}
                    onLayout={setLayout}
                    onLaneKind={setLaneKind}
                  />
                  {review ? (
                    <review.ReviewTools
                      timelineId={timeline.id}
                      shareCode={shareCode ?? null}
                      myUserId={props.myUserId}
                      canEdit={canEdit}
                      isOwner={isOwner}
                      canComment={canEdit || (timeline.viewersCanComment && !ended)}
                      onJump={(id) => {
                        const event = events.find((e) => e.id === id);
                        if (event) jumpTo(event);
                      }}
                    />
                  ) : null}
                  {plotKit && canEdit ? (
                    <plotKit.PlotlinesButton
                      timelineId={timeline.id}
                      api={{ shareCode, headers: () => room.writeHeaders }}
                      plotlines={plotlines}
                      onChanged={refresh}
                      canDelete={isOwner}
                    />
                  ) : null}
                </div>
                <EventFilters filter={filter} entities={entities} chapters={chapterList} onChange={setFilter}>
                  {events.length > 1 ? <TimelineJump events={[...dated, ...undated]} complete={complete} onJump={jumpTo} /> : null}
                  {plotKit ? (
                    <plotKit.PlotlineFilter
                      plotlines={plotlines}
                      value={plotlineId}
                      onChange={(id) => view.setParam("plotline", id === null ? null : String(id))}
                    />
                  ) : null}
                </EventFilters>
                {canEdit &&
                (chronological || filtering) &&
                layout !== "lanes" &&
                layout !== "grid" &&
                layout !== "ruler" &&
                events.length > 1 ? (
                  <p className="mb-4 text-sm text-stone-600">
                    {chronological
                      ? "Switch to Story order to reorder events by dragging."
                      : "Clear the filters to reorder events by dragging."}
                  </p>
                ) : null}
                <ReviewContext.Provider value={review?.CardReview ?? null}>
                  <TimelineBody
                    layout={layout}
                    empty={events.length === 0 && page.all === 0}
                    emptyView={emptyView}
                    dated={dated}
                    undated={undated}
                    missing={missing}
                    entities={entities}
                    laneKind={laneKind}
                    chapters={chapterList}
                    coWrite={coWrite}
                    map={map}
                    list={list}
                    chaptered={chaptered && chapters?.list}
                    onOpenFromLanes={openFromLanes}
                    grid={{
                      timelineId: timeline.id,
                      shareCode,
                      headers: room.writeHeaders,
                      store,
                      refresh,
                      plotlines,
                      canEdit,
                      onAdd: setAdding,
                    }}
                  />
                </ReviewContext.Provider>
              </section>
              <div className="min-w-0 space-y-6">
                <CodexPanel
                  {...codexApi}
                  entities={entities}
                  canEdit={canEdit}
                  canDelete={isOwner}
                  onChange={setEntities}
                  onSelect={selectEntity}
                  editRequest={codexRequest}
                />
                {props.assistant ? <aside aria-label="Story Assistant">{props.assistant}</aside> : null}
              </div>
            </div>
            {dialogsUsed || anyDialog ? (
              <Suspense fallback={null}>
                <TimelineDialogs
                  timelineId={timeline.id}
                  shareCode={shareCode}
                  roomHeaders={room.writeHeaders}
                  canShare={isOwner && premium}
                  sharing={sharing}
                  onSharing={setSharing}
                  adding={adding}
                  onAdding={setAdding}
                  deleting={deleting}
                  deletePending={writes.deleting}
                  onDeleting={setDeleting}
                  onConfirmDelete={(event) => void confirmDelete(event)}
                />
              </Suspense>
            ) : null}
          </Page>
        </AttachmentsContext.Provider>
      </PlotlinesContext.Provider>
    </EventHistoryContext.Provider>
  );
});
