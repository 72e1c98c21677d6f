// The shared doc's limits and the reasons it gives when it closes a writer's socket. Kept apart from
// close-codes.ts, which the timeline page loads with its first screen: only the editor and the doc need these.

/** The shared doc's Yjs state is capped per event (far above 50,000 characters with their history). */
export const MAX_DOC_STATE_BYTES = 2 * 1024 * 1024;
/** Doc updates one connection may send per second (caret updates past the same rate are dropped). */
export const MAX_DOC_UPDATES_PER_SECOND = 40;

/** Why the shared doc closed a writer's socket: the close reason, which the editor shows (under 123 bytes). */
export const DocCloseReasons = {
  invalid: "That change is not valid in a scene and was not applied",
  tooFast: "Too many changes at once: reopen the editor to go on",
  tooLarge: "This event's text is at its size limit (2 MB): the last change was not saved",
} as const;
