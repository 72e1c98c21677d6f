import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { chaptersKey } from "~/features/chapters/chapter-queries";
import { plotlinesKey } from "~/features/plotlines/plotline-queries";
import { codexKey } from "~/features/codex/codex-queries";
import type { AccessEnd, CoWriteApi } from "~/features/co-writing/co-editor-context";
import { commentsChanged } from "~/features/review/comment-queries";
import { TASKS_CHANGED } from "~/features/tasks/tasks-changed";
import { PROGRESSIONS_CHANGED } from "~/features/codex/progressions-changed";
import { loadAccessEnded } from "~/features/timeline/timeline-header";
import { useTimelineRoom } from "~/features/live-room/use-timeline-room";
import { pendingDocs } from "~/lib/offline-docs";
import { errorToast } from "~/lib/toast";
import type { EventView } from "../../../worker/services/events";
import type { TimelineView } from "../../../worker/services/timelines";

/**
 * The timeline screen's live side: the room (who is here, their typing, syncs, my access ending), the
 * co-writing editors' context, and the offline copies sent once the room is connected.
 */
export function useTimelineLive({
  timeline,
  shareCode,
  myUserId,
  events,
  patch,
  refresh,
}: {
  timeline: TimelineView;
  shareCode?: string | null;
  myUserId: number;
  events: EventView[];
  patch: (eventId: number, fields: Partial<EventView>) => void;
  refresh: () => void;
}) {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const eventsRef = useRef(events);
  eventsRef.current = events;
  // Bumped on every room sync: an open map refetches (a map-only sync reloads nothing else).
  const [mapTick, setMapTick] = useState(0);
  const queryClient = useQueryClient();
  // My access ended while an editor was open (removed, signed out): the page stays, read-only, so the
  // editor can offer its text for copying; `viewOnly`: I was made a viewer (the room reconnects me read-only).
  const [ended, setEnded] = useState<AccessEnd | null>(null);
  const [viewOnly, setViewOnly] = useState<AccessEnd | null>(null);
  const access = timeline.accessLevel;
  const canEdit = (access === "owner" || access === "collaborator") && !ended;

  const room = useTimelineRoom({
    timelineId: timeline.id,
    shareCode,
    myUserId,
    onSync: (scope, eventId) => {
      // A scene's comments: their open lists read them again (its editor's panel, the Comments panel, the counts).
      if (scope === "comments") return void commentsChanged(queryClient, timeline.id, eventId);
      // A scene's tasks: its open editor's Tasks refetch, and the lists reload (the scenes' assignees changed).
      if (scope === "tasks") {
        window.dispatchEvent(new CustomEvent(TASKS_CHANGED, { detail: eventId }));
        return refresh();
      }
      // An entry's progressions: its open 'From this scene on' and 'As of' reads refetch; nothing else changed.
      if (scope === "progressions") return void window.dispatchEvent(new CustomEvent(PROGRESSIONS_CHANGED));
      setMapTick((t) => t + 1);
      // A sync of everything or of the chapters: the chapters' query reads them again (word counts follow scenes).
      if (scope === undefined || scope === "chapters") void queryClient.invalidateQueries({ queryKey: chaptersKey(timeline.id) });
      // Everything or the plotlines: their query reads them again (the scenes reload below: a deleted one leaves them).
      if (scope === undefined || scope === "plotlines") void queryClient.invalidateQueries({ queryKey: plotlinesKey(timeline.id) });
      // Everything (a codex entry's writes sync everything): the codex's query reads it again.
      if (scope === undefined) void queryClient.invalidateQueries({ queryKey: codexKey(timeline.id) });
      // The relationships: the open Relationships view refetches on the tick; the cards are unchanged.
      if (scope !== "map" && scope !== "relationships") refresh();
    },
    onRemoteChange: (eventId, change) => {
      if (typeof change.value === "string") patch(eventId, { [change.type]: change.value });
    },
    onAccessLost: (why) => {
      // Nothing of this timeline stays on the device: its scenes' copies (an open editor's once it closes), lists,
      // queued changes and kept pages; what waited to be sent is listed under 'Changes not saved'.
      void import("~/features/offline/forget-timeline").then((m) =>
        m.forgetTimelineOnDevice(
          timeline.id,
          eventsRef.current.map((e) => e.id),
        ),
      );
      if (why && room.editorsOpen()) return setEnded(why);
      void loadAccessEnded().then((m) => errorToast(m.lostAccessText(why)));
      refresh();
    },
    onViewOnly: (why) => {
      setViewOnly(why);
      refresh();
    },
  });
  // Co-writing edits typed offline in an editor that a reload then closed: sent in the background once the
  // room is connected; then the cards refresh.
  const offlineSent = useRef(false);
  useEffect(() => {
    if (!room.connected || !canEdit || offlineSent.current) return;
    offlineSent.current = true;
    const ids = pendingDocs(events.map((e) => e.id));
    if (ids.length === 0) return;
    void import("~/features/co-writing/co-sync").then(async ({ syncOfflineCopy }) => {
      let sent = false;
      for (const id of ids) sent = (await syncOfflineCopy(timeline.id, id, shareCode ?? null).catch(() => false)) || sent;
      if (sent) refreshRef.current();
    });
  }, [room.connected, canEdit, events, timeline.id, shareCode]);

  const myName = room.users.find((u) => u.userId === myUserId)?.userName ?? "";
  // The cards' co-writing editors: who I am, and the room told which editor I have open.
  const coWrite = useMemo<CoWriteApi>(
    () => ({
      timelineId: timeline.id,
      shareCode: shareCode ?? null,
      myUserId,
      myName,
      isOwner: access === "owner",
      setEditing: room.setEditing,
      showText: (eventId, text) => patch(eventId, text),
      ended,
    }),
    [timeline.id, shareCode, myUserId, myName, access, room.setEditing, ended, patch],
  );

  return { room, ended, viewOnly, canEdit, coWrite, mapTick };
}
