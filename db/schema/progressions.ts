import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { entities, events } from "./story";

// Codex progressions (DESIGN.md §12): what changes about a codex entry from a scene on ('lost her left eye').
export const entityProgressions = sqliteTable(
  "entity_progressions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("entity_progressions_entity_idx").on(t.entityId)],
);
