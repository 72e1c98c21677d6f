// Scene status and tasks (DESIGN.md §12), zod-free so screens can import them.

/** A scene's status, in the order a scene goes through them. */
export const sceneStatuses = ["Idea", "Outline", "Draft", "Revised", "Done"] as const;
export type SceneStatus = (typeof sceneStatuses)[number];
export const isSceneStatus = (v: unknown): v is SceneStatus => typeof v === "string" && (sceneStatuses as readonly string[]).includes(v);

export const sceneStatusMessage = "Status must be Idea, Outline, Draft, Revised, Done or null";

export const taskLimits = { text: 500, perScene: 200 } as const;

export const taskMessages = {
  empty: "Task cannot be empty",
  tooLong: `Task must be ${taskLimits.text} characters or less`,
  done: "Done must be true or false",
  assigneeId: "Assignee must be a user id or null",
  assigneeNoAccess: "The assignee must be someone who can edit this timeline",
  unknownField: "A task has only text, done and assigneeId",
  nothing: "Nothing to update",
  notFound: "Task not found",
  tooMany: `A scene can have at most ${taskLimits.perScene} tasks`,
} as const;
