import { ArrowLeft, ChartGantt, Columns3, Network, Plus, Rows3, Share2, Sparkles, Users, Wifi, WifiOff } from "lucide-react";
import { type ReactNode, Suspense, lazy, memo, startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useRevalidator, useSearchParams } from "react-router";
import { CodexPanel, createEntityRequest, useEntityMap } from "~/components/codex";
import { type AccessEnd, CoWriteContext, type CoWriteApi } from "~/components/co-editor-context";
import { AttachmentsContext } from "~/components/event-attachments";
import type { CardCodex, EventChanges, SaveResult, StoryHints } from "~/components/event-card";
import { EventFilters } from "~/components/event-filters";
import { EventHistoryContext, type EventHistoryActions } from "~/components/event-history-context";
import { ExportMenu } from "~/components/export-menu";
import type { LaneKind } from "~/components/lanes-view";
import { Page } from "~/components/page";
import { NotificationBanner, PresenceStack } from "~/components/presence";
import { arrayMove, type Layout, TimelineEvents } from "~/components/timeline-events";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { useFreshData } from "~/hooks/use-fresh-data";
import { useMutation } from "~/hooks/use-mutation";
import { useTimelineRoom } from "~/hooks/use-timeline-room";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { cn } from "~/lib/cn";
import { pendingDocs } from "~/lib/offline-docs";
import { errorToast } from "~/lib/toast";
import type { EntityKind } from "../../db/rules";
import {
  type ContinuityFlag,
  continuityFlags,
  type EventFilter,
  filterEvents,
  filterFromParams,
  filterToParams,
  isFiltering,
  storyGap,
  unlinkedMentions,
} from "../../db/story-analysis";
import { storySortKey } from "../../db/story-date";
import type { EntityView } from "../../worker/services/entities";
import type { EventOrder, EventPage, EventView } from "../../worker/services/events";
import type { TimelineView } from "../../worker/services/timelines";

// Only owners on Premium ever open it: loaded on first use, not with the page.
const loadShareDialog = () => import("~/components/share-dialog");
const ShareDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareDialog })));

// Opened on demand: loaded on first use (or when the pointer nears the button), not with the page.
const loadForms = () => import("~/components/timeline-forms");
const EventDialog = lazy(() => loadForms().then((m) => ({ default: m.EventDialog })));

// The Lanes layout: loaded only when opened (issue 11).
const LanesView = lazy(() => import("~/components/lanes-view").then((m) => ({ default: m.LanesView })));

// The Map layout (xyflow and its CSS): loaded only when opened.
const loadMindMap = () => import("~/components/mind-map/mind-map");
const MindMapView = lazy(loadMindMap);
const loadAccessEnded = () => import("~/components/access-ended");
const AccessEndedBanner = lazy(loadAccessEnded);

export const TYPING_DEBOUNCE_MS = 250;

/** Mirrors FIRST_SCREEN_EVENTS on the server (worker/services/events.ts), for pages built from a full list. */
const FIRST_SCREEN = 24;

/** A filter the server's first screenful applies itself: none, or one codex entry. */
const serverFilters = (f: EventFilter) => !f.text.trim() && !f.dated && f.entityIds.length <= 1;

/** The view in the address: order and (when the server can apply it) the codex filter. */
export function eventViewOf(url: URL): { order: EventOrder; entityId: number | null } {
  const filter = filterFromParams(url.searchParams);
  return {
    order: url.searchParams.get("order") === "chronological" ? "chronological" : "position",
    entityId: serverFilters(filter) ? (filter.entityIds[0] ?? null) : null,
  };
}

/** The first screenful of a view from a full list (shared mode's service returns every event). */
export function firstScreenOf(all: EventView[], url: URL): EventPage {
  const { order } = eventViewOf(url);
  const shown = filterEvents(all, filterFromParams(url.searchParams));
  const sorted = order === "chronological" ? sortChronologically(shown) : shown;
  return { events: sorted.slice(0, FIRST_SCREEN), total: shown.length, all: all.length };
}

const VIEW_KEYS = new Set(["order", "entity", "match", "q", "dated"]);

/** Only the order or the filter changed: the screen already holds every event, nothing to reload. */
export function onlyViewChanged(current: URL, next: URL) {
  if (current.pathname !== next.pathname) return false;
  const keys = new Set([...current.searchParams.keys(), ...next.searchParams.keys()]);
  let changed = false;
  for (const key of keys) {
    if (current.searchParams.getAll(key).join() === next.searchParams.getAll(key).join()) continue;
    if (!VIEW_KEYS.has(key)) return false;
    changed = true;
  }
  return changed;
}

