import { type ReactNode, Suspense, lazy, memo, useCallback, useEffect, useMemo, useState } from "react";
import { useRevalidator } from "react-router";
import { CodexPanel } from "~/features/codex/codex";
import { useCodexActionsOf, useLoadedCodex } from "~/features/codex/codex-queries";
import { AttachmentsContext } from "~/features/timeline/event-attachments";
import { registerChangeSession } from "~/features/timeline/change-sessions";
import { type ChapterOption, EventFilters } from "~/features/timeline/event-filters";
import { EventHistoryContext } from "~/features/co-writing/event-history-context";
import type { LaneKind } from "~/features/timeline/lanes-view";
import { Page } from "~/ui/page";
import { TimelineBody } from "~/features/timeline/timeline-body";
import { TimelineEvents } from "~/features/timeline/timeline-events";
import { TimelineHeader } from "~/features/timeline/timeline-header";
import { TimelineJump } from "~/features/timeline/timeline-jump";
import { EventsBar } from "~/features/timeline/events-bar";
import { SidePanelToggle, useSidePanelHidden } from "~/features/timeline/side-panel";
import { useAttachmentsApi } from "~/features/timeline/use-attachments-api";
import { useCardCodex } from "~/features/timeline/use-card-codex";
import { chapterParts, useChapteredList } from "~/features/chapters/chapter-parts";
import { useChapterList, useLoadedChapters } from "~/features/chapters/chapter-queries";
import { RefusedChanges } from "~/features/offline/refused-changes";
import { TimelineQueryProvider } from "~/features/timeline/timeline-query-provider";
import { PlotlineFilter } from "~/features/plotlines/plotline-controls";
import { useLoadedPlotlines } from "~/features/plotlines/plotline-queries";
import { CardReview } from "~/features/review/card-comments-button";
import { useTimelineJump } from "~/features/timeline/use-timeline-jump";
import { useEventWrites } from "~/features/timeline/use-event-writes";
import { registerEventSession } from "~/features/timeline/event-changes";
import { EventActionsContext, useEventActionsValue } from "~/features/timeline/event-actions";
import { TimelineSessionContext, roleOf, useTimelineSessionValue } from "~/features/timeline/timeline-session";
import { useFreshData } from "~/lib/use-fresh-data";
import { useSameValue } from "~/lib/use-same-value";
import { useStoryHints } from "~/features/timeline/use-story-hints";
import { useTimelineEvents } from "~/features/timeline/use-timeline-events";
import { useTimelineLive } from "~/features/timeline/use-timeline-live";
import { useTimelineView } from "~/features/timeline/use-timeline-view";
import { plotlineFromParams, serverFilters } from "~/features/timeline/timeline-view";
import { type CardPlotlines, PlotlinesContext } from "~/features/plotlines/plotline-context";
import { ReviewContext } from "~/features/review/review-context";
import { filterEvents } from "../../../db/domain/story-analysis";
import { sortChronologically, storyOrderKey } from "../../../db/domain/story-order";
import type { EntityView } from "../../../worker/services/entities";
import type { EventPage, EventView } from "../../../worker/services/events";
import type { PlotlineView } from "../../../worker/services/plotlines";
import type { ChapterView } from "~/features/chapters/chapters-api";
import type { AddPreset } from "~/features/plotlines/plotline-grid";
import type { TimelineView } from "../../../worker/services/timelines";

const NO_PLOTLINES: PlotlineView[] = [];
const TimelineDialogs = lazy(() => import("~/features/timeline/timeline-dialogs").then((m) => ({ default: m.TimelineDialogs })));
// An entry read as of a scene (a chip's 'Read … as of this scene'): its dialog loads when first asked for.
const EntryAsOfDialog = lazy(() => import("~/features/codex/progressions").then((m) => ({ default: m.EntryAsOfDialog })));

export { TimelineNotFound } from "~/features/timeline/timeline-not-found";

