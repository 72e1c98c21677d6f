// What the JSON API answers, as the e2e specs read it. The product's types (worker/services/*: TimelineView,
// EventView, ChapterView, EntityView) import Workers-only types that the Node type-check of these specs cannot
// load, so they are mirrored here; tests/integration/e2e-types.ts checks that the product's answers fit them.

/** GET/POST /api/timelines (worker/services/timelines.ts TimelineView). */
export type Timeline = {
  id: number;
  userId: number;
  title: string;
  description: string | null;
  isOwner: boolean;
  wordCount: number;
  /** Only the owner sees the share code. */
  shareCode?: string | null;
};

/** An event (a scene) as /api/timelines/{id}/events answers it (worker/services/event-list.ts EventView). */
export type EventRow = {
  id: number;
  timelineId: number;
  title: string;
  content: string;
  position: number;
  version: number;
  entityIds: number[];
  povEntityId: number | null;
  storyStart: string | null;
  storyEnd: string | null;
  synopsis: string;
  notes: string;
  chapterId: number | null;
  plotlineIds: number[];
  after: number[];
  wordCount: number;
};

/** A chapter (worker/services/chapters.ts ChapterView). */
export type Chapter = { id: number; timelineId: number; title: string; position: number; targetWords: number | null; wordCount: number };

/** A story-bible entity: a character, place… (worker/services/entities.ts EntityView). */
export type Entity = { id: number; timelineId: number; name: string; aliases: string[]; description: string; color: string };
