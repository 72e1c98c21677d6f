/**
 * A window event (detail: the event id): the room says that scene's tasks changed (another writer, or this
 * writer's other tab); its open editor's Tasks refetch.
 */
export const TASKS_CHANGED = "storyweave:tasks-changed";
