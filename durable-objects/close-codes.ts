// Zod-free constants of the room protocol, for the browser bundle (protocol.ts re-exports them).

/**
 * Application close codes. Behind the Cloudflare Vite plugin a Worker's non-101 answer to an upgrade
 * reaches the browser as a dropped connection, so the room accepts and then closes with a reason.
 */
export const CloseCodes = {
  unauthenticated: 4401,
  accessRemoved: 4403,
  timelineDeleted: 4404,
  /** The user's access changed (the link's level, or the link was reset): reconnect to get the new one. */
  accessChanged: 4409,
  /** Sustained flooding (well over MAX_MESSAGES_PER_SECOND for seconds on end). */
  flooding: 4429,
  /** The shared doc refused an update (not valid in the editor, or more than 40 a second); nothing of it was applied. */
  docRefused: 4409,
  /** The shared doc refused an update that would take the event's Yjs state past MAX_DOC_STATE_BYTES. */
  docTooLarge: 4413,
} as const;

/**
 * Why a socket closed when a writer's access ended or shrank (the close frame's reason), so the page can say
 * it: removed from the timeline, now view-only, or signed out.
 */
export const CloseReasons = {
  accessRemoved: "Access removed",
  viewOnly: "View only",
  signedOut: "Signed out",
} as const;

/** Header a browser sends with a write to name its own room connection (see `RoomChange.origin`). */
export const ROOM_CONNECTION_HEADER = "X-Room-Connection";

export const ACCESS_MODES = ["owner", "collaborator", "viewer"] as const;
/** What a `sync` says changed; absent: anything (reload everything). */
export const SYNC_SCOPES = ["map", "chapters", "plotlines", "comments", "tasks", "relationships", "progressions"] as const;
/** What a live `change` carries. */
export const CHANGE_TYPES = ["title", "content", "position"] as const;
/** The longest text a `change` carries (a longer one is not relayed: the cards get it when it is saved). */
export const MAX_CHANGE_TEXT = 50_000;
