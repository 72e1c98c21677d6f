import { ArrowLeft, Columns3, Plus, Rows3, Share2, Sparkles, Users, Wifi, WifiOff } from "lucide-react";
import { type ReactNode, Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { SaveResult } from "~/components/event-card";
import { Page } from "~/components/page";
import { NotificationBanner, PresenceStack } from "~/components/presence";
import { EventDialog } from "~/components/timeline-forms";
import { arrayMove, type Layout, TimelineEvents } from "~/components/timeline-events";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { useFreshData } from "~/hooks/use-fresh-data";
import { useTimelineRoom } from "~/hooks/use-timeline-room";
import { ApiError, api } from "~/lib/api";
import { cn } from "~/lib/cn";
import { errorToast, showToast } from "~/lib/toast";
import type { EventView } from "../../worker/services/events";
import type { TimelineView } from "../../worker/services/timelines";

// Only owners on Premium ever open it: loaded on first use, not with the page.
const loadShareDialog = () => import("~/components/share-dialog");
const ShareDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareDialog })));

export const TYPING_DEBOUNCE_MS = 250;

export type TimelineScreenProps = {
  timeline: TimelineView;
  events: EventView[];
  premium: boolean;
  myUserId: number;
  /** Shared mode (/timeline/shared/{code}): the code is sent along with every call. */
  shareCode?: string | null;
  /** Open the Share dialog on arrival (/timeline/{id}/share). */
  openShare?: boolean;
  assistant?: ReactNode;
};

export function TimelineScreen(props: TimelineScreenProps) {
  const { timeline, premium, shareCode } = props;
  const revalidator = useRevalidator();
  const [events, setEvents] = useState(props.events);
  const [layout, setLayout] = useState<Layout>("vertical");
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<EventView | null>(null);
  const [deletePending, setDeletePending] = useState(false);
  const [sharing, setSharing] = useState(Boolean(props.openShare));
  const [shareMounted, setShareMounted] = useState(sharing);
  useEffect(() => {
    if (sharing) setShareMounted(true);
  }, [sharing]);
  const query = shareCode ? `?share=${encodeURIComponent(shareCode)}` : "";

  // Server data wins whenever it arrives (after a save, a sync, a focus refetch).
  useEffect(() => setEvents(props.events), [props.events]);
  useFreshData(props.events.length === 0, timeline.id);

  const access = timeline.accessLevel;
  const isOwner = access === "owner";
  const canEdit = access === "owner" || access === "collaborator";
  const refresh = useCallback(() => void revalidator.revalidate(), [revalidator]);

  const room = useTimelineRoom({
    timelineId: timeline.id,
    shareCode,
    myUserId: props.myUserId,
    onSync: refresh,
    onRemoteChange: (eventId, change) =>
      setEvents((list) =>
        list.map((e) => (e.id === eventId && typeof change.value === "string" ? { ...e, [change.type]: change.value } : e)),
      ),
    onAccessLost: () => {
      errorToast("You no longer have access to this timeline");
      refresh();
    },
  });

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

  async function move(eventId: number, from: number, to: number) {
    const before = events;
    setEvents(arrayMove(events, from, to).map((e, i) => ({ ...e, position: i })));
    try {
      await api(`/api/events/${eventId}${query}`, { method: "PATCH", body: { position: to } });
      room.sendChange(eventId, { type: "position", value: to });
      refresh();
    } catch {
      setEvents(before);
      errorToast("Failed to update event");
    }
  }

  async function save(event: EventView, changes: { title: string; content: string; baseVersion: number }): Promise<SaveResult> {
    try {
      const updated = await api<EventView>(`/api/events/${event.id}${query}`, { method: "PATCH", body: changes });
      setEvents((list) => list.map((e) => (e.id === updated.id ? updated : e)));
      showToast({ title: "Success", description: "Event updated successfully" });
      refresh();
      return { ok: true };
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.body?.current) {
        return { ok: false, conflict: error.body.current as EventView };
      }
      errorToast(error instanceof ApiError && error.body?.error ? error.body.error : "Failed to update event");
      return { ok: false };
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeletePending(true);
    try {
      await api(`/api/events/${deleting.id}${query}`, { method: "DELETE" });
      setEvents((list) => list.filter((e) => e.id !== deleting.id));
      showToast({ title: "Success", description: "Event deleted successfully" });
      setDeleting(null);
      refresh();
    } catch {
      errorToast("Failed to delete event");
    } finally {
      setDeletePending(false);
    }
  }

  return (
    <Page>
      <Link to="/timeline" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Timelines
      </Link>
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
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" className="h-4 w-4" /> Add Event
            </Button>
          ) : null}
        </div>
      </div>
      <NotificationBanner notifications={room.notifications} />
      {timeline.description ? <p className="mt-4 max-w-3xl whitespace-pre-wrap text-stone-700">{timeline.description}</p> : null}

      <div className={cn("mt-8 grid gap-8", props.assistant ? "lg:grid-cols-[1fr_22rem]" : "")}>
        <section aria-label="Timeline events" className="min-w-0">
          <div className="mb-4 flex items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">Events</h2>
            <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
              <legend className="sr-only">Layout</legend>
              <LayoutButton active={layout === "vertical"} onClick={() => setLayout("vertical")} icon={<Rows3 aria-hidden="true" className="h-4 w-4" />}>
                Vertical
              </LayoutButton>
              <LayoutButton active={layout === "horizontal"} onClick={() => setLayout("horizontal")} icon={<Columns3 aria-hidden="true" className="h-4 w-4" />}>
                Horizontal
              </LayoutButton>
            </fieldset>
          </div>
          {events.length === 0 ? (
            <Card className="p-10 text-center text-stone-700">No events yet. Add your first event to this timeline!</Card>
          ) : (
            <TimelineEvents
              events={events}
              layout={layout}
              canEdit={canEdit}
              canDelete={isOwner}
              editedByOthers={room.isEditedByOthers}
              onMove={move}
              onSave={save}
              onDelete={setDeleting}
              onTyping={onTyping}
            />
          )}
        </section>
        {props.assistant ? <aside aria-label="Story Assistant">{props.assistant}</aside> : null}
      </div>

      {isOwner && premium && (sharing || shareMounted) ? (
        <Suspense fallback={null}>
          <ShareDialog open={sharing} onOpenChange={setSharing} timelineId={timeline.id} />
        </Suspense>
      ) : null}
      <EventDialog open={adding} onOpenChange={setAdding} timelineId={timeline.id} shareCode={shareCode} onCreated={refresh} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete this event?"
        description={`"${deleting?.title ?? ""}" will be permanently removed from this timeline.`}
        confirmLabel="Delete Event"
        pendingLabel="Deleting..."
        pending={deletePending}
        onConfirm={confirmDelete}
      />
    </Page>
  );
}

function LayoutButton({ active, onClick, icon, children }: { active: boolean; onClick: () => void; icon: ReactNode; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
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