export type TimelineScreenProps = {
  timeline: TimelineView;
  /** The first screenful of events and the counts; the rest is fetched after hydration. */
  page: EventPage;
  /** The codex (characters, places, things), loaded with the page. */
  entities: EntityView[];
  /** The timeline's plotlines, loaded with the page (the cards' chips). */
  plotlines?: PlotlineView[];
  /** The timeline's chapters, loaded with the page (the list in chapters, the filters, the lanes). */
  chapters?: ChapterView[];
  /**
   * When the server made these lists (its clock, ms): the data layer keeps whichever is newer, these or the lists
   * kept on the device (a page the service worker kept can be older than them).
   */
  madeAt: number;
  premium: boolean;
  myUserId: number;
  /** Shared mode (/timeline/shared/{code}): the code is sent along with every call. */
  shareCode?: string | null;
  /** Open the Share dialog on arrival (/timeline/{id}/share). */
  openShare?: boolean;
  assistant?: ReactNode;
};

const isDated = (e: EventView) => storyOrderKey(e.storyStart) !== null;

/**
 * Memoized: the route's own re-renders (same loader data) do not render the whole screen again. The client data
 * layer (TanStack Query, docs/client-data.md) is provided around the screen.
 */
export const TimelineScreen = memo(function TimelineScreen(props: TimelineScreenProps) {
  return (
    <TimelineQueryProvider userId={props.myUserId}>
      <TimelineScreenBody {...props} />
    </TimelineQueryProvider>
  );
});

