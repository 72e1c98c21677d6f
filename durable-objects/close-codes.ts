/** Application close codes: the client learns why without an HTTP status (STACK.md). Zod-free, for the browser. */
export const CloseCodes = {
  unauthenticated: 4401,
  accessRemoved: 4403,
  timelineDeleted: 4404,
} as const;
