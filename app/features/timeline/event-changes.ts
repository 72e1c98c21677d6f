import type { MutationFunctionContext, QueryClient } from "@tanstack/react-query";
import {
  goneIsDone,
  isOnline,
  newIdempotencyKey,
  newTempId,
  outboxBusy,
  realIdOf,
  rememberRealId,
  sameId,
} from "~/features/offline/outbox";
import { sendCreate } from "~/features/offline/create-runs";
import { reportRefused } from "~/features/offline/refused-changes";
import { forgetIfAccessEnded } from "~/features/offline/refused-access";
import { type ApiClient, client as plainClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import { countWords } from "../../../db/domain/word-count";
import type { EventView } from "../../../worker/services/events";
import type { EventChanges } from "./event-card";
import type { LocalChange } from "./timeline-store";

/**
 * A timeline's scene (event) changes in the outbox (docs/client-data.md, issue 46): adding, renaming, moving and
 * deleting scenes while there is no network (or while earlier changes still wait, so the order holds). Each change
 * is a mutation under a `mutationKey` with serialisable variables (`EventChange`); how it is sent is set once
 * (`setEventDefaults`), so a change kept on the device sends itself after a reload. A scene added offline has a
 * temporary (negative) id until the server gives it one; the changes queued after it name that id and are sent
 * with the real one (`realIdOf`, kept on the device). A create carries the `Idempotency-Key` it was queued with.
 *
 * With the network there and nothing waiting, the screen's writes go as before (use-event-writes.ts).
 */

type Base = { timelineId: number; shareCode?: string | null };
/** What a queued save carries: the scene's text fields and the card's story fields. */
export type EventFields = Partial<EventChanges> & { title?: string; content?: string };
export type EventChange =
  | (Base & {
      kind: "event.create";
      /** Negative: the scene's id until the server gives it one. */
      tempId: number;
      /** Sent as `Idempotency-Key`: a create sent again (its answer lost) is not made twice. */
      key: string;
      title: string;
      content: string;
      chapterId?: number | null;
      plotlineIds?: number[];
      /** When it was made (the scene's dates until the server has it). */
      at: string;
    })
  | (Base & { kind: "event.update"; eventId: number; fields: EventFields })
  /** To index `to` of the story order, and/or into a chapter (null: none), and/or onto plotlines (the grid's move). */
  | (Base & { kind: "event.move"; eventId: number; to?: number; chapterId?: number | null; plotlineIds?: number[] })
  | (Base & { kind: "event.delete"; eventId: number; title: string });

type Kind = EventChange["kind"];
export const EVENT_CHANGES = "events";
const changeKey = (kind: Kind) => [EVENT_CHANGES, kind] as const;

/** The page's timeline screens: the client (with the room connection) a change is sent with, and its store. */
type EventSession = {
  client: ApiClient;
  refresh: () => void;
  /** A queued change the server confirmed: what it changed stays shown until a newer list has it. */
  landed: (change: LocalChange) => void;
};
const sessions = new Map<number, EventSession>();
export function registerEventSession(timelineId: number, session: EventSession) {
  sessions.set(timelineId, session);
  return () => {
    if (sessions.get(timelineId) === session) sessions.delete(timelineId);
  };
}
const clientOf = (timelineId: number) => sessions.get(timelineId)?.client ?? plainClient;

/** Whether a change made now goes into the outbox: no network, or changes still waiting to go before it. */
export const shouldQueue = () => !isOnline() || outboxBusy();

function moveTo(list: EventView[], eventId: number, to: number) {
  const from = list.findIndex((e) => sameId(e.id, eventId));
  if (from < 0) return list;
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(Math.min(to, next.length), 0, moved);
  return next.map((e, i) => (e.position === i ? e : { ...e, position: i }));
}

/** A scene added offline, as shown until the server has it. */
function draftOf(change: Extract<EventChange, { kind: "event.create" }>, position: number): EventView {
  return {
    id: change.tempId,
    timelineId: change.timelineId,
    title: change.title,
    content: change.content,
    position,
    attachments: [],
    version: 1,
    entityIds: [],
    povEntityId: null,
    storyStart: null,
    storyEnd: null,
    storyStartDisplay: null,
    storyEndDisplay: null,
    storyLabel: null,
    synopsis: "",
    notes: "",
    status: null,
    chapterId: change.chapterId ?? null,
    plotlineIds: change.plotlineIds ?? [],
    after: [],
    wordCount: countWords(change.content),
    assigneeIds: [],
    forReaders: true,
    createdAt: change.at,
    updatedAt: change.at,
  };
}

/** The list in story order with one queued change applied (what the screen shows while it waits). */
export function applyEventChange(list: EventView[], change: EventChange): EventView[] {
  switch (change.kind) {
    case "event.create":
      return list.some((e) => sameId(e.id, change.tempId)) ? list : [...list, draftOf(change, list.length)];
    case "event.update": {
      const { title, content, synopsis, notes, status, storyLabel } = change.fields;
      const shown: Partial<EventView> = {
        ...(title !== undefined && { title }),
        ...(content !== undefined && { content, wordCount: countWords(content) }),
        ...(synopsis !== undefined && { synopsis }),
        ...(notes !== undefined && { notes }),
        ...(status !== undefined && { status }),
        ...(storyLabel !== undefined && { storyLabel }),
        ...(change.fields.entityIds !== undefined && { entityIds: change.fields.entityIds }),
        ...(change.fields.plotlineIds !== undefined && { plotlineIds: change.fields.plotlineIds }),
      };
      return list.map((e) => (sameId(e.id, change.eventId) ? { ...e, ...shown } : e));
    }
    case "event.move": {
      const { chapterId, plotlineIds } = change;
      const moved =
        chapterId === undefined && plotlineIds === undefined
          ? list
          : list.map((e) =>
              sameId(e.id, change.eventId)
                ? {
                    ...e,
                    ...(chapterId !== undefined && { chapterId: chapterId && realIdOf(chapterId) }),
                    ...(plotlineIds !== undefined && { plotlineIds: plotlineIds.map(realIdOf) }),
                  }
                : e,
            );
      return change.to === undefined ? moved : moveTo(moved, change.eventId, change.to);
    }
    case "event.delete":
      return list.filter((e) => !sameId(e.id, change.eventId));
  }
}

/** What the writer sees of a refused change, and the text it carried (to copy). */
function describeChange(change: EventChange): { what: string; text: string } {
  switch (change.kind) {
    case "event.create":
      return { what: `Add scene "${change.title}"`, text: change.content ? `${change.title}\n\n${change.content}` : change.title };
    case "event.update":
      return {
        what: change.fields.title !== undefined ? `Rename scene to "${change.fields.title}"` : "Change a scene",
        text: [change.fields.title, change.fields.content].filter((t) => t !== undefined).join("\n\n"),
      };
    case "event.move":
      return { what: "Move a scene", text: "" };
    case "event.delete":
      return { what: `Delete scene "${change.title}"`, text: "" };
  }
}

type CreateChange = Extract<EventChange, { kind: "event.create" }>;

/**
 * A create's body as the single create sends it, then its key: the batch item is `{...body, key}`, so the server
 * fingerprints it as it would the body sent alone (a create sent both ways is made once).
 */
function createBody(change: CreateChange) {
  const { timelineId, title, content, chapterId, plotlineIds, key } = change;
  return {
    title,
    content,
    timelineId,
    attachments: [],
    ...(chapterId !== undefined && { chapterId: chapterId === null ? null : realIdOf(chapterId) }),
    ...(plotlineIds && { plotlineIds: plotlineIds.map(realIdOf) }),
    key,
  };
}

/** Sends a run of creates in one request (`POST /api/timelines/{id}/events/batch`): the scenes in the run's order. */
async function sendRun(run: CreateChange[]): Promise<EventView[]> {
  const [first] = run;
  const { events } = await unwrap(
    clientOf(first.timelineId).api.timelines[":id"].events.batch.$post({
      param: { id: String(first.timelineId) },
      query: shareParam(first.shareCode),
      json: { events: run.map(createBody) },
    }),
  );
  for (const [i, change] of run.entries()) {
    const made = events[i];
    if (made) rememberRealId(change.tempId, made.id);
  }
  return events;
}

const fallbackMessage = (kind: Kind) =>
  kind === "event.create" ? "Failed to create event" : kind === "event.delete" ? "Failed to delete event" : "Failed to update event";

/** How each change is sent and what the screen keeps once it is confirmed (set once, before a restore). */
export function setEventDefaults(queryClient: QueryClient) {
  const patch = (change: Base & { eventId: number }, json: Record<string, unknown>) =>
    unwrap(
      clientOf(change.timelineId).api.events[":id"].$patch({
        param: { id: String(realIdOf(change.eventId)) },
        query: shareParam(change.shareCode),
        json,
      }),
    );
  const landed = (change: EventChange, local: LocalChange) => sessions.get(change.timelineId)?.landed(local);
  const common = {
    onError: (error: unknown, change: EventChange) => {
      reportRefused({ ...describeChange(change), message: errorMessage(error, fallbackMessage(change.kind)) });
      forgetIfAccessEnded(error, change.timelineId, change.shareCode);
    },
    // The last one sent: the page's lists are asked again (the scenes' places and counts, the chapters' words).
    onSettled: (_data: unknown, _error: unknown, change: EventChange) => {
      if (queryClient.getMutationCache().findAll({ status: "pending" }).length <= 1) sessions.get(change.timelineId)?.refresh();
    },
  };
  queryClient.setMutationDefaults(changeKey("event.create"), {
    ...common,
    mutationFn: async (change: EventChange) => {
      if (change.kind !== "event.create") throw new Error(change.kind);
      // A run of queued creates in one request (create-runs.ts); this one alone when it is not in a run.
      return sendCreate(queryClient, change, sendRun, async () => {
        const { key, ...body } = createBody(change);
        const created = await unwrap(
          clientOf(change.timelineId).api.timelines[":id"].events.$post(
            { param: { id: String(change.timelineId) }, query: shareParam(change.shareCode), json: body },
            { headers: { "Idempotency-Key": key } },
          ),
        );
        rememberRealId(change.tempId, created.id);
        return created;
      });
    },
    onSuccess: (data: EventView, change: EventChange) => landed(change, { kind: "create", event: data }),
  });
  queryClient.setMutationDefaults(changeKey("event.update"), {
    ...common,
    mutationFn: (change: EventChange) => {
      if (change.kind !== "event.update") throw new Error(change.kind);
      const { after, ...fields } = change.fields;
      return patch(change, { ...fields, ...(after && { after: after.map(realIdOf) }) });
    },
    onSuccess: (data: EventView) => data && sessions.get(data.timelineId)?.landed({ kind: "event", event: data }),
  });
  queryClient.setMutationDefaults(changeKey("event.move"), {
    ...common,
    mutationFn: (change: EventChange) => {
      if (change.kind !== "event.move") throw new Error(change.kind);
      const { to, chapterId, plotlineIds } = change;
      return patch(change, {
        ...(to !== undefined && { position: to }),
        ...(chapterId !== undefined && { chapterId: chapterId === null ? null : realIdOf(chapterId) }),
        ...(plotlineIds !== undefined && { plotlineIds: plotlineIds.map(realIdOf) }),
      });
    },
    onSuccess: (data: EventView, change: EventChange) => {
      if (change.kind !== "event.move") return;
      landed(change, { kind: "event", event: data });
      if (change.to !== undefined) landed(change, { kind: "move", eventId: data.id, to: change.to });
    },
  });
  queryClient.setMutationDefaults(changeKey("event.delete"), {
    ...common,
    mutationFn: (change: EventChange, context?: MutationFunctionContext) => {
      if (change.kind !== "event.delete") throw new Error(change.kind);
      return goneIsDone(context, change, () =>
        unwrap(
          clientOf(change.timelineId).api.events[":id"].$delete({
            param: { id: String(realIdOf(change.eventId)) },
            query: shareParam(change.shareCode),
          }),
        ),
      );
    },
    onSuccess: (_data: unknown, change: EventChange) => {
      if (change.kind === "event.delete") landed(change, { kind: "delete", eventId: realIdOf(change.eventId) });
    },
  });
}

/** Queues a change: it shows at once (the store's overlay) and is sent when its turn comes and the network is there. */
export function queueEventChange(queryClient: QueryClient, change: EventChange) {
  const mutation = queryClient.getMutationCache().build(queryClient, { mutationKey: changeKey(change.kind) });
  void mutation.execute(change).catch(() => undefined);
}

/** A scene added with no network (or behind waiting changes): its temporary id. */
export function queueEventCreate(
  queryClient: QueryClient,
  base: Base & { title: string; content: string; chapterId?: number | null; plotlineIds?: number[] },
) {
  const tempId = newTempId();
  queueEventChange(queryClient, { ...base, kind: "event.create", tempId, key: newIdempotencyKey(), at: new Date().toISOString() });
  return tempId;
}
