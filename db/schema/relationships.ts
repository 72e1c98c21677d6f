import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { entities, events, timelines } from "./story";

// Relationships between codex entries of one timeline (DESIGN.md §12), optionally from a scene on.
export const relationships = sqliteTable(
  "relationships",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    fromId: integer("from_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
    toId: integer("to_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    sinceEventId: integer("since_event_id").references(() => events.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("relationships_timeline_idx").on(t.timelineId)],
);
