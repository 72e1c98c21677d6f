import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are ISO-8601 strings (UTC, millisecond precision): they sort correctly as text,
// serialise to JSON unchanged and are readable in `wrangler d1 execute` output.
const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const createdAt = () => text("created_at").notNull().default(now);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    hashedPassword: text("hashed_password").notNull(),
    name: text("name"),
    avatar: text("avatar"),
    isEmailVerified: integer("is_email_verified", { mode: "boolean" }).notNull().default(false),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    subscriptionTier: text("subscription_tier").notNull().default("free"),
    subscriptionEndDate: text("subscription_end_date"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    // SHA-256 of the single-use reset token (never the token itself).
    resetPasswordToken: text("reset_password_token"),
    resetPasswordExpires: text("reset_password_expires"),
    lastLogin: text("last_login"),
    /** Words a day the writer aims for (null: no daily goal, no streak shown). */
    dailyGoalWords: integer("daily_goal_words"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    index("users_reset_token_idx").on(t.resetPasswordToken),
    index("users_stripe_subscription_idx").on(t.stripeSubscriptionId),
  ],
);

export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerId: text("provider_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oauth_provider_unique").on(t.provider, t.providerId), index("oauth_user_idx").on(t.userId)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 (hex) of the opaque token handed to the client.
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull().default(now),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

// One row per verification email sent: the SHA-256 of its single-use token (never the token itself),
// its expiry, and when it was sent (the resend throttle counts the rows of the last hour).
export const verificationTokens = sqliteTable(
  "verification_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("verification_tokens_hash_unique").on(t.tokenHash), index("verification_tokens_user_idx").on(t.userId, t.createdAt)],
);

export const loginAttempts = sqliteTable("login_attempts", {
  // "email:<lowercased email>" or "ip:<client address>"
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: text("window_start").notNull(),
  lockedUntil: text("locked_until"),
});

/** Fixed-window request counters for rate limits (worker/services/rate-limits.ts): "<rule>:<subject>". */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  windowStart: text("window_start").notNull(),
});

export const subscriptionHistory = sqliteTable(
  "subscription_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tier: text("tier").notNull(),
    startDate: text("start_date").notNull().default(now),
    endDate: text("end_date"),
    paymentAmount: real("payment_amount").notNull().default(0),
    paymentMethod: text("payment_method").notNull().default("admin"),
    status: text("status").notNull().default("active"),
    // Stripe checkout session id: makes confirming the same checkout twice a no-op.
    externalId: text("external_id"),
    createdAt: createdAt(),
  },
  (t) => [index("subscription_history_user_idx").on(t.userId), uniqueIndex("subscription_history_external_unique").on(t.externalId)],
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
    // its events, their codex links and attachments. The events API's ETag and cache key.
    eventsRevision: integer("events_revision").notNull().default(0),
    /** The book's word target (null: none set). The timeline's word count is the sum of its scenes'. */
    targetWords: integer("target_words"),
    /** The beat sheet overlaid on the story: a built-in's id ("save-the-cat") or a writer's own ("u-12"); null: none. */
    structureTemplateId: text("structure_template_id"),
    /** Readers (viewers) may comment on its scenes; the owner can turn it off. */
    viewersCanComment: integer("viewers_can_comment", { mode: "boolean" }).notNull().default(true),
    /** Trash (DESIGN §11): set when deleted; the hourly purge removes it 30 days later. Null: not trashed. */
    deletedAt: text("deleted_at"),
    deletedBy: integer("deleted_by").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("timelines_user_idx").on(t.userId, t.createdAt), uniqueIndex("timelines_share_code_unique").on(t.shareCode)],
);

// The codex: a timeline's characters, places and things.
export const entities = sqliteTable(
  "entities",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    timelineId: integer("timeline_id")
      .notNull()
      .references(() => timelines.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["character", "place", "thing"] }).notNull(),
    name: text("name").notNull(),
    aliases: text("aliases", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    description: text("description").notNull().default(""),
    color: text("color").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("entities_timeline_idx").on(t.timelineId)],
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
    storyLabel: text("story_label"),
    // Computed from story_start by the service: text order is wrong for negative and 5-6 digit years.
    storySort: integer("story_sort"),
    /** The chapter the scene belongs to (null: none). A chapter's scenes are contiguous in story order. */
    chapterId: integer("chapter_id").references((): AnySQLiteColumn => chapters.id, { onDelete: "set null" }),
    /** Words in `content` (db/domain/word-count.ts), kept by every write of the text; null: not counted yet. */
    wordCount: integer("word_count"),
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

// Settings an admin saves (AI and payment keys), AES-GCM encrypted under a key derived from APP_SECRET.
export const appConfig = sqliteTable("app_config", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: text("updated_at").notNull().default(now),
});

// Stripe webhook event ids already handled: a replayed delivery changes nothing.
export const processedWebhooks = sqliteTable("processed_webhooks", {
  id: text("id").primaryKey(),
  receivedAt: text("received_at").notNull().default(now),
});

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
