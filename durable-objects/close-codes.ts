/**
 * Application close codes (4000–4999 are free for applications): a WebSocket close carries no HTTP
 * status, so the code tells the client why the room closed. Zod-free, for the browser.
 */
export const CloseCodes = {
  unauthenticated: 4401,
  accessRemoved: 4403,
  timelineDeleted: 4404,
} as const;
