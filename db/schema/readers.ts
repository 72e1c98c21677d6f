import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { events, timelines } from "./story";

// Reader links (DESIGN §12 'Readers'): people without an account read the book at /read/{code}. Ending a link
// deletes it, and its readers with it.
export const readerLinks = sqliteTable(
  "reader_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    label: text("label").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("reader_links_code_unique").on(t.code), index("reader_links_timeline_idx").on(t.timelineId, t.createdAt)],
);

// A reader of one link: the name they gave, their opaque token (stored hashed) and where they stopped.
export const readers = sqliteTable(
  "readers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    linkId: integer("link_id")
      .notNull()
      .references(() => readerLinks.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    name: text("name").notNull(),
    eventId: integer("event_id").references((): AnySQLiteColumn => events.id, { onDelete: "set null" }),
    at: text("at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("readers_token_unique").on(t.tokenHash), index("readers_link_idx").on(t.linkId)],
);