function TimelineScreenBody(props: TimelineScreenProps) {
  const { timeline, premium, shareCode, page } = props;
  const revalidator = useRevalidator();
  const refresh = useCallback(() => void revalidator.revalidate(), [revalidator]);
  // Every event in story order once loaded; until then the server's first screenful of the view.
  const store = useTimelineEvents({ timelineId: timeline.id, shareCode, page, loadState: revalidator.state, refresh });
  const { events, complete } = store;
  const view = useTimelineView();
  const { chronological, filter, filtering, layout, setLayout, setFilter } = view;
  const [sideHidden, setSideHidden] = useSidePanelHidden();
  const [codexRequest, setCodexRequest] = useState<{ entity: EntityView } | null>(null);
  // An entry read as of a card's scene (its chip's 'Read … as of this scene').
  const [reading, setReading] = useState<{ entity: EntityView; sceneId: number } | null>(null);
  const read = useCallback((event: EventView, entity: EntityView) => setReading({ entity, sceneId: event.id }), []);
  // Mounted from the first reading on, so its dialog can close as the others do.
  const [readingOpened, setReadingOpened] = useState(false);
  if (reading && !readingOpened) setReadingOpened(true);
  const [laneKind, setLaneKind] = useState<LaneKind>("character");
  // true, or the cell of the grid whose chapter and plotline the new event gets.
  const [adding, setAdding] = useState<boolean | AddPreset>(false);
  const [deleting, setDeleting] = useState<EventView | null>(null);
  const [sharing, setSharing] = useState(Boolean(props.openShare));
  // The dialogs' code loads when the first of them opens, and stays.
  const [dialogsUsed, setDialogsUsed] = useState(false);
  // The loader's plotlines seed the data layer's query (plotline-queries.ts), which the parts read themselves.
  useLoadedPlotlines(timeline.id, useSameValue(props.plotlines ?? NO_PLOTLINES), props.madeAt);
  // The chapters too (chapter-queries.ts): the first paint has them, and nothing is fetched at mount.
  useLoadedChapters(timeline.id, useSameValue(props.chapters), props.madeAt);
  const plotlineId = plotlineFromParams(view.searchParams);
  const anyDialog = sharing || adding !== false || deleting !== null;
  useEffect(() => {
    if (anyDialog) setDialogsUsed(true);
  }, [anyDialog]);
  useFreshData(page.all === 0, timeline.id);

  const live = useTimelineLive({ timeline, shareCode, myUserId: props.myUserId, events, patch: store.patch, refresh });
  const { room, ended, viewOnly, canEdit, coWrite, mapTick } = live;
  const isOwner = timeline.accessLevel === "owner" && !ended;
  const { patch } = store;
  const session = useTimelineSessionValue({
    timelineId: timeline.id,
    shareCode,
    role: roleOf(timeline.accessLevel, canEdit, Boolean(ended)),
    canEdit,
    connectionId: room.connectionId,
  });
  useEffect(() => registerChangeSession(timeline.id, { client: session.client, refresh }), [timeline.id, session.client, refresh]);
  // The chapters in order, once loaded (the filters, the lanes and the list in chapters name them).
  const chapterQuery = useChapterList(timeline.id, shareCode, session.client);
  const chapterList: ChapterOption[] | undefined = chapterQuery.loaded ? chapterQuery.chapters : undefined;
  const chaptered = chapterQuery.loaded && chapterQuery.chapters.length > 0;

  const { landed } = store;
  useEffect(
    () => registerEventSession(timeline.id, { client: session.client, refresh, landed }),
    [timeline.id, session.client, refresh, landed],
  );
  const writes = useEventWrites({ timelineId: timeline.id, shareCode, client: session.client, store, refresh });
  const { link, linkAll } = writes;
  const eventActions = useEventActionsValue({ save: writes.save, askDelete: setDeleting });
  const confirmDelete = async (event: EventView) => {
    if (await writes.remove(event)) setDeleting(null);
  };

  const attachmentsApi = useAttachmentsApi({ session, events, patch });

  // The loader's codex seeds the data layer's query (codex-queries.ts); the panel and the cards read it.
  useLoadedCodex(timeline.id, useSameValue(props.entities), props.madeAt);
  const { entities, byId, codexApi, selectEntity, codex } = useCardCodex({
    timelineId: timeline.id,
    shareCode,
    client: session.client,
    canEdit,
    create: useCodexActionsOf(timeline.id, shareCode).create,
    setFilter,
    link,
    linkAll,
    read,
  });

  const sceneOptions = useMemo(() => events.map((e) => ({ id: e.id, title: e.title })), [events]);
  // What is shown: story order (draggable) or chronological (by story start, undated last, like the server).
  const shown = useMemo(
    () => filterEvents(events, filter).filter((e) => plotlineId === null || e.plotlineIds?.includes(plotlineId)),
    [events, filter, plotlineId],
  );
  const sorted = useMemo(() => (chronological ? sortChronologically(shown) : null), [chronological, shown]);
  const dated = useMemo(() => (sorted ? sorted.filter(isDated) : shown), [sorted, shown]);
  const undated = sorted ? sorted.filter((e) => !isDated(e)) : [];
  const storyOrder = !chronological && !filtering && plotlineId === null;
  const canReorder = storyOrder && complete;
  const shownEventIds = useMemo(
    () => (filtering || plotlineId !== null ? new Set(shown.map((e) => e.id)) : null),
    [filtering, plotlineId, shown],
  );
  // Until every event is here, the rows the view still lacks are placeholders (the scroll height is right);
  // a filter the server did not apply is known only once every event is here.
  const viewTotal = complete || !serverFilters(filter) || plotlineId !== null ? shown.length : Math.max(shown.length, page.total);
  const missing = viewTotal - shown.length;
  const hints = useStoryHints({ timelineId: timeline.id, shareCode, chronological, events, dated, entities });
  const { jumpers, openFromLanes, jumpTo } = useTimelineJump({ layout, setLayout, searchParams: view.searchParams });
  // From the map: an event opens in the list; an entry opens in the codex (its dialog for writers, its events for readers).
  const map = {
    timelineId: timeline.id,
    shareCode,
    canEdit,
    premium,
    syncTick: mapTick,
    shownEventIds,
    scenes: sceneOptions,
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
    // The handles are there from the first paint (their column too), usable once every event is here.
    reorderLater: storyOrder && !complete,
    canDelete: isOwner,
    codex,
    hints,
    writingHere: room.writingHere,
    onMove: writes.move,
    onDragging: store.setDragging,
  };
  const ChapteredList = useChapteredList(chaptered);
  const chapters = chapterParts({ timeline, store, session, view, dated, list, TimelineEvents, ChapteredList });
  const cardPlotlines = useMemo<CardPlotlines>(() => ({ onSelect: (id) => view.setParam("plotline", String(id)) }), [view.setParam]);
  const oneEntry = filter.entityIds.length === 1 && !filter.text.trim() && !filter.dated;
  const emptyView =
    viewTotal > 0
      ? null
      : oneEntry
        ? `No events are linked to ${byId.get(filter.entityIds[0])?.name ?? "this entry"} yet.`
        : "No events match these filters.";

  const screen = (
    <EventHistoryContext.Provider value={writes.historyActions}>
      <PlotlinesContext.Provider value={cardPlotlines}>
        <AttachmentsContext.Provider value={attachmentsApi}>
          <Page oneOfflineNote>
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
              progress={chapters.progress}
              tools={chapters.tools}
            />
            <RefusedChanges />
            <div className={sideHidden ? "mt-4 grid gap-8" : "mt-4 grid gap-8 lg:grid-cols-[1fr_22rem]"}>
              {/* Busy while the events or the chapters are being reloaded (after a change, the room's sync). */}
              <section aria-label="Timeline events" aria-busy={revalidator.state !== "idle" || chapterQuery.busy} className="min-w-0">
                <EventsBar
                  timeline={timeline}
                  shareCode={shareCode}
                  myUserId={props.myUserId}
                  canEdit={canEdit}
                  isOwner={isOwner}
                  ended={ended}
                  codexSize={entities.length}
                  client={session.client}
                  refresh={refresh}
                  onJump={(id) => {
                    const event = events.find((e) => e.id === id);
                    if (event) jumpTo(event);
                  }}
                  chronological={chronological}
                  layout={layout}
                  laneKind={laneKind}
                  onOrder={view.setOrder}
                  onLayout={setLayout}
                  onLaneKind={setLaneKind}
                  sideToggle={<SidePanelToggle hidden={sideHidden} onHidden={setSideHidden} />}
                />
                <EventFilters filter={filter} entities={entities} chapters={chapterList} myUserId={props.myUserId} onChange={setFilter}>
                  {events.length > 1 ? <TimelineJump events={[...dated, ...undated]} complete={complete} onJump={jumpTo} /> : null}
                  <PlotlineFilter value={plotlineId} onChange={(id) => view.setParam("plotline", id === null ? null : String(id))} />
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
                <ReviewContext.Provider value={CardReview}>
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
                    chaptered={chaptered && chapters.list}
                    onOpenFromLanes={openFromLanes}
                    grid={{ store, refresh, onAdd: setAdding }}
                    relationships={{ entities, scenes: sceneOptions, syncTick: mapTick }}
                  />
                </ReviewContext.Provider>
              </section>
              <div id="timeline-side-panel" className={sideHidden ? "min-w-0 space-y-6 lg:hidden" : "min-w-0 space-y-6"}>
                <CodexPanel
                  {...codexApi}
                  canEdit={canEdit}
                  canDelete={isOwner}
                  onSelect={selectEntity}
                  editRequest={codexRequest}
                  scenes={sceneOptions}
                />
                {readingOpened ? (
                  <Suspense fallback={null}>
                    <EntryAsOfDialog {...codexApi} reading={reading} scenes={sceneOptions} onClose={() => setReading(null)} />
                  </Suspense>
                ) : null}
                {props.assistant ? <aside aria-label="Story Assistant">{props.assistant}</aside> : null}
              </div>
            </div>
            {dialogsUsed || anyDialog ? (
              <Suspense fallback={null}>
                <TimelineDialogs
                  timelineId={timeline.id}
                  shareCode={shareCode}
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
  return (
    <TimelineSessionContext.Provider value={session}>
      <EventActionsContext.Provider value={eventActions}>{screen}</EventActionsContext.Provider>
    </TimelineSessionContext.Provider>
  );
}
