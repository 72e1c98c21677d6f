import { useQueryClient } from "@tanstack/react-query";
import { Suspense, lazy, useEffect } from "react";
import { Dialog } from "~/ui/dialog";
import { findComment, useCommentCountsQuery } from "./comment-queries";
import { type ReviewScope, currentScope, openScene, setScope, useReview } from "./review-store";

// The timeline's review dialogs: Comments and Activity (the Panels menu opens them) and a scene's comments in read
// mode; the cards' open-thread counts are fetched here (each card's button is card-comments-button.tsx). The
// panels' code loads when the pointer nears its menu entry or a panel opens; the scene's text and its anchors
// (Tiptap, Yjs) when a scene's comments first open.

export const loadComments = () => import("./timeline-comments-panel");
export const loadActivity = () => import("./activity-panel");
const TimelineComments = lazy(() => loadComments().then((m) => ({ default: m.TimelineComments })));
const ActivityList = lazy(() => loadActivity().then((m) => ({ default: m.ActivityList })));
const panelFallback = <p className="text-sm text-stone-600">Loading...</p>;
const SceneComments = lazy(() => import("./scene-comments").then((m) => ({ default: m.SceneComments })));

/** Which of the review's dialogs is open (chosen in the timeline's Panels menu). */
export type ReviewPanel = "comments" | "activity" | null;

type ToolsProps = ReviewScope & { onJump: (eventId: number) => void; panel: ReviewPanel; onPanel: (panel: ReviewPanel) => void };

/** The address whose `?comment=` was opened (once per address, not again when the rights change). */
let linkedOpenedFor: string | null = null;

/** The Comments and Activity dialogs (opened from the Panels menu), and the one scene-comments dialog of the screen. */
export function ReviewTools({ onJump, panel, onPanel: setPanel, ...scope }: ToolsProps) {
  const { timelineId, shareCode, myUserId, canEdit, isOwner, canComment } = scope;
  const scene = useReview((s) => s.openScene);
  const queryClient = useQueryClient();
  // The cards' open-thread counts: fetched as the page mounts, again when comments change.
  useCommentCountsQuery(timelineId, shareCode);
  useEffect(() => {
    const next = { timelineId, shareCode, myUserId, canEdit, isOwner, canComment };
    setScope(next);
    // A notification's link: its comment's thread opens once, with the page (a reply leads to its thread).
    const linked = Number(new URLSearchParams(window.location.search).get("comment"));
    if (Number.isSafeInteger(linked) && linked > 0 && linkedOpenedFor !== window.location.href) {
      linkedOpenedFor = window.location.href;
      void findComment(queryClient, timelineId, shareCode, linked).then(
        (found) => {
          if (found && currentScope() === next)
            openScene({ id: found.eventId, title: found.eventTitle, commentId: found.threadId ?? found.id });
        },
        () => undefined,
      );
    }
  }, [queryClient, timelineId, shareCode, myUserId, canEdit, isOwner, canComment]);
  useEffect(() => () => setScope(null), []);
  const open = (eventId: number, title: string) => {
    setPanel(null);
    openScene({ id: eventId, title });
  };
  return (
    <>
      <Dialog
        open={panel === "comments"}
        onOpenChange={(o) => setPanel(o ? "comments" : null)}
        title="Comments"
        description="Every scene's threads, newest first."
        className="max-w-2xl"
      >
        <Suspense fallback={panelFallback}>
          <TimelineComments scope={scope} onOpenScene={open} />
        </Suspense>
      </Dialog>
      <Dialog
        open={panel === "activity"}
        onOpenChange={(o) => setPanel(o ? "activity" : null)}
        title="Activity"
        description="What changed in this timeline, newest first."
        className="max-w-2xl"
      >
        <Suspense fallback={panelFallback}>
          <ActivityList
            scope={scope}
            onOpenScene={(eventId) => {
              setPanel(null);
              onJump(eventId);
            }}
          />
        </Suspense>
      </Dialog>
      {scene ? (
        <Suspense fallback={null}>
          <SceneComments key={scene.id} scene={scene} scope={scope} focus={scene.commentId} onClose={() => openScene(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
