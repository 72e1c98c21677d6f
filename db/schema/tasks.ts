import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { createdAt } from "./columns";
import { events, timelines } from "./story";

// A scene's tasks (DESIGN.md §12 'Deadlines, sessions and tasks'): `{id, text, done, assigneeId}`.
export const tasks = sqliteTable(
  "tasks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The scene's timeline, kept here so 'My tasks' and access checks need no join through events. */
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    done: integer("done", { mode: "boolean" }).notNull().default(false),
    /** Someone who can edit the timeline (owner or editor); null: nobody. */
    assigneeId: integer("assignee_id").references(() => users.id, { onDelete: "set null" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("tasks_event_idx").on(t.eventId),
    index("tasks_assignee_idx").on(t.assigneeId, t.done),
    index("tasks_timeline_idx").on(t.timelineId),
  ],
);