const byPosition = (list: EventView[]) => [...list].sort((a, b) => a.position - b.position || a.id - b.id);

/** `next`, with each event equal to the one `current` has kept as that object (`current` itself if nothing changed). */
export function keepUnchanged(current: EventView[], next: EventView[]): EventView[] {
  const held = new Map(current.map((e) => [e.id, e]));
  let same = current.length === next.length;
  const merged = next.map((e, i) => {
    const old = held.get(e.id);
    const kept = old !== undefined && (old === e || JSON.stringify(old) === JSON.stringify(e)) ? old : e;
    if (kept !== current[i]) same = false;
    return kept;
  });
  return same ? current : merged;
}

export type TimelineScreenProps = {
  timeline: TimelineView;
  /** The first screenful of events and the counts; the rest is fetched after hydration. */
  page: EventPage;
  /** The codex (characters, places, things), loaded with the page. */
  entities: EntityView[];
  premium: boolean;
  myUserId: number;
  /** Shared mode (/timeline/shared/{code}): the code is sent along with every call. */
  shareCode?: string | null;
  /** Open the Share dialog on arrival (/timeline/{id}/share). */
  openShare?: boolean;
  assistant?: ReactNode;
};

/** Memoized: the route's own re-renders (same loader data) do not render the whole screen again. */
export const TimelineScreen = memo(function TimelineScreen(props: TimelineScreenProps) {
  const { timeline, premium, shareCode } = props;
  const revalidator = useRevalidator();
  const { page } = props;
  // Every event in story order once loaded; until then the server's first screenful of the view.
  const [events, setEvents] = useState(page.events);
  const [complete, setComplete] = useState(page.events.length === page.all);
  const [entities, setEntities] = useState(props.entities);
  const [searchParams, setSearchParams] = useSearchParams();
  const chronological = searchParams.get("order") === "chronological";
  const paramsKey = searchParams.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address's text is the filter's identity
  const filter = useMemo(() => filterFromParams(searchParams), [paramsKey]);
  const filtering = isFiltering(filter);
  const [layout, setLayout] = useState<Layout | "lanes" | "map">("vertical");
  // Bumped on every room sync: an open map refetches (a map-only sync reloads nothing else).
  const [mapTick, setMapTick] = useState(0);
  const [codexRequest, setCodexRequest] = useState<{ entity: EntityView } | null>(null);
  const [laneKind, setLaneKind] = useState<LaneKind>("character");
  const [adding, setAdding] = useState(false);
  const [addMounted, setAddMounted] = useState(false);
  useEffect(() => {
    if (adding) setAddMounted(true);
  }, [adding]);
  const [deleting, setDeleting] = useState<EventView | null>(null);
  const [sharing, setSharing] = useState(Boolean(props.openShare));
  const [shareMounted, setShareMounted] = useState(sharing);
  useEffect(() => {
    if (sharing) setShareMounted(true);
  }, [sharing]);
  const query = shareParam(shareCode);
  // Co-writing edits typed offline in an editor that a reload then closed: sent in the background once the
  // room is connected (issue 13); then the cards refresh.
  const offlineSent = useRef(false);

  // Server data wins whenever it arrives (a sync, a focus refetch), except while our own write is on its
  // way: data loaded before it landed would undo it on screen. Such a load is redone once the write is in.
  const ownWrites = useRef(0);
  const writesStarted = useRef(0);
  const missedLoad = useRef(false);
  const loadSeq = useRef(0);
  // A drag in progress holds incoming lists too: new items mid-drag make dnd-kit lose its drop targets.
  const dragging = useRef(false);
  const applyLoaded = useCallback((list: EventView[], writesAtStart: number) => {
    if (ownWrites.current > 0 || dragging.current || writesStarted.current !== writesAtStart) {
      missedLoad.current = true;
      return false;
    }
    // A transition (rendered in slices, never one long task), and the events that did not change keep their
    // objects, so their memoized cards do not render again (issue 11).
    startTransition(() => {
      setEvents((current) => keepUnchanged(current, byPosition(list)));
      setComplete(true);
    });
    return true;
  }, []);
  // A page that holds every event is the whole list; otherwise the list comes from the API (ETag: a
  // refetch of an unchanged list is a 304).
  useEffect(() => {
    const writesAtStart = writesStarted.current;
    const seq = ++loadSeq.current;
    if (page.events.length === page.all) {
      applyLoaded(page.events, writesAtStart);
      return;
    }
    unwrap(
      client.api.timelines[":id"].events.$get({
        param: { id: String(timeline.id) },
        query: { ...shareParam(shareCode), order: "position" },
      }),
    )
      .then((list) => {
        if (seq !== loadSeq.current) return;
        if (!applyLoaded(list, writesAtStart) && ownWrites.current === 0) refreshRef.current();
      })
      .catch(() => errorToast("Failed to fetch events"));
  }, [page, timeline.id, shareCode, applyLoaded]);
  // A reload that brings the same codex keeps the list as it was (the cards it reaches stay as they are).
  useEffect(
    () => setEntities((current) => (JSON.stringify(current) === JSON.stringify(props.entities) ? current : props.entities)),
    [props.entities],
  );
  useFreshData(page.all === 0, timeline.id);

  // My access ended while an editor was open (removed, signed out): the page stays, read-only, so the
  // editor can offer its text for copying; `viewOnly`: I was made a viewer (the room reconnects me read-only).
  const [ended, setEnded] = useState<AccessEnd | null>(null);
  const [viewOnly, setViewOnly] = useState<AccessEnd | null>(null);
  const access = timeline.accessLevel;
  const isOwner = access === "owner" && !ended;
  const canEdit = (access === "owner" || access === "collaborator") && !ended;
  const refresh = useCallback(() => void revalidator.revalidate(), [revalidator]);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const loading = useRef(revalidator.state);
  loading.current = revalidator.state;

  const ownWriteRef = useRef(ownWrite);
  ownWriteRef.current = ownWrite;
  /** Our own write: no reload for it (its result is on screen), unless a load crossed it. */
  async function ownWrite<T>(write: () => Promise<T>): Promise<T> {
    ownWrites.current += 1;
    writesStarted.current += 1;
    try {
      return await write();
    } finally {
      ownWrites.current -= 1;
      if (ownWrites.current === 0 && (missedLoad.current || loading.current !== "idle")) {
        missedLoad.current = false;
        refresh();
      }
    }
  }

  const room = useTimelineRoom({
    timelineId: timeline.id,
    shareCode,
    myUserId: props.myUserId,
    onSync: (scope) => {
      setMapTick((t) => t + 1);
      if (scope !== "map") refresh();
    },
    onRemoteChange: (eventId, change) =>
      setEvents((list) =>
        list.map((e) => (e.id === eventId && typeof change.value === "string" ? { ...e, [change.type]: change.value } : e)),
      ),
    onAccessLost: (why) => {
      if (why && room.editorsOpen()) return setEnded(why);
      void loadAccessEnded().then((m) => errorToast(m.lostAccessText(why)));
      refresh();
    },
    onViewOnly: (why) => {
      setViewOnly(why);
      refresh();
    },
  });
  useEffect(() => {
    if (!room.connected || !canEdit || offlineSent.current) return;
    offlineSent.current = true;
    const ids = pendingDocs(events.map((e) => e.id));
    if (ids.length === 0) return;
    void import("~/components/co-sync").then(async ({ syncOfflineCopy }) => {
      let sent = false;
      for (const id of ids) sent = (await syncOfflineCopy(timeline.id, id, shareCode ?? null).catch(() => false)) || sent;
      if (sent) refreshRef.current();
    });
  }, [room.connected, canEdit, events, timeline.id, shareCode]);

  // Typing is sent debounced per event, so others see it live without a message per keystroke.
  const typingTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const onTyping = useCallback(
    (event: EventView, change: { type: "title" | "content"; value: string }) => {
      const key = `${event.id}:${change.type}`;
      clearTimeout(typingTimers.current.get(key));
      typingTimers.current.set(
        key,
        setTimeout(() => room.sendChange(event.id, change), TYPING_DEBOUNCE_MS),
      );
    },
    [room.sendChange],
  );

  const patchEvent = (eventId: number, changes: { position: number } | EventChanges) =>
    unwrap(client.api.events[":id"].$patch({ param: { id: String(eventId) }, query, json: changes }, { headers: room.writeHeaders }));

  // The optimistic order stands; the room's sync brings everyone else's changes (and ours to them).
  const moveEvent = useMutation((eventId: number, _before: EventView[], to: number) => patchEvent(eventId, { position: to }), {
    error: (_, _eventId, before) => {
      setEvents(before);
      return "Failed to update event";
    },
    revalidate: false,
  });
  function onDragging(active: boolean) {
    dragging.current = active;
    // Dropped where it was, or cancelled: no write follows, so a load held back meanwhile is redone now.
    if (!active) {
      setTimeout(() => {
        if (ownWrites.current === 0 && missedLoad.current) {
          missedLoad.current = false;
          refresh();
        }
      });
    }
  }
  function move(eventId: number, from: number, to: number) {
    const before = events;
    setEvents(arrayMove(events, from, to).map((e, i) => (e.position === i ? e : { ...e, position: i })));
    void ownWrite(() => moveEvent.run(eventId, before, to));
  }

  // The server's returned event stands; no reload needed.
  const saveEvent = useMutation((event: EventView, changes: EventChanges) => patchEvent(event.id, changes), {
    success: { title: "Success", description: "Event updated successfully" },
    error: (error) => errorMessage(error, "Failed to update event"),
    revalidate: false,
    onSuccess: (updated) => setEvents((list) => list.map((e) => (e.id === updated.id ? updated : e))),
  });
  // Restoring a version (the card's History): the returned event replaces ours, as after a save.
  const restoreVersion = useMutation(
    (versionId: number) =>
      unwrap(
        client.api["event-versions"][":id"].restore.$post({ param: { id: String(versionId) }, query }, { headers: room.writeHeaders }),
      ),
    {
      success: { title: "Version restored" },
      error: "Failed to restore this version",
      revalidate: false,
      onSuccess: (updated) => setEvents((list) => list.map((e) => (e.id === updated.id ? updated : e))),
    },
  );
  const restoreRef = useRef(restoreVersion.run);
  restoreRef.current = restoreVersion.run;
  const historyActions = useMemo<EventHistoryActions>(
    () => ({
      shareCode: shareCode ?? null,
      restore: async (versionId) => {
        const outcome = await ownWriteRef.current(() => restoreRef.current(versionId));
        return outcome.ok ? outcome.data : null;
      },
    }),
    [shareCode],
  );

  async function save(event: EventView, changes: EventChanges): Promise<SaveResult> {
    const outcome = await ownWrite(() => saveEvent.run(event, changes));
    return { ok: outcome.ok };
  }

  const myName = room.users.find((u) => u.userId === props.myUserId)?.userName ?? "";
  // The cards' co-writing editors (issue 13): who I am, and the room told which editor I have open.
  const coWrite = useMemo<CoWriteApi>(
    () => ({
      timelineId: timeline.id,
      shareCode: shareCode ?? null,
      myUserId: props.myUserId,
      myName,
      setEditing: room.setEditing,
      showText: (eventId, text) => setEvents((list) => list.map((e) => (e.id === eventId ? { ...e, ...text } : e))),
      ended,
    }),
    [timeline.id, shareCode, props.myUserId, myName, room.setEditing, ended],
  );

  const deleteEvent = useMutation(
    (event: EventView) =>
      unwrap(client.api.events[":id"].$delete({ param: { id: String(event.id) }, query }, { headers: room.writeHeaders })),
    {
      success: { title: "Success", description: "Event deleted successfully" },
      error: () => "Failed to delete event",
      onSuccess: (_, event) => {
        setEvents((list) => list.filter((e) => e.id !== event.id));
        setDeleting(null);
      },
    },
  );
  const confirmDelete = () => (deleting ? void deleteEvent.run(deleting) : undefined);

  // Attachments: the cards upload and remove on their own; the screen keeps the event list in step.
  // One object for the page's life: the room's headers are read when a card sends, so a (re)connection does
  // not render every card again (issue 11).
  const writeHeaders = useRef(room.writeHeaders);
  writeHeaders.current = room.writeHeaders;
  const attachmentsApi = useMemo(
    () => ({
      shareCode,
      get roomHeaders() {
        return writeHeaders.current;
      },
      onChange: (eventId: number, update: (list: EventView["attachments"]) => EventView["attachments"]) =>
        setEvents((list) => list.map((e) => (e.id === eventId ? { ...e, attachments: update(e.attachments) } : e))),
    }),
    [shareCode],
  );

  // The codex as the cards see it: chips filter the timeline, the picker may create a character.
  const codexApi = { timelineId: timeline.id, shareCode, roomHeaders: room.writeHeaders };
  const createFromPicker = useMutation((kind: EntityKind, name: string) => createEntityRequest(codexApi, { kind, name }), {
    success: { title: "Success", description: "Codex entry created" },
    error: "Failed to create codex entry",
    revalidate: false,
    onSuccess: (created) => setEntities((list) => [...list, created]),
  });
  const latestSearch = useRef(setSearchParams);
  latestSearch.current = setSearchParams;
  const setParam = useCallback((name: string, value: string | null) => {
    latestSearch.current(
      (params) => {
        const next = new URLSearchParams(params);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, []);
  // Filter changes build on the latest one asked for, even before the address (and so `filter`) has caught up:
  // two quick clicks must not undo each other.
  const pendingFilter = useRef<EventFilter | null>(null);
  const latestFilter = useRef(filter);
  latestFilter.current = filter;
  useEffect(() => {
    const same = (a: EventFilter, b: EventFilter) =>
      filterToParams(a, new URLSearchParams()).toString() === filterToParams(b, new URLSearchParams()).toString();
    if (pendingFilter.current && same(pendingFilter.current, filter)) pendingFilter.current = null;
  }, [filter]);
  const setFilter = useCallback((update: EventFilter | ((current: EventFilter) => EventFilter)) => {
    const base = pendingFilter.current ?? latestFilter.current;
    const next = typeof update === "function" ? update(base) : update;
    pendingFilter.current = next;
    latestSearch.current((params) => filterToParams(next, params), { replace: true, preventScrollReset: true });
  }, []);
  const selectEntity = useCallback(
    (entity: EntityView) => setFilter({ entityIds: [entity.id], match: "any", text: "", dated: null }),
    [setFilter],
  );
  const createEntity = useCallback(async (kind: EntityKind, name: string) => {
    const outcome = await latestCreate.current(kind, name);
    return outcome.ok ? outcome.data : null;
  }, []);
  const latestCreate = useRef(createFromPicker.run);
  latestCreate.current = createFromPicker.run;
  const byId = useEntityMap(entities);

  // What is shown: story order (draggable) or chronological (by story start, undated last, like the server).
  const shown = useMemo(() => filterEvents(events, filter), [events, filter]);
  const sorted = useMemo(() => (chronological ? sortChronologically(shown) : null), [chronological, shown]);
  const dated = useMemo(
    () => (sorted ? sorted.filter((e) => e.storyStart && storySortKey(e.storyStart) !== null) : shown),
    [sorted, shown],
  );
  const undated = sorted ? sorted.filter((e) => !(e.storyStart && storySortKey(e.storyStart) !== null)) : [];
  const canReorder = !chronological && !filtering && complete;
  // Until every event is here, the rows the view still lacks are placeholders (the scroll height is right);
  // a filter the server did not apply is known only once every event is here.
  const viewTotal = complete || !serverFilters(filter) ? shown.length : Math.max(shown.length, page.total);

  // The story model's notes on the cards: in chronological order the gap to the previous dated event and
  // continuity clashes; always, codex names mentioned but not linked ('Link Mara?').
  const linkEntity = useMutation(
    (event: EventView, entity: EntityView) =>
      unwrap(
        client.api.events[":id"].$patch(
          { param: { id: String(event.id) }, query, json: { entityIds: [...event.entityIds, entity.id] } },
          { headers: room.writeHeaders },
        ),
      ),
    {
      success: (_, _event, entity) => ({ title: "Success", description: `${entity.name} linked` }),
      error: (error) => errorMessage(error, "Failed to update event"),
      revalidate: false,
      onSuccess: (updated) => setEvents((list) => list.map((e) => (e.id === updated.id ? updated : e))),
    },
  );
  const latestLink = useRef(linkEntity.run);
  latestLink.current = linkEntity.run;
  const onLink = useCallback(
    (event: EventView, entity: EntityView) => void ownWriteRef.current(() => latestLink.current(event, entity)),
    [],
  );
  const keptHints = useRef(new Map<number, StoryHints>());
  const hints = useMemo(() => {
    const flags = new Map<number, ContinuityFlag[]>();
    const gaps = new Map<number, string | null>();
    if (chronological) {
      for (const flag of continuityFlags(events, entities)) flags.set(flag.eventId, [...(flags.get(flag.eventId) ?? []), flag]);
      for (let i = 1; i < dated.length; i++) gaps.set(dated[i].id, storyGap(dated[i - 1], dated[i]));
    }
    const cache = new WeakMap<EventView, StoryHints>();
    const kept = keptHints.current;
    return (event: EventView): StoryHints => {
      let found = cache.get(event);
      if (!found) {
        found = { gap: gaps.get(event.id) ?? null, flags: flags.get(event.id) ?? [], mentions: unlinkedMentions(event, entities) };
        // What a card was told before, while it still holds: its memoized card does not render again.
        const before = kept.get(event.id);
        if (before && JSON.stringify(before) === JSON.stringify(found)) found = before;
        else kept.set(event.id, found);
        cache.set(event, found);
      }
      return found;
    };
  }, [chronological, events, entities, dated]);
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
  const missing = viewTotal - shown.length;
  // 'Jump to event': filters the view's events by title and scrolls the chosen one into the window.
  const jumpers = useRef(new Set<(eventId: number) => boolean>()).current;
  const [jumpQuery, setJumpQuery] = useState("");
  const needle = jumpQuery.trim().toLowerCase();
  const matches = needle ? [...dated, ...undated].filter((e) => e.title.toLowerCase().includes(needle)).slice(0, 8) : [];
  const jumpTo = (event: EventView) => {
    setJumpQuery("");
    if (layout === "lanes" || layout === "map") return openFromLanes(event);
    for (const jump of jumpers) if (jump(event.id)) break;
  };
  // From the lanes (or the jump box while they show): the list layout, scrolled to the event.
  const [pendingJump, setPendingJump] = useState<number | null>(null);
  const openFromLanes = (event: EventView) => {
    setLayout("vertical");
    setPendingJump(event.id);
  };
  useEffect(() => {
    if (pendingJump === null || layout === "lanes" || layout === "map") return;
    for (const jump of jumpers) if (jump(pendingJump)) break;
    setPendingJump(null);
  }, [pendingJump, layout, jumpers]);
  // From the map: an event opens in the list; an entry opens in the codex (its dialog for writers, its events for readers).
  const openEventFromMap = (eventId: number) => {
    const event = events.find((e) => e.id === eventId);
    if (event) openFromLanes(event);
  };
  const openEntityFromMap = (entityId: number) => {
    const entity = byId.get(entityId);
    if (!entity) return;
    if (canEdit) setCodexRequest({ entity });
    else {
      setLayout("vertical");
      selectEntity(entity);
    }
  };
  const linkFromMap = async (eventId: number, entityId: number) => {
    const event = events.find((e) => e.id === eventId);
    const entity = byId.get(entityId);
    if (!event || !entity) return false;
    if (event.entityIds.includes(entityId)) return true;
    const outcome = await ownWrite(() => linkEntity.run(event, entity));
    return outcome.ok;
  };
  const listProps = {
    jumpers,
    layout: layout === "lanes" || layout === "map" ? ("vertical" as const) : layout,
    canEdit,
    canReorder,
    canDelete: isOwner,
    codex,
    hints,
    writingHere: room.writingHere,
    onMove: move,
    onDragging,
    onSave: save,
    onDelete: setDeleting,
    onTyping,
  };

  return (
    <EventHistoryContext.Provider value={historyActions}>
      <AttachmentsContext.Provider value={attachmentsApi}>
        <Page>
          <Link to="/timeline" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
            <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Timelines
          </Link>
          {ended || (viewOnly && access === "viewer") ? (
            <Suspense fallback={null}>
              <AccessEndedBanner end={(ended ?? viewOnly)!} editorOpen={Boolean(ended)} />
            </Suspense>
          ) : null}
          <div className="mt-3 flex flex-wrap items-start justify-between gap-4">
            <div className="min-w-0 space-y-2">
              <h1 className="font-serif text-3xl font-bold break-words">{timeline.title}</h1>
              <div className="flex flex-wrap items-center gap-2">
                {timeline.isShared ? (
                  <Badge className="gap-1">
                    <Users aria-hidden="true" className="h-3 w-3" /> Shared
                  </Badge>
                ) : null}
                {room.connected ? (
                  <Badge variant="success" className="gap-1">
                    <Wifi aria-hidden="true" className="h-3 w-3" /> Connected
                  </Badge>
                ) : (
                  <Badge variant="secondary" className="gap-1">
                    <WifiOff aria-hidden="true" className="h-3 w-3" /> Disconnected
                  </Badge>
                )}
                {access === "viewer" ? <Badge variant="outline">Viewer</Badge> : null}
                {access === "collaborator" ? <Badge variant="outline">Collaborator</Badge> : null}
                <PresenceStack users={room.users} myUserId={props.myUserId} />
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <ExportMenu timelineId={timeline.id} shareCode={shareCode} />
              {isOwner ? (
                premium ? (
                  <Button variant="outline" onClick={() => setSharing(true)} onPointerEnter={() => void loadShareDialog()}>
                    <Share2 aria-hidden="true" className="h-4 w-4" /> Share
                  </Button>
                ) : (
                  <Button asChild variant="outline">
                    <Link to="/upgrade">
                      <Sparkles aria-hidden="true" className="h-4 w-4" /> Upgrade to Share
                    </Link>
                  </Button>
                )
              ) : null}
              {canEdit ? (
                <Button onClick={() => setAdding(true)} onPointerEnter={() => void loadForms()}>
                  <Plus aria-hidden="true" className="h-4 w-4" /> Add Event
                </Button>
              ) : null}
            </div>
          </div>
          <NotificationBanner notifications={room.notifications} />
          {timeline.description ? <p className="mt-4 max-w-3xl whitespace-pre-wrap text-stone-700">{timeline.description}</p> : null}

          <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
            <section aria-label="Timeline events" className="min-w-0">
              <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
                <h2 className="text-lg font-semibold">Events</h2>
                <a href="#codex" className="text-sm font-medium text-brand-700 hover:underline lg:hidden">
                  Jump to Codex ({entities.length})
                </a>
                <div className="flex flex-wrap items-center gap-2">
                  <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
                    <legend className="sr-only">Order</legend>
                    <LayoutButton active={!chronological} onClick={() => setParam("order", null)}>
                      Story order
                    </LayoutButton>
                    <LayoutButton active={chronological} onClick={() => setParam("order", "chronological")}>
                      Chronological
                    </LayoutButton>
                  </fieldset>
                  <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
                    <legend className="sr-only">Layout</legend>
                    <LayoutButton
                      active={layout === "vertical"}
                      onClick={() => setLayout("vertical")}
                      icon={<Rows3 aria-hidden="true" className="h-4 w-4" />}
                    >
                      Vertical
                    </LayoutButton>
                    <LayoutButton
                      active={layout === "horizontal"}
                      onClick={() => setLayout("horizontal")}
                      icon={<Columns3 aria-hidden="true" className="h-4 w-4" />}
                    >
                      Horizontal
                    </LayoutButton>
                    <LayoutButton
                      active={layout === "lanes"}
                      onClick={() => setLayout("lanes")}
                      icon={<ChartGantt aria-hidden="true" className="h-4 w-4" />}
                    >
                      Lanes
                    </LayoutButton>
                    <LayoutButton
                      active={layout === "map"}
                      onClick={() => setLayout("map")}
                      onPointerEnter={() => void loadMindMap()}
                      icon={<Network aria-hidden="true" className="h-4 w-4" />}
                    >
                      Map
                    </LayoutButton>
                  </fieldset>
                  {layout === "lanes" ? (
                    <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
                      <legend className="sr-only">Lanes by</legend>
                      <LayoutButton active={laneKind === "character"} onClick={() => setLaneKind("character")}>
                        By character
                      </LayoutButton>
                      <LayoutButton active={laneKind === "place"} onClick={() => setLaneKind("place")}>
                        By place
                      </LayoutButton>
                    </fieldset>
                  ) : null}
                </div>
              </div>
              <EventFilters filter={filter} entities={entities} onChange={setFilter}>
                {events.length > 1 ? (
                  <form
                    aria-label="Jump to event"
                    className="relative w-full max-w-sm"
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (matches[0]) jumpTo(matches[0]);
                    }}
                  >
                    <label htmlFor="jump-to-event" className="sr-only">
                      Jump to event
                    </label>
                    <input
                      id="jump-to-event"
                      type="search"
                      value={jumpQuery}
                      onChange={(e) => setJumpQuery(e.target.value)}
                      placeholder="Jump to event"
                      autoComplete="off"
                      className="h-9 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
                    />
                    {needle ? (
                      <ul
                        aria-label="Matching events"
                        className="absolute z-20 mt-1 w-full rounded-md border border-stone-200 bg-white p-1 shadow-lg"
                      >
                        {matches.length === 0 ? (
                          <li className="px-2 py-1.5 text-sm text-stone-600">{complete ? "No matching event" : "Loading events..."}</li>
                        ) : (
                          matches.map((e) => (
                            <li key={e.id}>
                              <button
                                type="button"
                                onClick={() => jumpTo(e)}
                                className="w-full truncate rounded px-2 py-1.5 text-left text-sm hover:bg-brand-50"
                              >
                                {e.title}
                              </button>
                            </li>
                          ))
                        )}
                      </ul>
                    ) : null}
                  </form>
                ) : null}
              </EventFilters>
              {canEdit && (chronological || filtering) && layout !== "lanes" && events.length > 1 ? (
                <p className="mb-4 text-sm text-stone-600">
                  {chronological
                    ? "Switch to Story order to reorder events by dragging."
                    : "Clear the filters to reorder events by dragging."}
                </p>
              ) : null}
              {layout === "map" ? (
                <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading map...</Card>}>
                  <MindMapView
                    timelineId={timeline.id}
                    shareCode={shareCode}
                    canEdit={canEdit}
                    premium={premium}
                    roomHeaders={room.writeHeaders}
                    syncTick={mapTick}
                    onOpenEvent={openEventFromMap}
                    onOpenEntity={openEntityFromMap}
                    onLink={linkFromMap}
                  />
                </Suspense>
              ) : events.length === 0 && page.all === 0 ? (
                <Card className="p-10 text-center text-stone-700">No events yet. Add your first event to this timeline!</Card>
              ) : viewTotal === 0 ? (
                <Card className="p-10 text-center text-stone-700">
                  {filter.entityIds.length === 1 && !filter.text.trim() && !filter.dated
                    ? `No events are linked to ${byId.get(filter.entityIds[0])?.name ?? "this entry"} yet.`
                    : "No events match these filters."}
                </Card>
              ) : layout === "lanes" ? (
                <Suspense fallback={<Card className="p-10 text-center text-stone-700">Loading lanes...</Card>}>
                  <LanesView events={[...dated, ...undated]} entities={entities} kind={laneKind} onOpenEvent={openFromLanes} />
                </Suspense>
              ) : (
                <CoWriteContext.Provider value={coWrite}>
                  {dated.length || (missing && !undated.length) ? (
                    <TimelineEvents events={dated} pending={undated.length ? 0 : missing} {...listProps} />
                  ) : null}
                  {undated.length ? (
                    <>
                      <h3 className="mt-8 mb-4 text-base font-semibold text-stone-700">Undated</h3>
                      <TimelineEvents events={undated} pending={missing} {...listProps} />
                    </>
                  ) : null}
                </CoWriteContext.Provider>
              )}
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

          {isOwner && premium && (sharing || shareMounted) ? (
            <Suspense fallback={null}>
              <ShareDialog open={sharing} onOpenChange={setSharing} timelineId={timeline.id} />
            </Suspense>
          ) : null}
          {adding || addMounted ? (
            <Suspense fallback={null}>
              <EventDialog
                open={adding}
                onOpenChange={setAdding}
                timelineId={timeline.id}
                shareCode={shareCode}
                roomHeaders={room.writeHeaders}
              />
            </Suspense>
          ) : null}
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(o) => !o && setDeleting(null)}
            title="Delete this event?"
            description={`"${deleting?.title ?? ""}" will be permanently removed from this timeline.`}
            confirmLabel="Delete Event"
            pendingLabel="Deleting..."
            pending={deleteEvent.pending}
            onConfirm={confirmDelete}
          />
        </Page>
      </AttachmentsContext.Provider>
    </EventHistoryContext.Provider>
  );
});

