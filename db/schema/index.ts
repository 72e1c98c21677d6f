// The database schema, by topic (drizzle-kit reads this module: drizzle.config.ts).
import type { chapters, entities, events, plotlines, series, templates, timelines } from "./story";
import type { users } from "./accounts";
import type { mapEdges, mapNodes, notifications, timelineShares } from "./work";

export * from "./accounts";
export * from "./story";
export * from "./work";
export * from "./writer-ai";
export * from "./progressions";
export * from "./readers";
export * from "./tasks";

export type User = typeof users.$inferSelect;
export type Timeline = typeof timelines.$inferSelect;
export type Event = typeof events.$inferSelect;
export type Entity = typeof entities.$inferSelect;
export type TimelineShare = typeof timelineShares.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type MapNode = typeof mapNodes.$inferSelect;
export type MapEdge = typeof mapEdges.$inferSelect;
export type Chapter = typeof chapters.$inferSelect;
export type Template = typeof templates.$inferSelect;
export type Plotline = typeof plotlines.$inferSelect;
export type Series = typeof series.$inferSelect;
export * from "./relationships";
export * from "./idempotency";
