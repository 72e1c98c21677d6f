import type { ApiContext, Scene } from "./chapters-api";

/** What the chapter parts of the screen share: the timeline, the API, and moving a scene. */
export type ChapterContext = {
  timelineId: number;
  api: ApiContext;
  /** Moves a scene into a chapter (null: out of every chapter), at story position `to` when given. */
  moveScene: (scene: Scene, chapterId: number | null, to?: number) => Promise<void>;
};