/** A 409 from a stale save carries the event as it is now. */

/** The server's chronological rule: story start's sort key, undated last, then story order. */
function sortChronologically(list: EventView[]) {
  const keyed = list.map((event) => ({ event, key: storySortKey(event.storyStart) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else if (a.key !== b.key) return a.key - b.key;
    return a.event.position - b.event.position || a.event.id - b.event.id;
  });
  return keyed.map((k) => k.event);
}

function LayoutButton({
  active,
  onClick,
  onPointerEnter,
  icon,
  children,
}: {
  active: boolean;
  onClick: () => void;
  onPointerEnter?: () => void;
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      onPointerEnter={onPointerEnter}
      className={cn(
        "inline-flex items-center gap-1.5 rounded px-2.5 py-1 text-sm font-medium",
        active ? "bg-brand-600 text-white" : "text-stone-700 hover:bg-stone-100",
      )}
    >
      {icon}
      {children}
    </button>
  );
}

export function TimelineNotFound() {
  return (
    <Page className="!pt-24 text-center">
      <h1 className="text-2xl font-bold">Timeline not found</h1>
      <p className="mt-2 text-stone-600">It may have been deleted, or it was never shared with you.</p>
      <Button asChild className="mt-6">
        <Link to="/timeline">Return to Timelines</Link>
      </Button>
    </Page>
  );
}
