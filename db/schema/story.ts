import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, now } from "./columns";
import { users } from "./accounts";
// The story: series, timelines, their codex, events, chapters, plotlines and templates.

// A series: books (timelines) of one writer that share one codex.
export const series = sqliteTable(
  "series",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("series_owner_idx").on(t.ownerId, t.createdAt)],
);

export const timelines = sqliteTable(
  "timelines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
    shareCode: text("share_code"),
    // Role granted by the share link.
    shareRole: text("share_role", { enum: ["viewer", "collaborator"] })
      .notNull()
      .default("collaborator"),
    // Set by 'Turn off link': the share dialog then offers to create a link instead of making one on open.
    shareLinkOff: integer("share_link_off", { mode: "boolean" }).notNull().default(false),
    // Bumped by database triggers (migration events_revision) on every write to what the events list shows:
    // its events, their codex links and attachments, and their tasks (migration 0028: the list's assigneeIds). The
    // events API's ETag and cache key.
    eventsRevision: integer("events_revision").notNull().default(0),
    /** The book's word target (null: none set). The timeline's word count is the sum of its scenes'. */
    targetWords: integer("target_words"),
    /** The beat sheet overlaid on the story: a built-in's id ("save-the-cat") or a writer's own ("u-12"); null: none. */
    structureTemplateId: text("structure_template_id"),
    /** Readers (viewers) may comment on its scenes; the owner can turn it off. */
    viewersCanComment: integer("viewers_can_comment", { mode: "boolean" }).notNull().default(true),
    /** The story's calendar as JSON (db/domain/calendar); null: Gregorian. */
    calendar: text("calendar"),
    /** The series the book belongs to (null: none) and its place there (1 = book 1). */
    seriesId: integer("series_id").references((): AnySQLiteColumn => series.id, { onDelete: "set null" }),
    seriesPosition: integer("series_position"),
    /** The name on the title pages and the EPUB's creator (null: the owner's name). */
    byline: text("byline"),
    /** The deadline (an ISO date, null: none) and the writing days (JSON ISO weekdays 1..7; null: all seven). */
    deadline: text("deadline"),
    writingDays: text("writing_days"),
    /** Trash (DESIGN §11): set when deleted; the hourly purge removes it 30 days later. Null: not trashed. */
    deletedAt: text("deleted_at"),
    deletedBy: integer("deleted_by").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("timelines_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("timelines_share_code_unique").on(t.shareCode),
    index("timelines_series_idx").on(t.seriesId, t.seriesPosition),
  ],
);

// The codex: a timeline's characters, places and things. An entity of a series (series_id set) belongs to every
// book of the series; its timeline_id is then the book it was created in (moved to another book of the series
// when that one is purged).
export const entities = sqliteTable(
  "entities",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    seriesId: integer("series_id").references((): AnySQLiteColumn => series.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["character", "place", "thing"] }).notNull(),
    name: text("name").notNull(),
    aliases: text("aliases", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    description: text("description").notNull().default(""),
    color: text("color").notNull(),
    /** A character's lifespan, story dates as typed (db/domain/story-date.ts); null: not known. */
    born: text("born"),
    died: text("died"),
    /** Their sort keys (storySortKey), kept by the service as events' story_sort is. */
    bornSort: integer("born_sort"),
    diedSort: integer("died_sort"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("entities_timeline_idx").on(t.timelineId), index("entities_series_idx").on(t.seriesId)],
);

