import { ArrowLeft, Plus, Share2, Sparkles, Users, Wifi, WifiOff } from "lucide-react";
import { type ReactNode, Suspense, lazy } from "react";
import { Link } from "react-router";
import type { AccessEnd } from "~/features/co-writing/co-editor-context";
import { SyncStatusText } from "~/features/offline/offline-badge";
import { OfflineNote, OnlineOnlyLink, useOfflineLock } from "~/features/offline/offline-lock";
import { useOffline } from "~/features/offline/use-offline";
import { ExportMenu } from "~/features/transfer/export-menu";
import { loadForms, loadShareDialog } from "~/features/timeline/dialog-loaders";
import SeriesMention from "~/features/series/series-mention";
import { loadWhenOnline } from "~/lib/load-when-online";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import type { useTimelineRoom } from "~/features/live-room/use-timeline-room";
import type { TimelineView } from "../../../worker/services/timelines";

export const loadAccessEnded = () => import("~/features/co-writing/access-ended");
const AccessEndedBanner = lazy(loadWhenOnline(loadAccessEnded));
// Who is here and what they just did: nothing to show until the room has connected (after hydration), so their
// code loads then, not with the first screen's JavaScript. With no network and no copy on the device yet, they wait
// for the network instead of failing the page.
const loadPresence = loadWhenOnline(() => import("~/features/live-room/presence"));
const PresenceStack = lazy(() => loadPresence().then((m) => ({ default: m.PresenceStack })));
const NotificationBanner = lazy(() => loadPresence().then((m) => ({ default: m.NotificationBanner })));

type Room = ReturnType<typeof useTimelineRoom>;

/** The top of the timeline screen: the way back, the title and its badges, the live room, the actions. */
export function TimelineHeader({
  timeline,
  room,
  myUserId,
  ended,
  viewOnly,
  isOwner,
  canEdit,
  premium,
  shareCode,
  onShare,
  onAdd,
  progress,
  tools,
}: {
  timeline: TimelineView;
  room: Room;
  myUserId: number;
  ended: AccessEnd | null;
  viewOnly: AccessEnd | null;
  isOwner: boolean;
  canEdit: boolean;
  premium: boolean;
  shareCode?: string | null;
  onShare: () => void;
  onAdd: () => void;
  /** The book's word count and target, with its buttons. */
  progress: ReactNode;
  /** More actions beside 'Add Event' (chapters, structure, templates). */
  tools: ReactNode;
}) {
  const access = timeline.accessLevel;
  // The badge follows the page's offline signal at once (the room's socket may take a while to notice), and says
  // 'Connected' again only once the room has connected.
  const offline = useOffline();
  return (
    <>
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
          <h1 dir="auto" className="font-serif text-3xl font-bold break-words">
            {timeline.title}
          </h1>
          {/* As tall as the avatars of the people here (they come with the room, after hydration). */}
          <div className="flex min-h-9 flex-wrap items-center gap-2">
            {timeline.isShared ? (
              <Badge className="gap-1">
                <Users aria-hidden="true" className="h-3 w-3" /> Shared
              </Badge>
            ) : null}
            {offline ? (
              <Badge variant="secondary" className="gap-1 bg-stone-800 text-white">
                <WifiOff aria-hidden="true" className="h-3 w-3" /> Offline
              </Badge>
            ) : room.connected ? (
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
            <SyncStatusText />
            {room.users.length > 0 ? (
              <Suspense fallback={null}>
                <PresenceStack users={room.users} myUserId={myUserId} />
              </Suspense>
            ) : null}
          </div>
          {timeline.series ? <SeriesMention series={timeline.series} /> : null}
          {progress}
        </div>
        {/* On a phone the actions are compact (smaller, without their icons), so they take two rows, not four. A row of
            their own on every screen (an owner's never fit beside the title): beside it, a page arriving in pieces on a
            slow connection drew the first buttons at the right, then moved them left and down as the rest came. */}
        <div
          data-testid="timeline-actions"
          className="flex w-full flex-wrap items-center gap-2 max-sm:gap-1.5 max-sm:[&_a]:h-8 max-sm:[&_a]:px-2.5 max-sm:[&_button]:h-8 max-sm:[&_button]:px-2.5 max-sm:[&_svg]:hidden"
        >
          {/* The one visible 'You're offline' of the screen, for the controls below that wait for the network. */}
          <OfflineNote className="max-sm:basis-full" />
          <Button asChild variant="outline">
            <Link to={`/timeline/${timeline.id}/manuscript`}>Manuscript</Link>
          </Button>
          <ExportMenu timelineId={timeline.id} shareCode={shareCode} importInto={canEdit ? timeline : undefined} />
          {isOwner ? (
            premium ? (
              <ShareButton onShare={onShare} />
            ) : (
              <OnlineOnlyLink to="/upgrade" variant="outline">
                <Sparkles aria-hidden="true" className="h-4 w-4" /> Upgrade to Share
              </OnlineOnlyLink>
            )
          ) : null}
          {tools}
          {canEdit ? (
            <Button onClick={onAdd} onPointerEnter={() => void loadForms()}>
              <Plus aria-hidden="true" className="h-4 w-4" /> Add Event
            </Button>
          ) : null}
        </div>
      </div>
      {room.notifications.length > 0 ? (
        <Suspense fallback={null}>
          <NotificationBanner notifications={room.notifications} />
        </Suspense>
      ) : null}
      {timeline.description ? <p className="mt-4 max-w-3xl whitespace-pre-wrap text-stone-700">{timeline.description}</p> : null}
    </>
  );
}

/** The owner's 'Share': disabled offline, saying 'You're offline'. */
function ShareButton({ onShare }: { onShare: () => void }) {
  const { lock, note } = useOfflineLock();
  return (
    <>
      <Button variant="outline" onClick={onShare} onPointerEnter={() => void loadShareDialog()} {...lock}>
        <Share2 aria-hidden="true" className="h-4 w-4" /> Share
      </Button>
      {note}
    </>
  );
}
