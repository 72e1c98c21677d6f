import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, now } from "./columns";
import { users } from "./accounts";
import { entities, events, timelines } from "./story";
// Working on a story: ideas, AI use, attachments, versions, comments, co-writing, sharing and the mind map.

export const ideas = sqliteTable(
  "ideas",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prompt: text("prompt").notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ideas_user_idx").on(t.userId)],
);

// One row per AI use: the free allowance (rows marked `free`), the /account chart and the admin totals per day.
export const aiUsage = sqliteTable(
  "ai_usage",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    // Counted against the free allowance (FREE_AI_USES per rolling 24 hours); premium uses are not.
    free: integer("free", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("ai_usage_user_idx").on(t.userId, t.createdAt), index("ai_usage_created_idx").on(t.createdAt)],
);

// Attachments: metadata here, the bytes in the R2 bucket bound as FILES under `r2Key`
//. `ownerId` is the timeline owner, whose storage quota it counts against.
export const files = sqliteTable(
  "files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    uploadedBy: integer("uploaded_by").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    r2Key: text("r2_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("files_event_idx").on(t.eventId),
    index("files_timeline_idx").on(t.timelineId),
    index("files_owner_idx").on(t.ownerId),
    uniqueIndex("files_r2_key_idx").on(t.r2Key),
  ],
);

// Every saved change of an event's title or content. `authorName` is kept
// as it was when the version was made, so history reads the same after a rename or account deletion.
export const eventVersions = sqliteTable(
  "event_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    /** A writer's name for this version (null: unnamed). */
    name: text("name"),
    /** Words in `content`, filled the first time history lists it (null: not counted yet). */
    wordCount: integer("word_count"),
    /** The version a restore brought back. */
    restoredFrom: integer("restored_from"),
    createdAt: createdAt(),
  },
  (t) => [index("event_versions_event_idx").on(t.eventId, t.createdAt)],
);

// What happened to a scene that its versions cannot tell: a move in the story order, a trip to Trash and back.
// Additions and text edits are read from `event_versions`, comments from `comments`. `userName` stays as it was.
export const sceneActivity = sqliteTable(
  "scene_activity",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    kind: text("kind", { enum: ["moved", "deleted", "restored"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("scene_activity_timeline_idx").on(t.timelineId, t.createdAt)],
);

// Comments on a scene's text. A thread is its first comment (threadId null) and the replies naming it.
// `anchorFrom`/`anchorTo` are Yjs relative positions (base64) in the scene's shared doc, kept opaque;
// `quote` is the text they were made on. `authorName` stays as it was, like versions ('Deleted writer').
export const comments = sqliteTable(
  "comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    threadId: integer("thread_id").references((): AnySQLiteColumn => comments.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    anchorFrom: text("anchor_from"),
    anchorTo: text("anchor_to"),
    quote: text("quote"),
    resolved: integer("resolved", { mode: "boolean" }).notNull().default(false),
    /** A reader link's reader who wrote it (author_id null, author_name 'Reader: {name}'); null: a writer's. */
    readerId: integer("reader_id"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("comments_event_idx").on(t.eventId, t.createdAt),
    index("comments_thread_idx").on(t.threadId),
    index("comments_author_idx").on(t.authorId),
  ],
);

export const collaborativeSessions = sqliteTable(
  "collaborative_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    lastActivity: text("last_activity").notNull().default(now),
  },
  (t) => [uniqueIndex("collaborative_sessions_timeline_unique").on(t.timelineId)],
);

export const collaborativeChanges = sqliteTable(
  "collaborative_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    eventId: integer("event_id").references((): AnySQLiteColumn => events.id, {
      onDelete: "set null",
    }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    change: text("change", { mode: "json" }).notNull(),
    timestamp: text("timestamp").notNull().default(now),
  },
  (t) => [index("collaborative_changes_timeline_idx").on(t.timelineId, t.timestamp)],
);

export const timelineShares = sqliteTable(
  "timeline_shares",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    sharedByUserId: integer("shared_by_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sharedWithUserId: integer("shared_with_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessLevel: text("access_level", { enum: ["viewer", "collaborator"] })
      .notNull()
      .default("collaborator"),
    // The row was made by opening the share link (not by the owner sharing by email): it follows the
    // link's access level and ends when the link is reset or turned off.
    viaLink: integer("via_link", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("timeline_shares_unique").on(t.timelineId, t.sharedWithUserId),
    index("timeline_shares_with_idx").on(t.sharedWithUserId),
  ],
);

// Writers the owner removed while a share link was live: that same code never lets them back in
// (a reset link has a new code, which can).
export const shareLinkRemovals = sqliteTable(
  "share_link_removals",
  {
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    shareCode: text("share_code").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.timelineId, t.userId, t.shareCode] })],
);

// The mind map: where nodes sit, plus the Premium idea and group nodes and labeled edges.
// Event and entity nodes get a row when first placed (or when an edge touches them); their rows and
// edges go with the event, entity or timeline (ON DELETE CASCADE).
export const mapNodes = sqliteTable(
  "map_nodes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["event", "entity", "idea", "group"] }).notNull(),
    eventId: integer("event_id").references(() => events.id, { onDelete: "cascade" }),
    entityId: integer("entity_id").references(() => entities.id, { onDelete: "cascade" }),
    text: text("text").notNull().default(""),
    x: real("x"),
    y: real("y"),
    width: real("width"),
    height: real("height"),
    color: text("color"),
    parentId: integer("parent_id").references((): AnySQLiteColumn => mapNodes.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("map_nodes_timeline_idx").on(t.timelineId),
    uniqueIndex("map_nodes_event_unique").on(t.timelineId, t.eventId),
    uniqueIndex("map_nodes_entity_unique").on(t.timelineId, t.entityId),
  ],
);

export const mapEdges = sqliteTable(
  "map_edges",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    sourceId: integer("source_id")
      .notNull()
      .references(() => mapNodes.id, { onDelete: "cascade" }),
    targetId: integer("target_id")
      .notNull()
      .references(() => mapNodes.id, { onDelete: "cascade" }),
    label: text("label").notNull().default(""),
    color: text("color"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("map_edges_timeline_idx").on(t.timelineId),
    index("map_edges_source_idx").on(t.sourceId),
    index("map_edges_target_idx").on(t.targetId),
  ],
);

// A share waiting for an address to be proven (no account yet, or an account that never verified it): the SHA-256 of the mailed token (never the token), and
// the level the owner chose. Once that address registers and is verified it becomes a timeline_shares row.
export const invitations = sqliteTable(
  "invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    invitedByUserId: integer("invited_by_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    accessLevel: text("access_level", { enum: ["viewer", "collaborator"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    // When the invitation was last mailed: an address is mailed about a timeline at most once a day.
    mailedAt: text("mailed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_unique").on(t.tokenHash),
    uniqueIndex("invitations_timeline_email_unique").on(t.timelineId, sql`lower(${t.email})`),
    index("invitations_email_idx").on(sql`lower(${t.email})`),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    relatedId: integer("related_id"),
    relatedType: text("related_type"),
    // Set when the notification is about a timeline, so deleting the timeline removes it.
    timelineId: integer("timeline_id").references(() => timelines.id, { onDelete: "cascade" }),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.read, t.createdAt), index("notifications_timeline_idx").on(t.timelineId)],
);
