import type { ApiContext, Scene } from "./chapters-api";
import type { ChaptersStore } from "./chapters-store";

/** What the chapter parts of the screen share: the timeline's chapters store, the API, and moving a scene. */
export type ChapterContext = {
  store: ChaptersStore;
  api: ApiContext;
  /** Moves a scene into a chapter (null: out of every chapter), at story position `to` when given. */
  moveScene: (scene: Scene, chapterId: number | null, to?: number) => Promise<void>;
};