export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: text("content").notNull().default(""),
    position: integer("position").notNull(),
    attachments: text("attachments", { mode: "json" }).$type<unknown[]>().notNull().default(sql`'[]'`),
    // Bumped on every title/content change: a PATCH carrying an older version is a conflict (409).
    version: integer("version").notNull().default(1),
    // Whose point of view the scene is told from: one of the event's linked entities.
    povEntityId: integer("pov_entity_id").references((): AnySQLiteColumn => entities.id, { onDelete: "set null" }),
    // Story time, `[-]Y[-MM[-DD[THH:mm]]]` as the writer typed it (db/domain/story-date.ts).
    storyStart: text("story_start"),
    storyEnd: text("story_end"),
    /** What the writer typed for the dates, kept so a change of calendar can read it again. */
    storyStartText: text("story_start_text"),
    storyEndText: text("story_end_text"),
    storyLabel: text("story_label"),
    /** The writer's desk (DESIGN §12): Markdown beside the text, never counted and never in the manuscript. */
    synopsis: text("synopsis").notNull().default(""),
    notes: text("notes").notNull().default(""),
    // Computed from story_start by the service: text order is wrong for negative and 5-6 digit years.
    storySort: integer("story_sort"),
    /** The chapter the scene belongs to (null: none). A chapter's scenes are contiguous in story order. */
    chapterId: integer("chapter_id").references((): AnySQLiteColumn => chapters.id, { onDelete: "set null" }),
    /** Words in `content` (db/domain/word-count.ts), kept by every write of the text; null: not counted yet. */
    wordCount: integer("word_count"),
    /** Shown to reader links (/read/{code}); false: 'Not for readers', left out of the reading view. */
    forReaders: integer("for_readers", { mode: "boolean" }).notNull().default(true),
    /** Where the scene stands (DESIGN §12): 'Idea', 'Outline', 'Draft', 'Revised' or 'Done'; null: no status. */
    status: text("status", { enum: ["Idea", "Outline", "Draft", "Revised", "Done"] }),
    /** Trash (DESIGN §11): set when deleted; the hourly purge removes it 30 days later. Null: not trashed. */
    deletedAt: text("deleted_at"),
    deletedBy: integer("deleted_by").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("events_timeline_position_idx").on(t.timelineId, t.position),
    index("events_timeline_story_idx").on(t.timelineId, t.storySort),
    index("events_chapter_idx").on(t.chapterId),
    index("events_deleted_idx").on(t.deletedAt),
  ],
);

// A timeline's chapters, in order (DESIGN §11 'Chapters'). Optional: a timeline without chapters works as before.
export const chapters = sqliteTable(
  "chapters",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    position: integer("position").notNull(),
    targetWords: integer("target_words"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("chapters_timeline_position_idx").on(t.timelineId, t.position)],
);

// A writer's own templates, private to them: a timeline's chapters and scene titles kept to start a book from.
// `body` is open for more parts (e.g. plotlines) as the product gains them.
export const templates = sqliteTable(
  "templates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    body: text("body", { mode: "json" }).$type<TemplateBody>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("templates_user_idx").on(t.userId, t.createdAt)],
);

/** What an own template keeps: chapters in order, scenes in story order (each in a chapter by index, or none). */
export type TemplateBody = {
  chapters: { title: string }[];
  scenes: { title: string; chapter: number | null }[];
  [part: string]: unknown;
};
// A timeline's plotlines (main plot, subplots, arcs), in order; a scene belongs to any number of them.
export const plotlines = sqliteTable(
  "plotlines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    color: text("color").notNull(),
    position: integer("position").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("plotlines_timeline_position_idx").on(t.timelineId, t.position)],
);

// Which scenes belong to which plotline.
export const eventPlotlines = sqliteTable(
  "event_plotlines",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    plotlineId: integer("plotline_id")
      .notNull()
      .references(() => plotlines.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.plotlineId] }), index("event_plotlines_plotline_idx").on(t.plotlineId)],
);

// Which codex entities appear in which event.
export const eventEntities = sqliteTable(
  "event_entities",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    entityId: integer("entity_id")
      .notNull()
      .references(() => entities.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.entityId] }), index("event_entities_entity_idx").on(t.entityId)],
);

// Dependencies: the scene `eventId` must come after `afterEventId` in story time (both of one timeline).
export const eventDependencies = sqliteTable(
  "event_dependencies",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    afterEventId: integer("after_event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.afterEventId] }), index("event_dependencies_after_idx").on(t.afterEventId)],
);
