import { type ApiClient, client as plainClient } from "~/lib/client";

/**
 * The page's timeline sessions, for the data layer's changes (chapters, plotlines, codex): the client a change is
 * sent with (the room connection already set) and what reloads the page's data after it. A change restored from
 * the device names only its timeline; the screen registers its session here once.
 */
export type ChangeSession = { client: ApiClient; refresh: () => void };

const sessions = new Map<number, ChangeSession>();

export function registerChangeSession(timelineId: number, session: ChangeSession) {
  sessions.set(timelineId, session);
}

/** The client a change of this timeline is sent with (the plain one when no screen of it is open). */
export const clientOf = (timelineId: number) => sessions.get(timelineId)?.client ?? plainClient;

/** Reloads the timeline screen's data, when one is open. */
export const refreshTimeline = (timelineId: number) => sessions.get(timelineId)?.refresh();
