import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import { useRevalidator } from "react-router";
import { useTimelineRoom } from "~/features/live-room/use-timeline-room";
import { commentsChanged } from "~/features/review/comment-queries";

/**
 * The manuscript in the timeline's live room: who is here, and the page's data read again whenever a co-writer
 * changes scenes or chapters (the room's `sync`; a map-only sync changes nothing on this page). Scenes whose
 * editor is open keep it: their text comes from the shared doc, not from the reload. A scene's comments changed:
 * its open comment lists read them again (the page's QueryClient, as on the timeline screen), the page's data does
 * not. The socket's code loads after the page has painted (useTimelineRoom).
 */
export function useManuscriptLive({
  timelineId,
  shareCode,
  myUserId,
  editorsOpen,
}: {
  timelineId: number;
  shareCode: string | null;
  myUserId: number;
  /** Whether an editor of this page is open (its text stays on screen when my access ends). */
  editorsOpen: () => boolean;
}) {
  const revalidator = useRevalidator();
  const queryClient = useQueryClient();
  const latest = useRef({ revalidator, editorsOpen });
  latest.current = { revalidator, editorsOpen };
  const reload = useCallback(() => void latest.current.revalidator.revalidate(), []);

  const room = useTimelineRoom({
    timelineId,
    shareCode,
    myUserId,
    onSync: (scope, eventId) => {
      if (scope === "comments") return void commentsChanged(queryClient, timelineId, eventId);
      // The manuscript shows neither the map, the scenes' tasks nor the codex's relationships and progressions.
      if (scope !== "map" && scope !== "tasks" && scope !== "relationships" && scope !== "progressions") reload();
    },
    // Live typing reaches open editors through their doc; the other scenes show it once it is saved.
    onRemoteChange: () => {},
    // Access ended: an open editor says why and keeps my text to copy; otherwise the page reloads (not found).
    onAccessLost: () => {
      if (!latest.current.editorsOpen()) reload();
    },
    onViewOnly: reload,
  });

  // The room shows 'X is writing here' on the timeline for the scene I am writing in (the last one I entered).
  const { setEditing } = room;
  const writing = useRef<number | null>(null);
  const setWriting = useCallback(
    (sceneId: number, open: boolean) => {
      if (open === (writing.current === sceneId)) return;
      if (writing.current !== null) setEditing(writing.current, false);
      writing.current = open ? sceneId : null;
      if (open) setEditing(sceneId, true);
    },
    [setEditing],
  );

  return { connected: room.connected, users: room.users, setWriting };
}
